// docs/deploying.md's Cloudflare section followed as written: an app made by `sv create` with the
// adapter-cloudflare add-on, kitgate from the packed tarball, the section's files and commands in
// order (with the getting-started guide's hook and pages, as the section says), its D1 database
// migrated by `wrangler d1 migrations apply --local` from the folder the package ships, built and
// served by `wrangler dev` (workerd). In Chromium: a password, the local OpenID provider, an email
// link (the Worker posts it to a local stand-in of the mail service's HTTP API) and a passkey
// (Chromium's virtual authenticator), with the section's database sessions and again in a copy of
// the app whose only change is `strategy: 'jwt'`. What landed in D1 is read back with
// `wrangler d1 execute --local`, and the app is type-checked by its own `npm run check`.

import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startDemoIdp } from '../scripts/demo-idp.js';
import { freshAddress, loginAtIdp, realApps } from './apps.js';
import { codeBlocks, markdownSection, setEnvFile, type CodeBlock } from './guide.js';
import { SV } from './setup.js';
import { freePort } from '../scripts/free-port.js';

const ROOT = resolve(import.meta.dirname, '..');
const SECTION = 'Cloudflare Workers: SvelteKit with D1';
const CLIENT = { client_id: 'cloudflare-app', client_secret: 'cloudflare-app-secret-cloudflare-app-secret' };
const MAIL_KEY = 're_cloudflare_spec_key';
const STRATEGIES = ['database', 'jwt'] as const;
type Strategy = (typeof STRATEGIES)[number];

/** A mail the Worker posted to the mail API (the body of Resend's `POST /emails`). */
interface PostedMail {
	from: string;
	to: string;
	subject: string;
	text: string;
	html: string;
}

/** The environment of every command: no AUTH_* or NODE_ENV of this process; wrangler offline and quiet. */
function commandEnv(): NodeJS.ProcessEnv {
	const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AUTH_') && name !== 'NODE_ENV'));
	return {
		...inherited,
		npm_config_audit: 'false',
		npm_config_fund: 'false',
		npm_config_loglevel: 'error',
		WRANGLER_SEND_METRICS: 'false',
		// no network here: wrangler would fetch the `Request.cf` fields from workers.cloudflare.com
		CLOUDFLARE_CF_FETCH_ENABLED: 'false',
		NO_COLOR: '1'
	};
}

/** Ends the process group `child` leads (what is left of it). */
function endGroup(child: ChildProcess): void {
	try {
		if (child.pid) process.kill(-child.pid, 'SIGTERM');
	} catch {
		// the group is gone already
	}
}

/**
 * Runs `script` with bash in `dir` and answers its output. It runs in a process group of its own,
 * ended afterwards: the build's platform emulation (adapter-cloudflare's) leaves a workerd behind.
 */
function run(script: string, dir: string): Promise<string> {
	const child = spawn('bash', ['-e', '-c', script], { cwd: dir, env: commandEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	child.stdout?.on('data', (chunk) => (output += String(chunk)));
	child.stderr?.on('data', (chunk) => (output += String(chunk)));
	return new Promise((done, fail) => {
		child.on('error', fail);
		child.on('exit', (code) => {
			endGroup(child);
			if (code === 0) done(output);
			else fail(new Error(`\`${script.trim()}\` in ${dir} exited with ${code}:\n${output}`));
		});
	});
}

/** The section's commands with the tarball where they install `kitgate` (as e2e-apps/guide.ts does). */
function localCommands(block: CodeBlock, tarball: string): string {
	return block.code.replace(/^(npm install\b.*?)\bkitgate\b/gm, (_, head: string) => `${head}${tarball}`);
}

function write(dir: string, block: CodeBlock): void {
	mkdirSync(dirname(join(dir, block.file!)), { recursive: true });
	writeFileSync(join(dir, block.file!), block.code);
}

/** `sv create` with the section's options, as e2e-apps/setup.ts makes the other apps (its pinned `sv`). */
async function create(dir: string, block: CodeBlock): Promise<void> {
	const command = block.code.split('\n').find((line) => line.includes(' sv create my-app '));
	expect(command, `${block.source}: an \`npx sv create my-app …\` line`).toBeDefined();
	const options = command!.slice(command!.indexOf(' my-app ') + ' my-app '.length).trim();
	expect(options).toContain('--no-install');
	await run(`npx --yes ${SV} create ${dir} ${options}`, dirname(dir));
}

/**
 * Makes the app of the section in `dir`: its blocks in order (the `sv create` line, files, `bash run`
 * commands), `.dev.vars` filled in with this test's IdP and mail API as a user fills in their own.
 * Answers the section's `bash start` command.
 */
async function followSection(dir: string, tarball: string, devVars: Record<string, string>): Promise<string> {
	const blocks = markdownSection(join(ROOT, 'docs/deploying.md'), SECTION, 'docs/deploying.md');
	const guidePages = codeBlocks(join(ROOT, 'docs/getting-started-sveltekit.md'), 'docs/getting-started-sveltekit.md').filter(
		(block) => block.file === 'src/hooks.server.ts' || block.file?.startsWith('src/routes/')
	);
	expect(guidePages.length, "the guide's hook and pages").toBeGreaterThan(5);
	let start: string | undefined;
	for (const block of blocks) {
		if (block.lang === 'bash' && block.meta === '') {
			await create(dir, block);
			// the hook, layout and pages of the getting-started guide, which the section's own files follow
			for (const page of guidePages) write(dir, page);
		} else if (block.lang === 'bash' && block.meta === 'run') {
			await run(localCommands(block, tarball), dir);
		} else if (block.lang === 'bash' && block.meta === 'start') {
			start = block.code.trim();
		} else if (block.file === '.dev.vars') {
			appendFileSync(join(dir, '.dev.vars'), block.code.split('\n').slice(1).join('\n'));
			setEnvFile(dir, devVars, '.dev.vars');
		} else if (block.file) {
			write(dir, block);
		}
	}
	expect(start, 'a `bash start` block').toBeDefined();
	return start!;
}

/** A copy of the built app in `to` with JWT sessions (the word the section's comment names), built again. */
async function jwtCopy(from: string, to: string): Promise<void> {
	cpSync(from, to, { recursive: true, filter: (source) => source !== join(from, 'node_modules') });
	symlinkSync(join(from, 'node_modules'), join(to, 'node_modules'));
	const auth = join(to, 'src/auth.ts');
	const code = readFileSync(auth, 'utf8');
	const changed = code.replace("session: { strategy: 'database' }", "session: { strategy: 'jwt' }");
	expect(changed, "src/auth.ts has `session: { strategy: 'database' }`").not.toBe(code);
	writeFileSync(auth, changed);
	await run('npm run build', to);
}

/** Starts the section's `command` in `dir`, on 127.0.0.1:`port` (the options added), and waits until the auth routes answer. */
async function startWorker(command: string, dir: string, port: number): Promise<ChildProcess> {
	const child = spawn('bash', ['-c', `${command} --ip 127.0.0.1 --port ${port}`], { cwd: dir, env: commandEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	child.stdout?.on('data', (chunk) => (output += String(chunk)));
	child.stderr?.on('data', (chunk) => (output += String(chunk)));
	for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((wait) => setTimeout(wait, 250))) {
		if (child.exitCode !== null) throw new Error(`\`${command}\` exited with ${child.exitCode}:\n${output}`);
		const answer = await fetch(`http://127.0.0.1:${port}/auth/session`).catch(() => undefined);
		if (answer?.ok) return child;
	}
	endGroup(child);
	throw new Error(`\`${command}\` did not answer on port ${port}:\n${output}`);
}

/** The rows of each query in the app's local D1, read by wrangler's own CLI (in one call: each costs seconds). */
async function d1(dir: string, queries: string[]): Promise<Record<string, unknown>[][]> {
	const output = await run(`npx wrangler d1 execute DB --local --json --command "${queries.join('; ')}"`, dir);
	return (JSON.parse(output.slice(output.indexOf('['))) as { results: Record<string, unknown>[] }[]).map((result) => result.results);
}

/** The mail API's stand-in: Resend's `POST /emails` with its bearer key; keeps what it was sent. */
function startMailApi(mails: PostedMail[]): Promise<Server> {
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
			if (request.method !== 'POST' || request.url !== '/emails') return json(404, { message: 'not found' });
			if (request.headers.authorization !== `Bearer ${MAIL_KEY}`) return json(401, { message: 'wrong API key' });
			mails.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as PostedMail);
			json(200, { id: String(mails.length) });
		});
	});
	return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

function portOf(server: Server): number {
	return (server.address() as { port: number }).port;
}

const mails: PostedMail[] = [];
const ports: Record<Strategy, number> = { database: 0, jwt: 0 };
const dirs: Record<Strategy, string> = { database: '', jwt: '' };
const workers: ChildProcess[] = [];
let work: string | undefined;
let idp: Awaited<ReturnType<typeof startDemoIdp>> | undefined;
let mailApi: Server | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
	// sv create, npm installs, wrangler types and migrations, two builds: minutes on a busy machine
	test.setTimeout(10 * 60_000);
	for (const strategy of STRATEGIES) ports[strategy] = await freePort();
	idp = await startDemoIdp({
		// passkeys need a host name, not an IP address: the browser goes to localhost
		clients: [{ ...CLIENT, redirect_uris: STRATEGIES.map((strategy) => `http://localhost:${ports[strategy]}/auth/callback/oidc`) }]
	});
	mailApi = await startMailApi(mails);
	work = mkdtempSync(join(tmpdir(), 'kitgate-cloudflare-'));
	dirs.database = join(work, 'my-app');
	dirs.jwt = join(work, 'my-app-jwt');
	const start = await followSection(dirs.database, realApps().tarball, {
		AUTH_OIDC_ID: CLIENT.client_id,
		AUTH_OIDC_SECRET: CLIENT.client_secret,
		AUTH_OIDC_ISSUER: idp.issuer,
		MAIL_API_URL: `http://127.0.0.1:${portOf(mailApi)}/emails`,
		MAIL_API_KEY: MAIL_KEY
	});
	await jwtCopy(dirs.database, dirs.jwt);
	for (const strategy of STRATEGIES) workers.push(await startWorker(start, dirs[strategy], ports[strategy]));
});

test.afterAll(async () => {
	for (const worker of workers) endGroup(worker);
	await idp?.close();
	mailApi?.close();
	if (work && !process.env.KEEP_REAL_APPS) rmSync(work, { recursive: true, force: true });
});

/** The sign-in link of the newest mail to `address`. */
async function linkFor(address: string): Promise<string> {
	let link: string | undefined;
	await expect
		.poll(() => {
			const mail = mails.findLast((one) => one.to === address);
			link = mail?.text.match(/https?:\/\/\S+\/auth\/callback\/email\?\S+/)?.[0];
			return link;
		})
		.toBeTruthy();
	return link!;
}

/** Signs in with an email link to `address`, from the sign-in page to the dashboard. */
async function signInByEmail(page: Page, origin: string, address: string): Promise<void> {
	await page.goto(`${origin}/signin?callbackUrl=%2Fdashboard`);
	await page.getByLabel('Email address').fill(address);
	await page.getByRole('button', { name: 'Sign in with Email' }).click();
	await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
	await page.goto(await linkFor(address));
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page).toHaveURL(`${origin}/dashboard`);
	await expect(page.getByTestId('dashboard-user')).toHaveText(address);
}

for (const strategy of STRATEGIES) {
	test.describe(`${strategy} sessions`, () => {
		const origin = () => `http://localhost:${ports[strategy]}`;
		const login = `cf-${strategy}`;
		let passkeyUser = '';

		test('credentials: a protected page sends to /signin, the password signs in, sign-out signs out', async ({ page }) => {
			await page.goto(`${origin()}/dashboard`);
			await expect(page).toHaveURL(`${origin()}/signin?callbackUrl=%2Fdashboard`);
			await page.getByLabel('Username').fill('ada');
			await page.getByLabel('Password').fill('correct horse battery staple');
			await page.getByRole('button', { name: 'Sign in with Credentials' }).click();
			await expect(page).toHaveURL(`${origin()}/dashboard`);
			await expect(page.getByTestId('dashboard-user')).toHaveText('ada@example.com');
			await page.getByRole('button', { name: /sign out/i }).click();
			await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
			await page.goto(`${origin()}/dashboard`);
			await expect(page).toHaveURL(/\/signin/);
		});

		test('credentials: a wrong password shows the error on the page', async ({ page }) => {
			await page.goto(`${origin()}/signin`);
			await page.getByLabel('Username').fill('ada');
			await page.getByLabel('Password').fill('wrong');
			await page.getByRole('button', { name: 'Sign in with Credentials' }).click();
			await expect(page.getByRole('alert')).toContainText(/sign in failed/i);
		});

		test('OpenID Connect: the local identity provider signs in', async ({ page }) => {
			await page.goto(`${origin()}/signin?callbackUrl=%2Fdashboard`);
			await page.getByRole('button', { name: 'Sign in with Company SSO' }).click();
			await loginAtIdp(page, login);
			await expect(page).toHaveURL(`${origin()}/dashboard`);
			await expect(page.getByTestId('dashboard-user')).toHaveText(`${login}@example.test`);
		});

		test('email: the Worker posts the link to the mail API, and the link signs in', async ({ page }) => {
			const address = freshAddress(`cf-${strategy}`);
			await signInByEmail(page, origin(), address);
			const mail = mails.findLast((one) => one.to === address)!;
			expect(mail.from).toBe('My App <no-reply@example.com>');
			expect(mail.subject).toBe(`Sign in to localhost:${ports[strategy]}`);
			expect(mail.html).toContain('/auth/callback/email?');
		});

		test('passkey: added on the dashboard after an email sign-in, then signs in alone', async ({ page }) => {
			// Chromium's virtual authenticator; passkey autofill off, so that the button runs the ceremony
			await page.addInitScript(() => {
				PublicKeyCredential.isConditionalMediationAvailable = async () => false;
			});
			const cdp = await page.context().newCDPSession(page);
			await cdp.send('WebAuthn.enable');
			const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
				options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true }
			});
			passkeyUser = freshAddress(`cf-passkey-${strategy}`);
			await signInByEmail(page, origin(), passkeyUser);
			await page.getByRole('button', { name: 'Add a passkey' }).click();
			await expect(page.getByText('Passkey added.')).toBeVisible();
			expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
			await page.getByRole('button', { name: /sign out/i }).click();
			await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
			await page.goto(`${origin()}/signin?callbackUrl=%2Fdashboard`);
			await page.getByRole('button', { name: /sign in with passkey/i }).click();
			await expect(page).toHaveURL(`${origin()}/dashboard`);
			await expect(page.getByTestId('dashboard-user')).toHaveText(passkeyUser);
		});

		test(`D1 holds the users, their accounts and passkeys, and ${strategy === 'database' ? 'the sessions' : "only records of the JWT sessions (the account page's list)"}`, async () => {
			const [users, accounts, passkeys, sessions] = await d1(dirs[strategy], [
				'select email from users',
				'select provider from accounts',
				'select users.email from authenticators join users on users.id = authenticators.user_id',
				"select session_token like 'jwt:%' as jwt from sessions"
			]);
			expect(users.map((row) => row.email)).toEqual(expect.arrayContaining([`${login}@example.test`, passkeyUser]));
			expect(accounts.map((row) => row.provider)).toEqual(expect.arrayContaining(['oidc', 'passkey']));
			expect(passkeys.map((row) => row.email)).toEqual([passkeyUser]);
			// the browsers still signed in: the OIDC and email tests' (the others signed out). A JWT
			// session's row (token `jwt:<id>`) is never read as a session: its cookie is the session
			expect(sessions.length).toBeGreaterThanOrEqual(2);
			expect(sessions.every((row) => row.jwt === (strategy === 'jwt' ? 1 : 0))).toBe(true);
		});
	});
}

test("the app type-checks with the section's files (`npm run check`: svelte-check, platform.env typed by `wrangler types`)", async () => {
	test.setTimeout(5 * 60_000);
	await run('npm run check', dirs.database);
});
