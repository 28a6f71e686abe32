// The engine scenario on every runtime kitgate claims: Node, Bun, Deno, Cloudflare workerd (with
// and without nodejs_compat) and Vercel's Edge Runtime, each running the same app (runtime-app.ts)
// bundled for it, driven over HTTP: CSRF, credentials (scrypt in the runtime), email links,
// passkeys, an OpenID provider, JWT and database sessions, the second factor, the account routes and
// organizations (create, invite by mail, accept, the active organization in the session).

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDemoIdp } from '../../../../../../scripts/demo-idp.js';
import { hashPassword } from '../../passwords/password-hashing.js';
import { totpCode, totpStep } from '../../two-factor/totp.js';
import { loginAtIdp } from '../idp-browser.js';
import { Browser } from '../integrations.js';
import { softwareAuthenticator } from '../software-authenticator.js';
import type { SentMail } from './runtime-app.js';
import { RUNTIMES, freePort, startRuntime, type RuntimeName, type RuntimeServer } from './runtime-servers.js';

const PASSWORD = 'correct horse battery staple';
const STRATEGIES = ['jwt', 'db'] as const;
const CLIENT = { client_id: 'runtimes', client_secret: 'runtimes-secret-runtimes-secret-runtimes' };

const ports = new Map<RuntimeName, number>();
let idp: Awaited<ReturnType<typeof startDemoIdp>>;
let passwordHash: string;

beforeAll(async () => {
	for (const runtime of RUNTIMES) ports.set(runtime, await freePort());
	const redirects = RUNTIMES.flatMap((runtime) => STRATEGIES.map((strategy) => `http://127.0.0.1:${ports.get(runtime)}/${strategy}/auth/callback/idp`));
	[idp, passwordHash] = await Promise.all([startDemoIdp({ clients: [{ ...CLIENT, redirect_uris: redirects }] }), hashPassword(PASSWORD)]);
});
afterAll(() => idp?.close());

describe.each(RUNTIMES)('%s', (runtime) => {
	let server: RuntimeServer;
	beforeAll(async () => {
		server = await startRuntime(
			runtime,
			{
				AUTH_SECRET: 'runtime-scenario-secret-0123456789abcdefghij',
				PASSWORD_HASH: passwordHash,
				IDP_ISSUER: idp.issuer,
				IDP_CLIENT_ID: CLIENT.client_id,
				IDP_CLIENT_SECRET: CLIENT.client_secret
			},
			ports.get(runtime)
		);
	}, 120_000);
	afterAll(() => server?.close());

	describe.each(STRATEGIES)('%s sessions', (strategy) => {
		const base = () => `${server.origin}/${strategy}/auth`;
		const session = async (browser: Browser) => (await (await browser.request(`${base()}/session`)).json()) as { user?: { name?: string | null; email?: string | null } } | null;
		const outbox = async () => (await (await fetch(`${server.origin}/${strategy}/__outbox`)).json()) as SentMail[];

		async function csrf(browser: Browser): Promise<string> {
			return ((await (await browser.request(`${base()}/csrf`)).json()) as { csrfToken: string }).csrfToken;
		}
		async function signInByEmail(browser: Browser, address: string): Promise<Response> {
			await browser.request(`${base()}/signin/email`, { form: { csrfToken: await csrf(browser), email: address } });
			const link = new URL((await outbox()).filter((mail) => mail.to === address && mail.kind === 'sign-in').at(-1)!.url);
			return browser.request(`${base()}/callback/email`, { form: { csrfToken: await csrf(browser), token: link.searchParams.get('token')!, email: address } });
		}
		async function signInWithPassword(browser: Browser, password = PASSWORD): Promise<Response> {
			return browser.request(`${base()}/callback/credentials`, { form: { csrfToken: await csrf(browser), username: 'ada', password } });
		}

		test('CSRF, credentials (scrypt in the runtime), the session, sign-out', async () => {
			const browser = new Browser();
			expect(await session(browser)).toBeNull();
			const forged = await browser.request(`${base()}/callback/credentials`, { form: { csrfToken: 'forged', username: 'ada', password: PASSWORD } });
			expect(new URL(forged.headers.get('location')!).searchParams.get('error')).toBe('MissingCSRF');
			const wrong = await signInWithPassword(browser, 'wrong password');
			expect(new URL(wrong.headers.get('location')!).searchParams.get('error')).toBe('CredentialsSignin');
			expect(await session(browser)).toBeNull();
			expect((await signInWithPassword(browser)).status).toBe(302);
			expect((await session(browser))?.user?.name).toBe('Ada');
			await browser.request(`${base()}/signout`, { form: { csrfToken: await csrf(browser) } });
			expect(await session(browser)).toBeNull();
		});

		test('an email link: asked for, confirmed once, not again', async () => {
			const browser = new Browser();
			const address = `grace-${runtime}-${strategy}@example.com`;
			expect((await browser.request(`${base()}/signin/email`, { form: { csrfToken: await csrf(browser), email: address } })).status).toBe(302);
			const link = (await outbox()).filter((mail) => mail.to === address).at(-1)!.url;
			const page = await browser.request(link);
			expect(page.status).toBe(200);
			const form = { csrfToken: await csrf(browser), token: new URL(link).searchParams.get('token')!, email: address };
			expect((await browser.request(`${base()}/callback/email`, { form })).status).toBe(302);
			expect((await session(browser))?.user?.email).toBe(address);
			const again = new Browser();
			const reused = await again.request(`${base()}/callback/email`, { form: { ...form, csrfToken: await csrf(again) } });
			expect(new URL(reused.headers.get('location')!).searchParams.get('error')).toBe('Verification');
			expect(await session(again)).toBeNull();
		});

		test('a passkey: registered with a new account, then the sign-in in another browser', async () => {
			const device = softwareAuthenticator(server.origin);
			const address = `lin-${runtime}-${strategy}@example.com`;
			const browser = new Browser();
			const registration = (await (await browser.request(`${base()}/webauthn-options/passkey?action=register&email=${encodeURIComponent(address)}`)).json()) as { options: never };
			const registered = await browser.request(`${base()}/callback/passkey`, { json: { csrfToken: await csrf(browser), action: 'register', data: device.register(registration.options) } });
			expect(registered.status, await registered.clone().text()).toBe(200);
			const registeredUser = (await session(browser))?.user;
			expect(registeredUser).toBeTruthy();
			const other = new Browser();
			const authentication = (await (await other.request(`${base()}/webauthn-options/passkey?action=authenticate`)).json()) as { options: never };
			const signedIn = await other.request(`${base()}/callback/passkey`, { json: { csrfToken: await csrf(other), action: 'authenticate', data: device.authenticate(authentication.options) } });
			expect(signedIn.status, await signedIn.clone().text()).toBe(200);
			expect((await session(other))?.user).toEqual(registeredUser);
		});

		test('an OpenID provider: state, PKCE and nonce, the ID token checked in the runtime', async () => {
			const browser = new Browser();
			const started = await browser.request(`${base()}/signin/idp`, { form: { csrfToken: await csrf(browser) } });
			expect(started.status).toBe(302);
			const login = `oidc-${runtime}-${strategy}`;
			const callback = await loginAtIdp(started.headers.get('location')!, { login });
			const done = await browser.request(callback);
			expect(done.status, await done.clone().text()).toBe(302);
			expect(new URL(done.headers.get('location')!, server.origin).searchParams.get('error')).toBeNull();
			// the IdP's generated, verified address of this login
			expect((await session(browser))?.user?.email).toBe(`${login}@example.test`);
		});

		test('the second factor: set up from the account routes, then asked for at the next sign-in', async () => {
			const address = `joan-${runtime}-${strategy}@example.com`;
			const browser = new Browser();
			await signInByEmail(browser, address);
			const token = await csrf(browser);
			const started = await browser.request(`${base()}/account/two-factor-start`, { json: { csrfToken: token } });
			const { secret, pending } = (await started.json()) as { secret: string; pending: string };
			expect(secret, 'the new key').toMatch(/^[A-Z2-7]{32}$/);
			const code = (steps = 0) => totpCode(secret, totpStep() + steps);
			const confirmed = await browser.request(`${base()}/account/two-factor-confirm`, { json: { csrfToken: token, pending, code: code() } });
			expect(confirmed.status, await confirmed.clone().text()).toBe(200);
			expect(((await confirmed.json()) as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);

			const later = new Browser();
			const first = await signInByEmail(later, address);
			expect(first.headers.get('location')).toBe(`${base()}/second-factor`);
			expect(await session(later)).toBeNull();
			const wrong = await later.request(`${base()}/second-factor`, { form: { csrfToken: await csrf(later), code: '000000' } });
			expect(wrong.status).toBeGreaterThanOrEqual(300);
			expect(await session(later)).toBeNull();
			// the next step's code: the current one was spent confirming the key
			const second = await later.request(`${base()}/second-factor`, { form: { csrfToken: await csrf(later), code: code(1) } });
			expect(second.status).toBe(302);
			expect((await session(later))?.user?.email).toBe(address);
		});

		test('the account routes: the overview lists this session; an email change by its link', async () => {
			const browser = new Browser();
			const address = `hedy-${runtime}-${strategy}@example.com`;
			await signInByEmail(browser, address);
			const overview = (await (await browser.request(`${base()}/account`, { headers: { accept: 'application/json' } })).json()) as { user: { email: string }; sessions: { current: boolean }[] };
			expect(overview.user.email).toBe(address);
			expect(overview.sessions.filter((listed) => listed.current)).toHaveLength(1);
			const changed = `hedy-new-${runtime}-${strategy}@example.com`;
			const asked = await browser.request(`${base()}/account/change-email`, { json: { csrfToken: await csrf(browser), email: changed } });
			expect(asked.status, await asked.clone().text()).toBe(200);
			const confirm = new URL((await outbox()).filter((mail) => mail.to === changed && mail.kind === 'confirm-email-change').at(-1)!.url);
			const done = await browser.request(`${base()}/account/confirm-email`, {
				json: { csrfToken: await csrf(browser), token: confirm.searchParams.get('token')!, email: changed }
			});
			expect(done.status, await done.clone().text()).toBe(200);
			expect((await session(browser))?.user?.email).toBe(changed);
		});

		test('organizations: created, an invitation mailed and accepted, the active organization in each session', async () => {
			const owner = new Browser();
			const ownerAddress = `org-owner-${runtime}-${strategy}@example.com`;
			await signInByEmail(owner, ownerAddress);
			const created = await owner.request(`${base()}/organizations/create`, { json: { csrfToken: await csrf(owner), name: 'Acme Runtime' } });
			expect(created.status, await created.clone().text()).toBe(200);
			const { organizationId } = (await created.json()) as { organizationId: string };
			expect(((await session(owner)) as { organization?: unknown } | null)?.organization).toMatchObject({ id: organizationId, role: 'owner' });

			const invitee = `org-bo-${runtime}-${strategy}@example.com`;
			const invited = await owner.request(`${base()}/organizations/invite`, { json: { csrfToken: await csrf(owner), organizationId, email: invitee, role: 'admin' } });
			expect(invited.status, await invited.clone().text()).toBe(200);
			const link = new URL((await outbox()).filter((mail) => mail.to === invitee && mail.kind === 'organization-invitation').at(-1)!.url);
			expect(link.origin).toBe(server.origin);

			const bo = new Browser();
			await signInByEmail(bo, invitee);
			const token = link.searchParams.get('token')!;
			const forged = await bo.request(`${base()}/organizations/accept-invitation`, { json: { csrfToken: await csrf(bo), token: `${token.split('.')[0]}.${'A'.repeat(43)}` } });
			expect(((await forged.json()) as { error?: string }).error).toBe('InvitationInvalid');
			const accepted = await bo.request(`${base()}/organizations/accept-invitation`, { json: { csrfToken: await csrf(bo), token } });
			expect(accepted.status, await accepted.clone().text()).toBe(200);
			expect(((await session(bo)) as { organization?: unknown } | null)?.organization).toMatchObject({ id: organizationId, name: 'Acme Runtime', role: 'admin' });
		});
	});
});
