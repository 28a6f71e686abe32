#!/usr/bin/env node
// kitgate on Cloudflare Workers and cold starts (issue 29): the size of a minimal kitgate Worker
// against Cloudflare's limits and against Auth.js's; the CPU time per request on workerd
// (Miniflare) for the session check and each sign-in, side by side with Auth.js; the password
// hash's cost against Workers' CPU limits; and cold starts (process start to first answer) on
// Node and workerd. `node bench/runtimes.js [--quick]`; writes bench/RUNTIMES.md and
// bench/runtimes.json. Loopback only, offline, bounded; see bench/README.md.

import { execFileSync, fork, spawn } from 'node:child_process';
import { randomBytes, scryptSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { BENCH_USER, CREDENTIALS, SECRET } from './apps/shared.js';
import { ensureReferenceInstalled } from './install-reference.js';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(BENCH_DIR);
const REFERENCE_DIR = join(BENCH_DIR, 'reference');
const WORKERS_DIR = join(BENCH_DIR, 'workers');

// Miniflare and wrangler stay offline: no metrics, no download of the `request.cf` object
process.env.WRANGLER_SEND_METRICS = 'false';
process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';

// ---------------------------------------------------------------------------------------------
// Settings

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
	const index = argv.indexOf(`--${name}`);
	return index >= 0 && argv[index + 1] !== undefined ? Number(argv[index + 1]) : fallback;
};
if (flag('help')) {
	console.log(`usage: node bench/runtimes.js [--quick] [--rounds N] [--report-only]
  --quick        2 rounds and fewer requests per measure (default: 5 rounds)
  --rounds N     rounds of the CPU measures (each cold start runs 2 × N times)
  --report-only  nothing run: re-render RUNTIMES.md from runtimes.json`);
	process.exit(0);
}
const QUICK = flag('quick');
const ROUNDS = Math.max(1, option('rounds', QUICK ? 2 : 5));
/** Runs of each cold start: one start is one sample, and a busy machine moves each by tens of ms. */
const COLD_STARTS = 2 * ROUNDS;
/** Requests (or operations) per measure and round. */
const COUNTS = QUICK
	? { floor: 150, session: 150, signIn: 50, hashedSignIn: 2, emailRequest: 50, emailConfirm: 40, hash: 2 }
	: { floor: 300, session: 300, signIn: 80, hashedSignIn: 3, emailRequest: 80, emailConfirm: 60, hash: 3 };
/** The scrypt costs (log2 N, r = 8, p = 1) whose check is measured; 15 is kitgate's. */
const HASH_COSTS = [15, 14, 13, 12, 11, 10];
const DEFAULT_LOG_N = 15;
/** Cloudflare's documented limits (developers.cloudflare.com/workers/platform/limits, read 2026-11). */
const LIMITS = {
	freeCompressedBytes: 3 * 1024 * 1024,
	paidCompressedBytes: 10 * 1024 * 1024,
	uncompressedBytes: 64 * 1024 * 1024,
	freeCpuMs: 10,
	paidDefaultCpuMs: 30_000,
	paidMaxCpuMs: 300_000,
	startupMs: 1000
};
/** OWASP's Password Storage Cheat Sheet: scrypt N = 2^17, r = 8, p = 1 at least. */
const OWASP_LOG_N = 17;
const COMPATIBILITY_DATE = '2026-04-01';

/** Progress goes to stderr so that stdout carries only the Markdown report. */
const say = (...parts) => console.error('[runtimes]', ...parts);

// ---------------------------------------------------------------------------------------------
// Clean-up: Node children, workerd processes and the scratch folder, on every way out.

const children = new Set();
const runtimePids = new Set();
const exitTasks = [];
function cleanUp() {
	for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
	children.clear();
	for (const pid of runtimePids) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}
	runtimePids.clear();
	while (exitTasks.length) {
		try {
			exitTasks.pop()();
		} catch {
			// keep cleaning
		}
	}
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		say(`${signal}: stopping`);
		cleanUp();
		process.exit(130);
	});
}

// ---------------------------------------------------------------------------------------------
// kitgate's dist/ (the bundles import the package as an app would) and the bundles

function newestMtime(path) {
	const stat = statSync(path);
	if (!stat.isDirectory()) return stat.mtimeMs;
	let newest = stat.mtimeMs;
	for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
	return newest;
}

/** Runs a command in its own process group (npx starts grandchildren), killed after `timeout` ms. */
function runCommand(command, args, timeout = 300_000) {
	return new Promise((resolve) => {
		const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		const keep = (chunk) => {
			output = (output + chunk).slice(-8000);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		const kill = () => {
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				// already gone
			}
		};
		exitTasks.push(kill);
		const timer = setTimeout(kill, timeout);
		child.on('close', (status) => {
			clearTimeout(timer);
			resolve({ status, output });
		});
	});
}

/** Builds dist/ as `npm run package` does when it is missing or older than src/lib; else measures the existing one and says so. */
async function ensureDist() {
	const distIndex = join(ROOT, 'dist', 'index.js');
	if (existsSync(distIndex) && statSync(distIndex).mtimeMs >= newestMtime(join(ROOT, 'src', 'lib'))) return 'dist/ was up to date';
	say('building dist/ with svelte-package…');
	if (!existsSync(join(ROOT, '.svelte-kit', 'tsconfig.json'))) await runCommand('npx', ['svelte-kit', 'sync']);
	const packaged = await runCommand('npx', ['svelte-package']);
	const stripped = packaged.status === 0 && (await runCommand('node', [join(ROOT, 'scripts', 'strip-comments.js')])).status === 0;
	if (stripped) return 'dist/ rebuilt with svelte-package';
	const reason = packaged.output.trim().split('\n').slice(-5).join(' ');
	if (existsSync(distIndex)) return `svelte-package failed, the existing (stale) dist/ was measured: ${reason}`;
	throw new Error(`svelte-package failed and there is no dist/: ${reason}`);
}

/** How esbuild bundles a Worker here: as `esbuild --bundle --minify --format=esm --platform=browser --conditions=workerd,worker,browser`. */
const WORKER_BUILD = { bundle: true, minify: true, format: 'esm', platform: 'browser', conditions: ['workerd', 'worker', 'browser'], metafile: true, write: false, logLevel: 'error' };

/** The bench's Workers: their entry file, what they are, and whether they go in the size table. */
const WORKERS = {
	'kitgate-credentials': { entry: join(WORKERS_DIR, 'kitgate-credentials.js'), label: 'kitgate: credentials + JWT', size: true },
	'kitgate-email': { entry: join(WORKERS_DIR, 'kitgate-email.js'), label: 'kitgate: + email links (memory adapter)', size: true },
	'kitgate-passkey': { entry: join(WORKERS_DIR, 'kitgate-passkey.js'), label: 'kitgate: + email links + passkeys', size: true },
	authjs: { entry: join(REFERENCE_DIR, 'authjs-worker.js'), label: 'Auth.js: credentials + JWT', size: true },
	'authjs-email': { entry: join(REFERENCE_DIR, 'authjs-email-worker.js'), label: 'Auth.js: + email links (memory adapter)', size: true },
	'kitgate-hash': { entry: join(WORKERS_DIR, 'kitgate-hash.js'), label: "kitgate's verifyPassword alone" },
	'node-scrypt': { entry: join(WORKERS_DIR, 'node-scrypt.js'), label: 'node:crypto scrypt (nodejs_compat)', external: ['node:*'], nodejsCompat: true },
	empty: { entry: join(WORKERS_DIR, 'empty.js'), label: 'empty Worker (answers null)' }
};

/** The package (or kitgate folder) an input file of a bundle belongs to, for the size breakdown. */
function partOf(input) {
	const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
	if (inPackage) return inPackage[1];
	const inDist = /(?:^|\/)dist\/(.*)$/.exec(input);
	if (inDist) {
		const segments = inDist[1].split('/');
		return segments.length === 1 ? `kitgate ${segments[0]}` : `kitgate ${segments.slice(0, segments[0] === 'server' ? 2 : 1).join('/')}/`;
	}
	return 'bench entry';
}

/** The packages `@simplewebauthn/server` 14 brings into a bundle (its dependency tree), summed in the report. */
const PASSKEY_SERVER_PARTS = /^(@simplewebauthn\/server|asn1js|@peculiar\/|tsyringe|reflect-metadata|pvtsutils|pvutils|@levischuck\/tiny-cbor|@hexagon\/base64|tslib)/;

/** Bytes of `code`: raw, gzip (zlib's default level, as wrangler reports it) and brotli (quality 11). */
function sizesOf(code) {
	return {
		raw: code.length,
		gzip: gzipSync(code).length,
		brotli: brotliCompressSync(code, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).length
	};
}

/** Bundles every Worker into `scratch`: its file, sizes and the parts it is made of (bytes in the output per package). */
async function bundleWorkers(scratch) {
	const { build } = await import('esbuild');
	const bundles = {};
	for (const [name, worker] of Object.entries(WORKERS)) {
		const result = await build({ ...WORKER_BUILD, entryPoints: [worker.entry], outfile: join(scratch, `${name}.mjs`), external: worker.external ?? [] });
		const [output] = result.outputFiles;
		writeFileSync(output.path, output.contents);
		const parts = {};
		for (const [input, { bytesInOutput }] of Object.entries(Object.values(result.metafile.outputs)[0].inputs)) {
			const part = partOf(relative(ROOT, input));
			parts[part] = (parts[part] ?? 0) + bytesInOutput;
		}
		bundles[name] = { ...worker, file: output.path, sizes: sizesOf(output.contents), parts };
	}
	return bundles;
}

/**
 * Bundles a Worker module with bench/workers/node-server.js for Node (esbuild, platform node, not
 * minified, as an app's bundler such as adapter-node's would), so that it runs on node:http.
 */
async function bundleForNode(scratch, name, workerEntry) {
	const { build } = await import('esbuild');
	const outfile = join(scratch, `${name}.node.mjs`);
	await build({
		stdin: {
			contents: `import worker from ${JSON.stringify(workerEntry)};\nimport { serveOnNode } from ${JSON.stringify(join(WORKERS_DIR, 'node-server.js'))};\nserveOnNode(worker);\n`,
			resolveDir: dirname(workerEntry),
			loader: 'js'
		},
		outfile,
		bundle: true,
		format: 'esm',
		platform: 'node',
		target: 'node20',
		conditions: ['node'],
		// CommonJS dependencies may require Node's modules
		banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
		logLevel: 'error'
	});
	return outfile;
}

// ---------------------------------------------------------------------------------------------
// CPU time of another process, from /proc

/** CPU time (ns) of process `pid`: the sum of its threads' run time (/proc/<pid>/task/<tid>/schedstat). */
function processCpuNs(pid) {
	let total = 0;
	for (const tid of readdirSync(`/proc/${pid}/task`)) {
		try {
			total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
		} catch {
			// the thread ended between the listing and the read
		}
	}
	return total;
}

/** The ids of this process's child processes running `command` (its `comm`). */
function childPids(command) {
	const found = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
			const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (parent === process.pid && comm === command) found.push(Number(entry));
		} catch {
			// gone
		}
	}
	return found;
}

// ---------------------------------------------------------------------------------------------
// HTTP: a keep-alive client with a cookie jar per "browser" (node:http: a cheap client, so the
// machine's second core is left to the server)

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request; the answer's status, headers, Set-Cookie lines and body text. */
function send(url, { method = 'GET', headers = {}, body } = {}) {
	return new Promise((resolve, reject) => {
		const request = http.request(url, { method, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) }, agent }, (response) => {
			let text = '';
			response.setEncoding('utf8');
			response.on('data', (chunk) => {
				text += chunk;
			});
			response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, setCookies: response.headers['set-cookie'] ?? [], body: text }));
		});
		request.on('error', reject);
		request.setTimeout(120_000, () => request.destroy(new Error(`no answer from ${url} within 120 s`)));
		request.end(body);
	});
}

/** A browser: an origin, its cookies, and forms posted with an Origin header. */
class Browser {
	constructor(origin, cookies = {}) {
		this.origin = origin;
		this.cookies = new Map(Object.entries(cookies));
	}

	async request(path, { form, headers = {} } = {}) {
		const all = { ...headers };
		if (this.cookies.size) all.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
		let body;
		if (form) {
			body = new URLSearchParams(form).toString();
			Object.assign(all, { 'content-type': 'application/x-www-form-urlencoded', origin: this.origin });
		}
		const url = new URL(path, this.origin).href;
		const answer = await send(url, { method: form ? 'POST' : 'GET', headers: all, body });
		for (const line of answer.setCookies) {
			const [pair, ...attributes] = line.split(';');
			const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
			if (value === '' || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute))) this.cookies.delete(name);
			else this.cookies.set(name, value);
		}
		return answer;
	}

	async csrfToken() {
		return JSON.parse((await this.request('/auth/csrf')).body).csrfToken;
	}
}

/** Throws unless `condition`: a measure never counts an answer that is not the expected one. */
function check(condition, what, answer) {
	if (!condition) throw new Error(`${what}: got ${answer?.status} ${answer?.headers?.location ?? ''} ${String(answer?.body ?? '').slice(0, 200)}`);
}

// ---------------------------------------------------------------------------------------------
// What is measured on each Worker: operations, each one or more requests

const SESSION_COOKIE = { kitgate: 'kitgate.session-token', authjs: 'authjs.session-token' };
const hasUser = (answer) => answer.status === 200 && answer.body.includes(BENCH_USER.email);

/** A credentials sign-in (csrf + callback) as `username`; checks the 302 and the session cookie. */
async function credentialsSignIn(worker, username) {
	const browser = new Browser(worker.origin);
	const csrfToken = await browser.csrfToken();
	const answer = await browser.request('/auth/callback/credentials', { form: { csrfToken, username, password: CREDENTIALS.password } });
	check(answer.status === 302 && browser.cookies.has(SESSION_COOKIE[worker.library]) && !/error=/.test(answer.headers.location ?? ''), `${worker.name}: sign-in as ${username}`, answer);
	return browser;
}

/** The email provider's id in each library's bench Worker. */
const EMAIL_PROVIDER = { kitgate: 'email', authjs: 'resend' };

/** Asks for an email link (csrf + POST /auth/signin/<email provider>); checks the redirect to the "check your email" page. */
async function requestEmailLink(worker, address) {
	const browser = new Browser(worker.origin);
	const csrfToken = await browser.csrfToken();
	const answer = await browser.request(`/auth/signin/${EMAIL_PROVIDER[worker.library]}`, { form: { csrfToken, email: address } });
	check(answer.status === 302 && /verify-request/.test(answer.headers.location ?? ''), `${worker.name}: email link for ${address}`, answer);
}

/** The link the Worker last sent to `address` (bench route, not measured). */
async function linkSentTo(worker, address) {
	const answer = await send(`${worker.origin}/__bench/link?email=${encodeURIComponent(address)}`);
	check(answer.status === 200, `${worker.name}: no link for ${address}`, answer);
	return answer.body;
}

/**
 * Follows an email link as a browser: kitgate answers the link with a confirmation page whose form
 * posts the token (a link opened by a mail scanner signs nobody in); Auth.js signs in on the GET.
 */
async function confirmEmailLink(worker, link) {
	const browser = new Browser(worker.origin);
	const opened = await browser.request(link);
	if (worker.library === 'kitgate') {
		check(opened.status === 200, `${worker.name}: confirmation page`, opened);
		const field = (name) => new RegExp(`name="${name}"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="${name}"`).exec(opened.body);
		const url = new URL(link);
		const csrf = field('csrfToken');
		check(csrf, `${worker.name}: no csrfToken in the confirmation page`, opened);
		const answer = await browser.request('/auth/callback/email', { form: { csrfToken: csrf[1] ?? csrf[2], token: url.searchParams.get('token'), email: url.searchParams.get('email') } });
		check(answer.status === 302 && browser.cookies.has(SESSION_COOKIE.kitgate), `${worker.name}: email link confirmed`, answer);
		return;
	}
	check(opened.status === 302 && browser.cookies.has(SESSION_COOKIE.authjs), `${worker.name}: email link followed`, opened);
}

/**
 * The measures: which Worker, how many of each kind of request an operation sends (to take the
 * runtime's own cost of a request out), and the operation (`prepare` runs before it, unmeasured).
 * `i` numbers the operation within the whole run, for unique addresses.
 */
const MEASURES = [
	{ id: 'floor-get', title: 'empty Worker, GET', worker: 'empty', count: 'floor', requests: {}, run: async (w) => check((await send(`${w.origin}/auth/session`)).status === 200, 'empty GET') },
	{
		id: 'floor-post',
		title: 'empty Worker, POST of a form',
		worker: 'empty',
		count: 'floor',
		requests: {},
		run: async (w) => check((await new Browser(w.origin, { csrf: 'x'.repeat(120) }).request('/', { form: { csrfToken: 'x'.repeat(64), username: 'ada', password: CREDENTIALS.password } })).status === 200, 'empty POST')
	},
	...['kitgate-credentials', 'authjs'].map((worker) => ({
		id: `session:${worker}`,
		title: 'session check: GET /auth/session with a session cookie',
		worker,
		count: 'session',
		requests: { GET: 1 },
		run: async (w) => {
			const answer = await send(`${w.origin}/auth/session`, { headers: { cookie: w.sessionCookie } });
			check(hasUser(answer), `${w.name}: session`, answer);
		}
	})),
	...['kitgate-credentials', 'authjs'].map((worker) => ({
		id: `session-new:${worker}`,
		title: 'session check with a cookie the Worker has not seen before',
		worker,
		count: 'session',
		requests: { GET: 1 },
		// a token minted here with the same secret (kitgate keeps the last 1000 tokens it decrypted)
		prepare: (w) => w.freshCookies.pop(),
		run: async (w, i, cookie) => {
			const answer = await send(`${w.origin}/auth/session`, { headers: { cookie } });
			check(hasUser(answer), `${w.name}: session with a new cookie`, answer);
		}
	})),
	...['kitgate-credentials', 'authjs'].map((worker) => ({
		id: `sign-in:${worker}`,
		title: 'credentials sign-in, password compared as a constant (csrf + callback)',
		worker,
		count: 'signIn',
		requests: { GET: 1, POST: 1 },
		run: (w) => credentialsSignIn(w, w.library === 'kitgate' ? 'ada-unhashed' : CREDENTIALS.username)
	})),
	{
		id: 'hashed-sign-in:kitgate-credentials',
		title: 'credentials sign-in with verifyPassword (scrypt 2^15) (csrf + callback)',
		worker: 'kitgate-credentials',
		count: 'hashedSignIn',
		requests: { GET: 1, POST: 1 },
		run: (w) => credentialsSignIn(w, CREDENTIALS.username)
	},
	...['kitgate-email', 'authjs-email'].map((worker) => ({
		id: `email-request:${worker}`,
		title: 'email link asked for (csrf + POST /auth/signin/…)',
		worker,
		count: 'emailRequest',
		requests: { GET: 1, POST: 1 },
		run: (w, i) => requestEmailLink(w, `reader-${i}@example.com`)
	})),
	...['kitgate-email', 'authjs-email'].map((worker) => ({
		id: `email-confirm:${worker}`,
		title: 'email link followed (kitgate: confirmation page + POST; Auth.js: GET)',
		worker,
		count: 'emailConfirm',
		requests: worker === 'kitgate-email' ? { GET: 1, POST: 1 } : { GET: 1 },
		prepare: async (w, i) => {
			const address = `follower-${i}@example.com`;
			await requestEmailLink(w, address);
			return linkSentTo(w, address);
		},
		run: (w, i, link) => confirmEmailLink(w, link)
	})),
	...HASH_COSTS.flatMap((logN) =>
		['kitgate-hash', 'node-scrypt'].map((worker) => ({
			id: `hash-${logN}:${worker}`,
			title: `password check, scrypt 2^${logN}`,
			worker,
			logN,
			count: 'hash',
			requests: { GET: 1 },
			run: async (w) => {
				const answer = await send(w.origin, { headers: { 'x-stored-hash': w.storedHashes[logN] } });
				check(answer.status === 200 && answer.body === 'true', `${w.name}: hash 2^${logN}`, answer);
			}
		}))
	)
];

/** Operations per measure and round; password checks: `COUNTS.hash` at 2^15, twice as many at each halving of the cost (at most 128). */
function countOf(measure) {
	if (measure.count !== 'hash') return COUNTS[measure.count];
	return Math.min(128, COUNTS.hash * 2 ** (DEFAULT_LOG_N - measure.logN));
}

// ---------------------------------------------------------------------------------------------
// workerd through Miniflare

/**
 * Starts `bundle` on workerd through Miniflare, reached over a direct socket to the Worker
 * (Miniflare's `unsafeDirectSockets`): `dispatchFetch` and Miniflare's own port go through its
 * entry Worker, which costs workerd more CPU per request than an empty Worker's whole answer.
 * Resolves with the origin, the workerd process's id and the times of its start.
 */
async function startWorker(name, bundle, bindings) {
	const { Miniflare } = await import('miniflare');
	const before = new Set(childPids('workerd'));
	let output = '';
	const started = performance.now();
	const miniflare = new Miniflare({
		// the bundle given as one module, as wrangler deploys it (the path only names it: inside the project, where Miniflare roots module names)
		modules: [{ type: 'ESModule', path: join(ROOT, `${name}.worker.mjs`), contents: readFileSync(bundle.file, 'utf8') }],
		compatibilityDate: COMPATIBILITY_DATE,
		compatibilityFlags: bundle.nodejsCompat ? ['nodejs_compat'] : [],
		bindings,
		cf: false,
		host: '127.0.0.1',
		port: 0,
		unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
		// workerd's output (the Workers' console) is kept for an error report, not printed
		handleRuntimeStdio: (stdout, stderr) => {
			for (const stream of [stdout, stderr]) {
				stream.on('data', (chunk) => {
					output = (output + chunk).slice(-4000);
				});
			}
		}
	});
	let pid;
	try {
		await miniflare.ready;
		pid = childPids('workerd').find((candidate) => !before.has(candidate));
		if (!pid) throw new Error('no workerd process found');
		runtimePids.add(pid);
	} catch (error) {
		await miniflare.dispose().catch(() => {});
		throw new Error(`${name} did not start on workerd: ${error.message}\n${output}`, { cause: error });
	}
	const origin = (await miniflare.unsafeGetDirectURL()).origin;
	return {
		name,
		library: name.startsWith('authjs') ? 'authjs' : 'kitgate',
		origin,
		pid,
		started,
		ready: performance.now(),
		close: async () => {
			await miniflare.dispose();
			runtimePids.delete(pid);
		}
	};
}

/** A stored hash in kitgate's format at cost 2^logN (r = 8, p = 1) of the bench password, made here with node:crypto. */
function storedHash(logN) {
	const salt = randomBytes(16);
	const key = scryptSync(CREDENTIALS.password.normalize('NFKC'), salt, 32, { N: 2 ** logN, r: 8, p: 1, maxmem: 256 * 2 ** logN * 8 + 1048576 });
	return ['scrypt', logN, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** One measure on its Worker: workerd's CPU time per operation (ms), summed around each operation only. */
async function measureOnce(measure, worker, counter) {
	const count = countOf(measure);
	let cpuNs = 0;
	const wallStarted = performance.now();
	for (let n = 0; n < count; n++) {
		const i = counter.next++;
		const prepared = await measure.prepare?.(worker, i);
		const before = processCpuNs(worker.pid);
		await measure.run(worker, i, prepared);
		cpuNs += processCpuNs(worker.pid) - before;
	}
	return { count, cpuMs: cpuNs / 1e6 / count, wallMs: (performance.now() - wallStarted) / count };
}

/** Operations of each measure run before the rounds (a password check: one). */
const WARM_UP = 20;

/** Every measure, `ROUNDS` times, in an order that turns each round (so a slow moment of the machine hits each alike). */
async function measureWorkers(bundles, kitgate) {
	const passwordHash = await kitgate.hashPassword(CREDENTIALS.password);
	const storedHashes = Object.fromEntries(HASH_COSTS.map((logN) => [logN, storedHash(logN)]));
	// the stored hashes made here are ones kitgate reads (same format), checked on Node first
	for (const logN of HASH_COSTS) check(await kitgate.verifyPassword(CREDENTIALS.password, storedHashes[logN]), `stored hash 2^${logN} refused by kitgate on Node`);
	const names = [...new Set(MEASURES.map((measure) => measure.worker))];
	const workers = {};
	try {
		for (const name of names) {
			say(`starting ${name} on workerd…`);
			workers[name] = await startWorker(name, bundles[name], { AUTH_SECRET: SECRET, PASSWORD_HASH: passwordHash });
			workers[name].storedHashes = storedHashes;
		}
		for (const name of ['kitgate-credentials', 'authjs']) {
			const browser = await credentialsSignIn(workers[name], name === 'authjs' ? CREDENTIALS.username : 'ada-unhashed');
			workers[name].sessionCookie = `${SESSION_COOKIE[workers[name].library]}=${browser.cookies.get(SESSION_COOKIE[workers[name].library])}`;
			workers[name].freshCookies = [];
			for (let n = 0; n < COUNTS.session * ROUNDS + WARM_UP; n++) workers[name].freshCookies.push(await mintSessionCookie(workers[name].library, kitgate));
		}
		const counter = { next: 0 };
		say('warming up…');
		for (const measure of MEASURES) {
			for (let n = 0; n < (measure.count === 'hash' || measure.count === 'hashedSignIn' ? 1 : WARM_UP); n++) {
				const i = counter.next++;
				await measure.run(workers[measure.worker], i, await measure.prepare?.(workers[measure.worker], i));
			}
		}
		const runs = Object.fromEntries(MEASURES.map((measure) => [measure.id, []]));
		for (let round = 0; round < ROUNDS; round++) {
			say(`workerd CPU per request: round ${round + 1} of ${ROUNDS}…`);
			const shift = Math.round((round * MEASURES.length) / ROUNDS);
			for (const measure of [...MEASURES.slice(shift), ...MEASURES.slice(0, shift)]) runs[measure.id].push(await measureOnce(measure, workers[measure.worker], counter));
		}
		return runs;
	} finally {
		for (const worker of Object.values(workers)) await worker.close().catch(() => {});
	}
}

// ---------------------------------------------------------------------------------------------
// The password hash on Node (in this process, before any Worker runs)

/** CPU ms per call of `task` on this process (every thread: node:crypto's scrypt runs on libuv's pool). */
async function cpuPerCall(task, count) {
	await task();
	const before = process.cpuUsage();
	for (let n = 0; n < count; n++) await task();
	const used = process.cpuUsage(before);
	return (used.user + used.system) / 1000 / count;
}

async function measureHashOnNode(kitgate) {
	const { scryptAsync } = await import('@noble/hashes/scrypt.js');
	const runs = {};
	for (let round = 0; round < ROUNDS; round++) {
		say(`password hash on Node: round ${round + 1} of ${ROUNDS}…`);
		for (const logN of HASH_COSTS) {
			const stored = storedHash(logN);
			const count = countOf({ count: 'hash', logN });
			(runs[`node:${logN}`] ??= []).push(await cpuPerCall(() => kitgate.verifyPassword(CREDENTIALS.password, stored), count));
		}
		const salt = randomBytes(16);
		const password = new TextEncoder().encode(CREDENTIALS.password);
		(runs['noble-on-node:15'] ??= []).push(await cpuPerCall(() => scryptAsync(password, salt, { N: 2 ** DEFAULT_LOG_N, r: 8, p: 1, dkLen: 32 }), countOf({ count: 'hash', logN: DEFAULT_LOG_N })));
	}
	return runs;
}

// ---------------------------------------------------------------------------------------------
// Cold starts

/**
 * A session cookie of `library` made here with the bench's secret (kitgate's `encode`, or
 * `@auth/core/jwt`'s): what a sign-in would set, a new token (new `jti`) each time.
 */
async function mintSessionCookie(library, kitgate) {
	const token = { name: BENCH_USER.name, email: BENCH_USER.email, picture: BENCH_USER.image, sub: BENCH_USER.id };
	const encode = library === 'kitgate' ? kitgate.encode : (await import('./reference/lib.js')).authjsEncode;
	return `${SESSION_COOKIE[library]}=${await encode({ token, secret: SECRET, salt: SESSION_COOKIE[library], maxAge: 30 * 86400 })}`;
}

/** The first request of a cold start: the session check, with a session cookie where the app has sessions. */
async function firstAnswer(origin, cookie) {
	const answer = await send(`${origin}/auth/session`, { headers: cookie ? { cookie } : {} });
	check(answer.status === 200 && (cookie ? hasUser(answer) : true), `first answer of ${origin}`, answer);
}

/** One cold start on workerd: Miniflare started, its first answer; wall time and workerd's CPU to ready and for the first request. */
async function coldStartWorker(name, bundle, cookie) {
	const worker = await startWorker(name, bundle, { AUTH_SECRET: SECRET });
	try {
		const atReady = processCpuNs(worker.pid);
		await firstAnswer(worker.origin, cookie);
		const answered = performance.now();
		const total = processCpuNs(worker.pid);
		return { wallMs: answered - worker.started, readyWallMs: worker.ready - worker.started, startupCpuMs: atReady / 1e6, firstRequestCpuMs: (total - atReady) / 1e6, cpuMs: total / 1e6 };
	} finally {
		await worker.close();
	}
}

/** One cold start on Node: the app forked (production mode), its first answer; wall time from the fork and the child's CPU at that answer. */
async function coldStartNode(file, cookie, env = {}) {
	const started = performance.now();
	const childEnv = { ...process.env, NODE_ENV: 'production', AUTH_SECRET: SECRET, ...env };
	delete childEnv.NODE_OPTIONS;
	const child = fork(file, [], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
	children.add(child);
	let errors = '';
	child.stderr.on('data', (chunk) => {
		errors = (errors + chunk).slice(-4000);
	});
	try {
		const port = await new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`${file} did not start within 60 s:\n${errors}`)), 60_000);
			child.once('exit', (code) => reject(new Error(`${file} exited (${code}) before it was ready:\n${errors}`)));
			child.on('message', (message) => {
				if (message?.type !== 'ready') return;
				clearTimeout(timer);
				resolve(message.port);
			});
		});
		const ready = performance.now();
		await firstAnswer(`http://127.0.0.1:${port}`, cookie);
		const answered = performance.now();
		return { wallMs: answered - started, readyWallMs: ready - started, cpuMs: processCpuNs(child.pid) / 1e6 };
	} finally {
		child.kill('SIGKILL');
		children.delete(child);
	}
}

/** Cold starts on workerd and Node, each target in turn, `COLD_STARTS` times after one unrecorded run each (files in the page cache). */
async function measureColdStarts(bundles, nodeBundles, cookies) {
	const targets = [
		{ id: 'workerd:empty', start: () => coldStartWorker('empty', bundles.empty) },
		{ id: 'workerd:kitgate-credentials', start: () => coldStartWorker('kitgate-credentials', bundles['kitgate-credentials'], cookies.kitgate) },
		{ id: 'workerd:kitgate-passkey', start: () => coldStartWorker('kitgate-passkey', bundles['kitgate-passkey'], cookies.kitgate) },
		{ id: 'workerd:authjs', start: () => coldStartWorker('authjs', bundles.authjs, cookies.authjs) },
		{ id: 'node-express:bare', start: () => coldStartNode(join(BENCH_DIR, 'apps', 'bare.js')) },
		{ id: 'node-express:kitgate', start: () => coldStartNode(join(BENCH_DIR, 'apps', 'kitgate.js'), cookies.kitgate) },
		{ id: 'node-express:authjs', start: () => coldStartNode(join(REFERENCE_DIR, 'authjs-app.js'), cookies.authjs) },
		{ id: 'node-plain:empty', start: () => coldStartNode(nodeBundles.empty) },
		{ id: 'node-plain:kitgate-credentials', start: () => coldStartNode(nodeBundles['kitgate-credentials'], cookies.kitgate) },
		{ id: 'node-plain:authjs', start: () => coldStartNode(nodeBundles.authjs, cookies.authjs) }
	];
	const runs = Object.fromEntries(targets.map((target) => [target.id, []]));
	for (const target of targets) await target.start();
	for (let round = 0; round < COLD_STARTS; round++) {
		say(`cold starts: round ${round + 1} of ${COLD_STARTS}…`);
		for (const target of targets) runs[target.id].push(await target.start());
	}
	return runs;
}

// ---------------------------------------------------------------------------------------------
// Statistics and formatting

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const summary = (values) => (values.length ? { median: median(values), min: Math.min(...values), max: Math.max(...values) } : null);
const fmtMs = (value) => {
	const size = Math.abs(value);
	return value.toFixed(size >= 100 ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : 3);
};
const fmtStat = (s) => (s ? `${fmtMs(s.median)} (${fmtMs(s.min)}–${fmtMs(s.max)})` : '—');
const fmtKiB = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const fmtBytes = (bytes) => `${bytes.toLocaleString('en-US')} B`;
const fmtRatio = (value) => (value === null || value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(value >= 10 ? 0 : 2)}×`);
const fmtPercent = (part, whole) => (part > whole ? `${fmtRatio(part / whole)}` : `${((100 * part) / whole).toFixed(part / whole < 0.1 ? 1 : 0)}%`);

// ---------------------------------------------------------------------------------------------
// Main

function gitDescribe() {
	try {
		const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
		const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8' }).trim();
		return dirty ? `${head} + uncommitted changes in src/` : head;
	} catch {
		return 'unknown';
	}
}

/** The version of an installed package, read from its package.json next to `from`. */
function versionOf(name, from = ROOT) {
	try {
		return JSON.parse(readFileSync(join(from, 'node_modules', name, 'package.json'), 'utf8')).version;
	} catch {
		return 'unknown';
	}
}

async function main() {
	const started = Date.now();
	const loadAtStart = os.loadavg().map((value) => Number(value.toFixed(2)));
	await ensureReferenceInstalled({ log: say });
	const build = await ensureDist();
	say(build);
	const scratch = mkdtempSync(join(os.tmpdir(), 'kitgate-bench-runtimes-'));
	exitTasks.push(() => rmSync(scratch, { recursive: true, force: true }));
	// Miniflare's own temporary folders too (it removes them after exit has begun, or not at all on Ctrl-C)
	process.env.TMPDIR = scratch;

	say('bundling the Workers…');
	const bundles = await bundleWorkers(scratch);
	const nodeBundles = {};
	for (const name of ['empty', 'kitgate-credentials', 'authjs']) nodeBundles[name] = await bundleForNode(scratch, name, WORKERS[name].entry);

	const kitgate = await import('kitgate');
	const hashOnNode = await measureHashOnNode(kitgate);
	const workerRuns = await measureWorkers(bundles, kitgate);
	const coldStarts = await measureColdStarts(bundles, nodeBundles, { kitgate: await mintSessionCookie('kitgate', kitgate), authjs: await mintSessionCookie('authjs', kitgate) });
	agent.destroy();

	const report = {
		machine: {
			cpu: os.cpus()[0]?.model ?? 'unknown',
			cores: os.cpus().length,
			totalMemoryBytes: os.totalmem(),
			node: process.version,
			platform: `${os.type()} ${os.release()} ${os.arch()}`,
			date: new Date().toISOString(),
			commit: gitDescribe(),
			loadAverageAtStart: loadAtStart,
			loadAverageAtEnd: os.loadavg().map((value) => Number(value.toFixed(2)))
		},
		versions: { miniflare: versionOf('miniflare'), workerd: versionOf('workerd'), esbuild: versionOf('esbuild'), authCore: versionOf('@auth/core', REFERENCE_DIR), nobleHashes: versionOf('@noble/hashes') },
		settings: { quick: QUICK, rounds: ROUNDS, coldStarts: COLD_STARTS, counts: COUNTS, compatibilityDate: COMPATIBILITY_DATE, hashCosts: HASH_COSTS },
		limits: LIMITS,
		build,
		durationSeconds: (Date.now() - started) / 1000,
		sizes: Object.fromEntries(Object.entries(bundles).filter(([, bundle]) => bundle.size).map(([name, bundle]) => [name, { label: bundle.label, ...bundle.sizes, parts: bundle.parts }])),
		workerd: Object.fromEntries(MEASURES.map((measure) => [measure.id, { title: measure.title, worker: measure.worker, requests: measure.requests, runs: workerRuns[measure.id] }])),
		hashOnNode,
		coldStarts
	};
	const markdown = renderMarkdown(report);
	writeFileSync(join(BENCH_DIR, 'runtimes.json'), `${JSON.stringify(report, null, 2)}\n`);
	writeFileSync(join(BENCH_DIR, 'RUNTIMES.md'), markdown);
	process.stdout.write(markdown);
	say(`done in ${report.durationSeconds.toFixed(0)} s: bench/RUNTIMES.md, bench/runtimes.json`);
}

// ---------------------------------------------------------------------------------------------
// Report

/** Per round: the operation's CPU minus the empty Worker's requests of the same round (the runtime's own cost of a request). */
function netRuns(report, id) {
	const measure = report.workerd[id];
	return measure.runs.map((run, round) => {
		const floor = (method) => report.workerd[method === 'GET' ? 'floor-get' : 'floor-post'].runs[round].cpuMs;
		return run.cpuMs - Object.entries(measure.requests).reduce((sum, [method, count]) => sum + count * floor(method), 0);
	});
}

/** The cheapest scrypt cost whose measured sign-in fits `limitMs` in every round, per hash path. */
function largestFit(report, worker, limitMs) {
	const signIn = netRuns(report, 'sign-in:kitgate-credentials');
	for (const logN of HASH_COSTS) {
		const hash = netRuns(report, `hash-${logN}:${worker}`);
		const total = hash.map((value, round) => value + signIn[round]);
		if (Math.max(...total) < limitMs) return { logN, total: summary(total) };
	}
	return null;
}

function renderMarkdown(report) {
	const { machine, settings, versions, sizes, limits } = report;
	const lines = [];
	const push = (...more) => lines.push(...more);
	const net = (id) => summary(netRuns(report, id));
	const gross = (id) => summary(report.workerd[id].runs.map((run) => run.cpuMs));
	const cold = (id) => report.coldStarts[id];
	const coldStat = (id, key) => summary(cold(id).map((run) => run[key]));
	const mib = (bytes) => `${bytes / 1024 / 1024} MiB`;

	push(
		'# kitgate on Cloudflare Workers: size, CPU per request, password hash, cold start',
		'',
		`Written by \`node bench/runtimes.js${settings.quick ? ' --quick' : ''}\` (overwritten on every run; see [README.md](README.md#workers-and-cold-starts) for how it measures). What it means for an app: [docs/workers-costs.md](../docs/workers-costs.md).`,
		'',
		`- **Machine:** ${machine.cpu}, ${machine.cores} cores, ${(machine.totalMemoryBytes / 2 ** 30).toFixed(1)} GiB RAM, ${machine.platform}`,
		`- **Node:** ${machine.node} · **workerd:** ${versions.workerd} through Miniflare ${versions.miniflare} (compatibility date ${settings.compatibilityDate}) · **esbuild:** ${versions.esbuild} · **@auth/core:** ${versions.authCore} · **date:** ${machine.date} · **kitgate:** ${machine.commit} (${report.build.split('\n')[0]})`,
		`- **Load average** (1/5/15 min) at start ${machine.loadAverageAtStart.join(' / ')}, at end ${machine.loadAverageAtEnd.join(' / ')}: other work shared the ${machine.cores} cores. CPU time is what is compared (wall times are shown for cold starts only, and swing with the load).`,
		`- **Rounds:** ${settings.rounds}; every cell is **median (min–max)** over the rounds, and ratios are ratios of the medians. Whole run: ${Math.round(report.durationSeconds)} s.`,
		''
	);

	push(
		"## Cloudflare's limits",
		'',
		"Documented figures, from Cloudflare's Workers limits page and changelog as read in 2026-11 (not measured here; local workerd enforces none of them):",
		'',
		'| limit | Workers Free | Workers Paid |',
		'|---|---|---|',
		`| Worker size after compression (gzip) | ${mib(limits.freeCompressedBytes)} | ${mib(limits.paidCompressedBytes)} |`,
		`| Worker size, uncompressed | ${mib(limits.uncompressedBytes)} | ${mib(limits.uncompressedBytes)} |`,
		`| CPU time per request | ${limits.freeCpuMs} ms | ${limits.paidDefaultCpuMs / 1000} s by default, up to ${limits.paidMaxCpuMs / 60_000} min with \`limits.cpu_ms\` |`,
		`| startup (parse and run the global scope) | ${limits.startupMs / 1000} s | ${limits.startupMs / 1000} s |`,
		'| memory per isolate | 128 MB | 128 MB |',
		'',
		'The compressed limits (3 MB Free since late 2024, 10 MB Paid) are the ones the limits page gave through 2025 and that wrangler 4.86.0 (this repository) still warns against; wrangler’s change cloudflare/workers-sdk#14001 (May 2026) says Cloudflare is removing them in favour of the single 64 MiB uncompressed limit. Both are shown. The 5-minute Paid maximum dates from 2025-03-25, the 1 s startup limit from 2025-10-10 (400 ms before).',
		''
	);

	const authjsOf = (name) => (name === 'kitgate-credentials' ? 'authjs' : name.startsWith('kitgate') ? 'authjs-email' : null);
	push(
		'## Bundle size',
		'',
		'Each Worker bundled as wrangler would: `esbuild --bundle --minify --format=esm --platform=browser --conditions=workerd,worker,browser`, one file, kitgate from its built `dist/` (the package an app installs). gzip at zlib’s default level, as wrangler reports its `Total Upload … / gzip` (Cloudflare measures the compressed size with gzip); brotli (quality 11) for reference. Sources: `bench/workers/*.js`, `bench/reference/authjs*-worker.js`.',
		'',
		'| Worker | minified | gzip | brotli | gzip / Free’s 3 MiB | gzip / Paid’s 10 MiB | minified / 64 MiB | kitgate / Auth.js (gzip) |',
		'|---|---|---|---|---|---|---|---|'
	);
	for (const [name, size] of Object.entries(sizes)) {
		const other = authjsOf(name);
		push(
			`| ${size.label} | ${fmtKiB(size.raw)} | ${fmtKiB(size.gzip)} | ${fmtKiB(size.brotli)} | ${fmtPercent(size.gzip, limits.freeCompressedBytes)} | ${fmtPercent(size.gzip, limits.paidCompressedBytes)} | ${fmtPercent(size.raw, limits.uncompressedBytes)} | ${other ? `${fmtRatio(size.gzip / sizes[other].gzip)} (vs ${sizes[other].label.split(':')[0]}${other === 'authjs' ? ' credentials' : ' + email'})` : '—'} |`
		);
	}
	const minimal = sizes['kitgate-credentials'];
	const parts = Object.entries(minimal.parts).sort((a, b) => b[1] - a[1]);
	const added = (from, to) => sizes[to].raw - sizes[from].raw;
	const passkeyServer = parts.filter(([part]) => PASSKEY_SERVER_PARTS.test(part)).reduce((sum, [, bytes]) => sum + bytes, 0);
	push(
		'',
		`What each sign-in method adds to the minimal kitgate Worker: email links ${fmtBytes(added('kitgate-credentials', 'kitgate-email'))} minified (${fmtBytes(sizes['kitgate-email'].gzip - minimal.gzip)} gzip, with the memory adapter), passkeys ${fmtBytes(added('kitgate-email', 'kitgate-passkey'))} more: the passkey code and \`@simplewebauthn/server\` are in every kitgate Worker already, because the engine loads that package with a dynamic \`import()\` that a one-file bundle inlines. With the packages it brings (asn1js, @peculiar/*, tsyringe, reflect-metadata, …) that is ${fmtKiB(passkeyServer)} of the minimal Worker's ${fmtKiB(minimal.raw)} (${fmtPercent(passkeyServer, minimal.raw)}), in a Worker without passkeys.`,
		'',
		`The minimal kitgate Worker (${fmtKiB(minimal.raw)} minified) by part, bytes in the minified output (esbuild's metafile):`,
		'',
		'| part | minified | share |',
		'|---|---|---|',
		...parts.slice(0, 14).map(([part, bytes]) => `| ${part} | ${fmtKiB(bytes)} | ${fmtPercent(bytes, minimal.raw)} |`),
		`| ${parts.length - 14} other parts | ${fmtKiB(parts.slice(14).reduce((sum, [, bytes]) => sum + bytes, 0))} | ${fmtPercent(parts.slice(14).reduce((sum, [, bytes]) => sum + bytes, 0), minimal.raw)} |`,
		''
	);

	push(
		'## CPU per request on workerd',
		'',
		"Each Worker runs in its own workerd process (Miniflare), reached on a direct socket to the Worker (Miniflare's `unsafeDirectSockets`; its `dispatchFetch` goes through an entry Worker that costs workerd more than an empty Worker's whole answer). The client is node:http with keep-alive, one request at a time. **Gross** is the workerd process's CPU time (sum of its threads' run time, `/proc/<pid>/task/*/schedstat`) across each operation, divided by the operations; **net** takes out, per request, what an empty Worker costs for the same GET or form POST in the same round: the runtime's HTTP work, which Cloudflare does outside the Worker's CPU time. Net is the estimate to hold against the CPU limit. Each operation is checked (the session holds the user, a sign-in sets the session cookie, …) before it counts.",
		'',
		'| operation | requests | kitgate gross (ms) | kitgate net (ms) | Auth.js gross (ms) | Auth.js net (ms) | kitgate / Auth.js (net) | kitgate net / Free’s 10 ms |',
		'|---|---|---|---|---|---|---|---|'
	);
	const requestsOf = (id) => Object.entries(report.workerd[id].requests).map(([method, count]) => `${count} ${method}`).join(' + ');
	const rows = [
		['session', 'kitgate-credentials', 'authjs', 'session check: `GET /auth/session`, the same session cookie each time'],
		['session-new', 'kitgate-credentials', 'authjs', 'session check with a cookie new to the Worker (kitgate keeps the last 1000 it decrypted)'],
		['sign-in', 'kitgate-credentials', 'authjs', 'credentials sign-in, password compared as a constant (csrf + callback)'],
		['hashed-sign-in', 'kitgate-credentials', null, 'credentials sign-in with `verifyPassword` (scrypt 2^15)'],
		['email-request', 'kitgate-email', 'authjs-email', 'email link asked for (csrf + `POST /auth/signin/…`)'],
		['email-confirm', 'kitgate-email', 'authjs-email', 'email link followed (kitgate: its confirmation page + `POST`; Auth.js: one `GET`)']
	];
	for (const [kind, ours, theirs, title] of rows) {
		const oursNet = net(`${kind}:${ours}`);
		const theirsNet = theirs ? net(`${kind}:${theirs}`) : null;
		push(
			`| ${title} | ${requestsOf(`${kind}:${ours}`)}${theirs && requestsOf(`${kind}:${theirs}`) !== requestsOf(`${kind}:${ours}`) ? ` (Auth.js ${requestsOf(`${kind}:${theirs}`)})` : ''} | ${fmtStat(gross(`${kind}:${ours}`))} | ${fmtStat(oursNet)} | ${theirs ? fmtStat(gross(`${kind}:${theirs}`)) : '— (Auth.js has no password hashing)'} | ${theirsNet ? fmtStat(theirsNet) : '—'} | ${theirsNet ? fmtRatio(oursNet.median / theirsNet.median) : '—'} | ${fmtPercent(oursNet.median, limits.freeCpuMs)} |`
		);
	}
	push(
		'',
		`The empty Worker's own requests (subtracted above): GET ${fmtStat(gross('floor-get'))} ms, form POST ${fmtStat(gross('floor-post'))} ms. Operations per round: ${settings.counts.session} session checks of each kind, ${settings.counts.signIn} sign-ins, ${settings.counts.hashedSignIn} sign-ins with the hash, ${settings.counts.emailRequest} link requests, ${settings.counts.emailConfirm} links followed, ${settings.counts.floor} of each empty request.`,
		''
	);

	const signIn = net('sign-in:kitgate-credentials');
	push(
		'## The password hash against the CPU limits',
		'',
		"kitgate's `verifyPassword` reads the cost from the stored hash (`scrypt$<log2 N>$<r>$<p>$<salt>$<key>`), so one Worker (`bench/workers/kitgate-hash.js`) checks hashes of every cost, made here with node:crypto in kitgate's format. On Workers kitgate runs `@noble/hashes`' `scryptAsync` (pure JavaScript), with or without `nodejs_compat`; node:crypto's scrypt is its path on Node, Bun and Deno only. The node:crypto column shows what that scrypt costs on workerd with `nodejs_compat` (`bench/workers/node-scrypt.js`), which kitgate does not use today. Net CPU per check (the empty Worker's GET taken out); Node: this process's CPU (`process.cpuUsage`, every thread) per `verifyPassword`.",
		'',
		'| scrypt cost (r = 8, p = 1) | memory | workerd, kitgate (noble) | workerd + nodejs_compat, node:crypto | Node, kitgate (node:crypto) | credentials sign-in on workerd, kitgate (estimate) | fits Free’s 10 ms | guesses per unit of attacker work vs 2^15 | vs OWASP’s 2^17 |',
		'|---|---|---|---|---|---|---|---|---|'
	);
	for (const logN of HASH_COSTS) {
		const noble = netRuns(report, `hash-${logN}:kitgate-hash`);
		const estimate = summary(noble.map((value, round) => value + netRuns(report, 'sign-in:kitgate-credentials')[round]));
		push(
			`| 2^${logN}${logN === DEFAULT_LOG_N ? ' (kitgate’s)' : ''} | ${2 ** logN / 1024 >= 1 ? `${2 ** logN / 1024} MiB` : `${2 ** logN} KiB`} | ${fmtStat(summary(noble))} | ${fmtStat(net(`hash-${logN}:node-scrypt`))} | ${fmtStat(summary(report.hashOnNode[`node:${logN}`]))} | ${fmtStat(estimate)} | ${estimate.max < limits.freeCpuMs ? '✅' : estimate.median < limits.freeCpuMs ? '⚠️ not in every round' : '❌'} | ${logN === DEFAULT_LOG_N ? '1×' : `${2 ** (DEFAULT_LOG_N - logN)}×`} | ${2 ** (OWASP_LOG_N - logN)}× |`
		);
	}
	const fitNoble = largestFit(report, 'kitgate-hash', limits.freeCpuMs);
	const fitNode = largestFit(report, 'node-scrypt', limits.freeCpuMs);
	push(
		'',
		`Memory is scrypt's 128 · N · r bytes. The sign-in estimate adds the check to the net CPU of a sign-in without it (${fmtStat(signIn)} ms); the measured sign-in with the 2^15 hash is ${fmtStat(net('hashed-sign-in:kitgate-credentials'))} ms net. For reference, \`@noble/hashes\` on Node: ${fmtStat(summary(report.hashOnNode['noble-on-node:15']))} ms per 2^15 hash. Checks per round: ${settings.counts.hash} at 2^15, doubling with each step down (at most 128).`,
		'',
		`- **Workers Paid** (30 s of CPU per request by default): a sign-in with kitgate's cost took at most ${fmtMs(summary(netRuns(report, 'hashed-sign-in:kitgate-credentials')).max)} ms here, ${fmtPercent(summary(netRuns(report, 'hashed-sign-in:kitgate-credentials')).max, limits.paidDefaultCpuMs)} of the limit: nothing to set.`,
		`- **Workers Free** (10 ms): the largest cost whose sign-in stayed under 10 ms in every round is ${fitNoble ? `**2^${fitNoble.logN}** with kitgate's hash as it runs on Workers (sign-in ${fmtStat(fitNoble.total)} ms)` : 'none of the costs measured, with kitgate’s hash as it runs on Workers'}${fitNode ? `, and 2^${fitNode.logN} if the hash ran on node:crypto under \`nodejs_compat\` (${fmtStat(fitNode.total)} ms)` : ''}. That is ${fitNoble ? `${2 ** (DEFAULT_LOG_N - fitNoble.logN)}× less work per guess than kitgate's default and ${2 ** (OWASP_LOG_N - fitNoble.logN)}× less than OWASP's minimum for scrypt` : 'no cost measured here'}; Cloudflare's machines are not this one, so keep a margin. kitgate has no option for it today (the cost is fixed at 2^15 when hashing).`,
		''
	);

	push(
		'## Cold start: process start to first answer',
		'',
		`The first request is the session check with a session cookie made beforehand with the same secret (the bare and empty apps get none). Each target started once unrecorded (files in the page cache), then ${report.settings.coldStarts ?? settings.rounds} times, the targets in turn; cells are median (min–max) over those starts.`,
		'',
		"**workerd** (Miniflare): wall time from `new Miniflare()` to the first answer; workerd's CPU time (all threads) until Miniflare is ready (workerd's own start, then parsing and running the Worker's global scope) and for the first request (lazy compilation, first use of the keys). The last two columns are differences of medians: over the empty Worker (what the Worker's code costs to start and answer once), and over Auth.js's Worker.",
		'',
		'| Worker | wall to first answer (ms) | CPU to ready (ms) | CPU of the first request (ms) | CPU total (ms) | CPU over the empty Worker (ms) | CPU over Auth.js (ms) |',
		'|---|---|---|---|---|---|---|'
	);
	const medianOf = (id) => coldStat(id, 'cpuMs').median;
	const signed = (value) => `${value >= 0 ? '+' : '−'}${fmtMs(Math.abs(value))}`;
	for (const [id, label] of [
		['workerd:empty', 'empty Worker'],
		['workerd:kitgate-credentials', sizes['kitgate-credentials'].label],
		['workerd:kitgate-passkey', sizes['kitgate-passkey'].label],
		['workerd:authjs', sizes.authjs.label]
	]) {
		const kitgateRow = id.startsWith('workerd:kitgate');
		push(
			`| ${label} | ${fmtStat(coldStat(id, 'wallMs'))} | ${fmtStat(coldStat(id, 'startupCpuMs'))} | ${fmtStat(coldStat(id, 'firstRequestCpuMs'))} | ${fmtStat(coldStat(id, 'cpuMs'))} | ${id === 'workerd:empty' ? '—' : signed(medianOf(id) - medianOf('workerd:empty'))} | ${kitgateRow ? signed(medianOf(id) - medianOf('workerd:authjs')) : '—'} |`
		);
	}
	push(
		'',
		"**Node** (production mode): wall time from `fork()` to the first answer, and the child's CPU time (all threads) at that answer, Node's own start included. Express rows import `kitgate/express` (dist/, unbundled) and `@auth/express`, over a bare Express app; plain rows are the Workers above bundled for Node by esbuild (platform node, not minified) and served by `bench/workers/node-server.js`, as adapter-node serves a bundled app, over an empty handler. The last two columns are differences of medians.",
		'',
		'| app | wall to first answer (ms) | CPU at first answer (ms) | CPU over the floor (ms) | CPU over Auth.js (ms) |',
		'|---|---|---|---|---|'
	);
	for (const [id, label, floorId, authjsId] of [
		['node-express:bare', 'bare Express (floor)', null, null],
		['node-express:kitgate', 'Express + `ExpressAuth` (kitgate)', 'node-express:bare', 'node-express:authjs'],
		['node-express:authjs', 'Express + `@auth/express`', 'node-express:bare', null],
		['node-plain:empty', 'empty handler on node:http (floor)', null, null],
		['node-plain:kitgate-credentials', 'kitgate Worker module on node:http', 'node-plain:empty', 'node-plain:authjs'],
		['node-plain:authjs', 'Auth.js Worker module on node:http', 'node-plain:empty', null]
	]) {
		push(
			`| ${label} | ${fmtStat(coldStat(id, 'wallMs'))} | ${fmtStat(coldStat(id, 'cpuMs'))} | ${floorId ? signed(medianOf(id) - medianOf(floorId)) : '—'} | ${authjsId ? signed(medianOf(id) - medianOf(authjsId)) : '—'} |`
		);
	}
	push(
		'',
		'## Caveats',
		'',
		"- **Local workerd is not Cloudflare's edge.** Other CPUs, and Cloudflare counts the CPU time of the Worker's isolate only: the net columns approximate that by taking out an empty Worker's cost per request, and include work on V8's background threads (compilation, garbage collection) that production may not count. Limits are not enforced locally (neither CPU, size nor startup).",
		`- **Load.** The machine was shared (load average above). CPU time is robust to waiting for a core but not entirely to contention (caches, frequency): ranges across rounds are shown, and ratios compare figures of the same rounds. Cold-start wall times swing most; compare their CPU columns.`,
		"- **Adapters.** The email Workers keep tokens in memory (kitgate's memory adapter; a few lines of maps for Auth.js, which ships none). A real Worker reads and writes a database binding (D1), which adds the binding's calls to each email step.",
		"- **Password hash.** Cloudflare's hardware may be faster or slower than this machine's; the Free-plan setting above leaves little margin. `@noble/hashes`' `scryptAsync` yields to the event loop every 10 ms, which changes no CPU time.",
		"- **What is not measured.** Passkey and OAuth sign-ins on workerd (they need an authenticator or an identity provider in the loop), database sessions, and Auth.js's passkeys (experimental in @auth/core, on @simplewebauthn/server 9).",
		''
	);
	return lines.join('\n');
}

/** Re-renders RUNTIMES.md from runtimes.json. */
function reportOnly() {
	const markdown = renderMarkdown(JSON.parse(readFileSync(join(BENCH_DIR, 'runtimes.json'), 'utf8')));
	writeFileSync(join(BENCH_DIR, 'RUNTIMES.md'), markdown);
	process.stdout.write(markdown);
}

(flag('report-only') ? Promise.resolve().then(reportOnly) : main()).catch((error) => {
	say(error.stack ?? String(error));
	cleanUp();
	process.exit(1);
});
