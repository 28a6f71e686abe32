#!/usr/bin/env node
// kitgate's benchmark: kitgate's Express integration, @auth/express and a bare Express app, each in
// its own process on 127.0.0.1, driven alternately by autocannon. `node bench/run.js [--quick]`.
// Writes bench/RESULTS.md and bench/results.json; see bench/README.md for how to read them.

import { execFileSync, fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_USER, CREDENTIALS, SECRET } from './apps/shared.js';
import { ensureReferenceInstalled } from './install-reference.js';
import { buildCryptoFloor } from './crypto-floor.js';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(BENCH_DIR);
const REFERENCE_DIR = join(BENCH_DIR, 'reference');

// ---------------------------------------------------------------------------------------------
// Settings

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
	const index = argv.indexOf(`--${name}`);
	return index >= 0 && argv[index + 1] !== undefined ? Number(argv[index + 1]) : fallback;
};
if (flag('help')) {
	console.log(`usage: node bench/run.js [--quick] [--reps N] [--duration S] [--connections N] [--no-profile] [--no-sveltekit] [--report-only]
  --report-only   no load: re-render RESULTS.md from results.json (and the kept profiles)
  --quick         2 repetitions of 2 s (default: 5 of 5 s)
  --no-profile    skip the --cpu-prof run of kitgate when a target is missed
  --no-sveltekit  skip building and measuring the SvelteKit apps`);
	process.exit(0);
}
const QUICK = flag('quick');
const SETTINGS = {
	quick: QUICK,
	repetitions: option('reps', QUICK ? 2 : 5),
	durationSeconds: option('duration', QUICK ? 2 : 5),
	warmupSeconds: QUICK ? 1 : 2,
	connections: option('connections', 50),
	signInConnections: 20,
	profile: !flag('no-profile'),
	svelteKit: !flag('no-sveltekit')
};

/** Progress goes to stderr so that stdout carries only the Markdown report. */
const say = (...parts) => console.error('[bench]', ...parts);

// ---------------------------------------------------------------------------------------------
// Clean-up: children are killed and temporary data removed on every way out.

const children = new Set();
/** Build commands run in process groups of their own (npx starts grandchildren): killed as a group. */
const commandGroups = new Set();
const exitTasks = [];
function cleanUp() {
	for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
	children.clear();
	for (const pid of commandGroups) {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}
	commandGroups.clear();
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
// Preparation: reference packages and kitgate's dist/

/**
 * Runs a command without blocking (so Ctrl-C is handled at once) and resolves to its exit status
 * and the tail of its output. It is killed after `timeout` ms.
 */
function runCommand(command, args, { cwd = ROOT, env = process.env, timeout = 180_000 } = {}) {
	return new Promise((resolve) => {
		const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
		commandGroups.add(child.pid);
		let output = '';
		const keep = (chunk) => {
			output = (output + chunk).slice(-20_000);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		const timer = setTimeout(() => {
			output += `\n(killed after ${timeout / 1000} s)`;
			process.kill(-child.pid, 'SIGKILL');
		}, timeout);
		child.on('error', (error) => {
			output += String(error);
		});
		child.on('close', (status) => {
			clearTimeout(timer);
			commandGroups.delete(child.pid);
			resolve({ status, output });
		});
	});
}

function newestMtime(path) {
	const stat = statSync(path);
	if (!stat.isDirectory()) return stat.mtimeMs;
	let newest = stat.mtimeMs;
	for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
	return newest;
}

/** Builds dist/ with svelte-package when it is missing or older than src/lib, and strips its comments; retries while others edit. */
async function ensureDist() {
	const distIndex = join(ROOT, 'dist', 'index.js');
	const fresh = () => existsSync(distIndex) && statSync(distIndex).mtimeMs >= newestMtime(join(ROOT, 'src', 'lib'));
	// as `npm run package` ships it: without comments (idempotent, so a dist/ built by hand is measured the same way)
	const stripped = async () => (await runCommand('node', [join(ROOT, 'scripts', 'strip-comments.js')])).status === 0;
	if (fresh()) return { built: false, note: `dist/ was up to date${(await stripped()) ? '' : ' (stripping comments failed)'}` };
	const deadline = Date.now() + 10 * 60_000;
	let lastError;
	for (let attempt = 1; ; attempt++) {
		say(`building dist/ with svelte-package (attempt ${attempt})…`);
		if (!existsSync(join(ROOT, '.svelte-kit', 'tsconfig.json'))) await runCommand('npx', ['svelte-kit', 'sync']);
		const run = await runCommand('npx', ['svelte-package']);
		if (run.status === 0 && (await stripped())) return { built: true, note: `dist/ rebuilt with svelte-package (attempt ${attempt})` };
		lastError = run.output.trim().split('\n').slice(-15).join('\n');
		say(`svelte-package failed (someone may be mid-edit):\n${lastError}`);
		if (Date.now() + 60_000 > deadline) break;
		say('waiting 60 s before retrying…');
		await sleep(60_000);
	}
	if (existsSync(distIndex)) {
		return { built: false, note: `svelte-package kept failing for 10 minutes; measured the existing (stale) dist/. Last error:\n${lastError}` };
	}
	throw new Error(`svelte-package kept failing and there is no dist/:\n${lastError}`);
}

// ---------------------------------------------------------------------------------------------
// Child processes

/**
 * Forks an app, waits for its `ready` message (port and extras) and keeps the last output for
 * error reports. `env` adds to a clean production environment.
 */
function startApp(name, label, file, env = {}, execArgv = []) {
	const childEnv = { ...process.env, NODE_ENV: 'production', ...env };
	for (const key of ['AUTH_SECRET', 'AUTH_URL', 'AUTH_TRUST_HOST', 'NODE_OPTIONS']) if (!(key in env)) delete childEnv[key];
	const child = fork(file, [], { cwd: ROOT, env: childEnv, execArgv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
	children.add(child);
	let output = '';
	const keep = (chunk) => {
		output = (output + chunk).slice(-8000);
	};
	child.stdout.on('data', keep);
	child.stderr.on('data', keep);
	child.on('exit', () => children.delete(child));
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`${label} did not start within 60 s:\n${output}`));
		}, 60_000);
		child.once('exit', (code, signal) => {
			clearTimeout(timer);
			reject(new Error(`${label} exited before it was ready (code ${code}, signal ${signal}):\n${output}`));
		});
		child.on('message', (message) => {
			if (message?.type !== 'ready') return;
			clearTimeout(timer);
			resolve({
				name,
				label,
				child,
				base: `http://127.0.0.1:${message.port}`,
				sessionCookieName: message.sessionCookie,
				seededSessionToken: message.sessionToken,
				output: () => output
			});
		});
	});
}

/** Asks an app to exit and waits (then kills it after 5 s). */
async function stopApp(app) {
	if (!app || app.child.exitCode !== null || app.child.signalCode !== null) return;
	const exited = new Promise((resolve) => app.child.once('exit', resolve));
	app.child.kill('SIGTERM');
	const killed = await Promise.race([exited.then(() => false), sleep(5000).then(() => true)]);
	if (killed) app.child.kill('SIGKILL');
}

async function serverStats(app) {
	const response = await fetch(`${app.base}/__bench/cpu`);
	return response.json();
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers (fetch, for set-up and sanity checks only)

const USER_EMAIL = BENCH_USER.email;

function cookiePairs(setCookies) {
	return setCookies
		.map((line) => line.split(';')[0].trim())
		.filter((pair) => pair.includes('=') && !pair.endsWith('='));
}

/** A real credentials sign-in (csrf + callback); returns the session cookie pair and its Set-Cookie line. */
async function signIn(app) {
	const csrfResponse = await fetch(`${app.base}/auth/csrf`);
	// @auth/sveltekit turns Auth.js's CSRF token off (SvelteKit checks the Origin header instead)
	const csrfBody = await csrfResponse.text();
	const csrfToken = app.noCsrfToken ? undefined : JSON.parse(csrfBody).csrfToken;
	if (!app.noCsrfToken && !csrfToken) throw new Error(`${app.label}: GET /auth/csrf gave no token (${csrfResponse.status})`);
	const jar = cookiePairs(csrfResponse.headers.getSetCookie()).join('; ');
	const response = await fetch(`${app.base}/auth/callback/credentials`, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar, origin: app.base },
		body: new URLSearchParams({ ...(csrfToken ? { csrfToken } : {}), ...CREDENTIALS })
	});
	const line = response.headers.getSetCookie().find((value) => value.startsWith(`${app.sessionCookieName}=`));
	if (response.status !== 302 || !line) {
		throw new Error(`${app.label}: credentials sign-in failed (status ${response.status}): ${(await response.text()).slice(0, 300)}`);
	}
	return { cookie: line.split(';')[0], setCookie: line };
}

// ---------------------------------------------------------------------------------------------
// What is measured

const withSession = (app) => app.session.cookie;
const hasUser = (status, body) => status === 200 && body.includes(USER_EMAIL);
/** The Express measures, each with issue 17's target for kitgate / bare. */
const SCENARIOS = [
	{ id: 'session', title: 'GET /auth/session, valid session cookie', path: '/auth/session', cookie: withSession, needsSignIn: true, expect: hasUser, unit: 'req/s', target: 0.9 },
	{ id: 'protected', title: 'GET /protected calling getSession(req)', path: '/protected', cookie: withSession, needsSignIn: true, expect: hasUser, unit: 'req/s', target: 0.85 },
	{ id: 'anonymous', title: 'GET /auth/session, anonymous', path: '/auth/session', expect: (status, body) => status === 200 && body.trim() === 'null', unit: 'req/s', target: 1 },
	{ id: 'signin-page', title: 'GET /auth/signin (built-in page)', path: '/auth/signin', expect: (status, body) => status === 200 && body.includes('<form'), unit: 'req/s', target: 0.8 },
	{ id: 'sign-in', kind: 'sign-in', title: 'credentials sign-in (csrf + callback)', unit: 'sign-ins/s', target: 0.9 }
];
/** The measuring build of the sign-in scenario: kitgate without the CSRF MAC and the session-token cipher. */
const FLOOR_APP = 'kitgate-no-crypto';
/** Issue 17: less server CPU per credentials sign-in than the 1.7 ms it measured. */
const SIGN_IN_CPU_TARGET_MICROS = 1700;
/** Issue 17: a PostgreSQL session check at least half as fast as kitgate's JWT check; SQLite keeps issue 5's. */
const DATABASE_TARGETS = { 'kitgate-sqlite': 0.5, 'kitgate-postgres': 0.5 };
/** Database sessions, alternating with kitgate's JWT check. */
const DATABASE_SCENARIO = { id: 'database-session', title: 'GET /auth/session, database session', path: '/auth/session', cookie: withSession, expect: hasUser, unit: 'req/s' };
/** The same checks through SvelteKit's handle and locals.auth(). */
const SVELTEKIT_SCENARIOS = [
	{ ...SCENARIOS[0], id: 'sk-session', title: 'SvelteKit: GET /auth/session through handle, valid cookie', target: undefined },
	{ ...SCENARIOS[1], id: 'sk-protected', title: 'SvelteKit: GET /protected calling locals.auth()', target: 0.8 }
];

// ---------------------------------------------------------------------------------------------
// Load

let autocannon;

/** One bounded autocannon run of `scenario` against `app`, with server CPU and RSS around it. */
async function loadRun(app, scenario, durationSeconds) {
	const before = await serverStats(app);
	const signIns = { ok: 0, failed: 0 };
	const options = {
		url: `${app.base}${scenario.path ?? '/'}`,
		connections: scenario.kind === 'sign-in' ? SETTINGS.signInConnections : SETTINGS.connections,
		duration: durationSeconds,
		pipelining: 1,
		timeout: 10
	};
	if (scenario.kind === 'sign-in') options.requests = signInChain(app, signIns);
	else if (scenario.cookie) options.headers = { cookie: scenario.cookie(app) };
	const result = await autocannon(options);
	const after = await serverStats(app);
	const responses = result.requests.total;
	const cpuMicros = after.user - before.user + (after.system - before.system);
	const seconds = result.duration;
	const operations = scenario.kind === 'sign-in' ? signIns.ok : responses;
	return {
		rate: operations / seconds,
		responses,
		seconds,
		cpuMicrosPerOperation: operations ? cpuMicros / operations : null,
		rssBytes: after.rss,
		latencyP50: result.latency.p50,
		latencyP99: result.latency.p99,
		errors: result.errors,
		timeouts: result.timeouts,
		non2xx: result.non2xx,
		...(scenario.kind === 'sign-in' ? { signInsOk: signIns.ok, signInsFailed: signIns.failed } : {})
	};
}

/** autocannon request chain for a full credentials sign-in: GET csrf, then POST the callback. */
function signInChain(app, counts) {
	const header = (headers, name) => {
		for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return value;
		return undefined;
	};
	const asList = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
	return [
		{
			method: 'GET',
			path: '/auth/csrf',
			onResponse(status, body, context, headers) {
				try {
					context.csrfToken = JSON.parse(String(body)).csrfToken;
					context.cookie = cookiePairs(asList(header(headers, 'set-cookie'))).join('; ');
				} catch {
					context.csrfToken = undefined;
				}
			}
		},
		{
			method: 'POST',
			path: '/auth/callback/credentials',
			setupRequest(request, context) {
				if (!context.csrfToken) {
					counts.failed++;
					return null; // restart the chain with a new csrf request
				}
				return {
					...request,
					headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: context.cookie, origin: app.base },
					body: new URLSearchParams({ csrfToken: context.csrfToken, ...CREDENTIALS }).toString()
				};
			},
			onResponse(status, body, context, headers) {
				const ok = status === 302 && asList(header(headers, 'set-cookie')).some((line) => line.startsWith(`${app.sessionCookieName}=`) && !line.startsWith(`${app.sessionCookieName}=;`));
				if (ok) counts.ok++;
				else counts.failed++;
			}
		}
	];
}

/** One request through fetch, checked against the scenario's expectation before any load. */
async function sanityCheck(app, scenario) {
	if (scenario.kind === 'sign-in') {
		await signIn(app);
		return;
	}
	const response = await fetch(`${app.base}${scenario.path}`, {
		headers: scenario.cookie ? { cookie: scenario.cookie(app) } : {},
		redirect: 'manual'
	});
	const body = await response.text();
	if (!scenario.expect(response.status, body)) {
		throw new Error(`${app.label} ${scenario.path}: unexpected answer ${response.status} ${body.slice(0, 200)}`);
	}
}

/**
 * Runs a scenario on several apps: a warm-up each, then `repetitions` rounds of A B C … with a
 * fixed duration each. An app that fails its sanity check is left out with the reason.
 */
async function runScenario(scenario, apps) {
	say(`${scenario.title}`);
	const runs = Object.fromEntries(apps.map((app) => [app.name, []]));
	const problems = {};
	const active = [];
	for (const app of apps) {
		try {
			await sanityCheck(app, scenario);
			active.push(app);
		} catch (error) {
			problems[app.name] = error.message;
			say(`  skipped ${app.label}: ${error.message}`);
		}
	}
	for (const app of active) await loadRun(app, scenario, SETTINGS.warmupSeconds);
	for (let rep = 1; rep <= SETTINGS.repetitions; rep++) {
		for (const app of active) {
			const run = await loadRun(app, scenario, SETTINGS.durationSeconds);
			runs[app.name].push(run);
			const warn = run.errors || run.timeouts || (scenario.kind !== 'sign-in' && run.non2xx) || run.signInsFailed ? ` (errors ${run.errors}, timeouts ${run.timeouts}, non-2xx ${run.non2xx}${run.signInsFailed !== undefined ? `, failed sign-ins ${run.signInsFailed}` : ''})` : '';
			say(`  rep ${rep} ${app.label.padEnd(16)} ${run.rate.toFixed(0).padStart(6)} ${scenario.unit}  cpu ${fmtMicros(run.cpuMicrosPerOperation)}  rss ${fmtMB(run.rssBytes)}${warn}`);
			await sleep(200);
		}
	}
	return { id: scenario.id, title: scenario.title, unit: scenario.unit, runs, problems };
}

// ---------------------------------------------------------------------------------------------
// Statistics and formatting

const median = (values) => {
	const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
	if (!sorted.length) return null;
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const summary = (values) => {
	const finite = values.filter((value) => Number.isFinite(value));
	return finite.length ? { median: median(finite), min: Math.min(...finite), max: Math.max(...finite), n: finite.length } : null;
};

function statsOf(result, appName) {
	const runs = result.runs[appName] ?? [];
	if (!runs.length) return null;
	return {
		rate: summary(runs.map((run) => run.rate)),
		cpuMicrosPerOperation: summary(runs.map((run) => run.cpuMicrosPerOperation)),
		rssBytes: summary(runs.map((run) => run.rssBytes)),
		latencyP50: summary(runs.map((run) => run.latencyP50)),
		latencyP99: summary(runs.map((run) => run.latencyP99))
	};
}

/** Ratio of medians, and the range of the per-repetition ratios (runs paired by repetition). */
function ratioOf(result, top, bottom) {
	const a = result.runs[top] ?? [];
	const b = result.runs[bottom] ?? [];
	if (!a.length || !b.length) return null;
	const pairs = a.slice(0, b.length).map((run, index) => run.rate / b[index].rate);
	return { value: median(a.map((run) => run.rate)) / median(b.map((run) => run.rate)), min: Math.min(...pairs), max: Math.max(...pairs) };
}

const fmtRate = (s) => (s ? `${Math.round(s.median).toLocaleString('en-US')} (${Math.round(s.min).toLocaleString('en-US')}–${Math.round(s.max).toLocaleString('en-US')})` : 'not measured');
const fmtRatio = (r) => (r ? `${r.value.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})` : '—');
const fmtMicros = (value) => (value === null || value === undefined ? '—' : value >= 1000 ? `${(value / 1000).toFixed(2)} ms` : `${Math.round(value)} µs`);
const fmtMB = (bytes) => (bytes === null || bytes === undefined ? '—' : `${(bytes / 1048576).toFixed(1)} MB`);
const fmtBytes = (bytes) => `${bytes.toLocaleString('en-US')} B`;

// ---------------------------------------------------------------------------------------------
// Bytes

const TYPICAL_OIDC_CLAIMS = {
	name: 'Ada Lovelace',
	email: 'ada.lovelace@example.com',
	picture: 'https://lh3.googleusercontent.com/a/ACg8ocK3f9QzR7vX2mB1nT5yW8pL4sJ6hD0cF2gV9kE7uA3xZ1qY=s96-c',
	sub: '109876543210987654321'
};

async function measureCookies(secret) {
	const kitgate = await import('kitgate');
	const { authjsEncode } = await import('./reference/lib.js');
	const maxAge = 30 * 86400;
	const ours = await kitgate.encode({ token: { ...TYPICAL_OIDC_CLAIMS }, secret, salt: 'kitgate.session-token', maxAge });
	const theirs = await authjsEncode({ token: { ...TYPICAL_OIDC_CLAIMS }, secret, salt: 'authjs.session-token', maxAge });
	const decoded = await kitgate.decode({ token: ours, secret, salt: 'kitgate.session-token' });
	return {
		claims: Object.keys(TYPICAL_OIDC_CLAIMS).concat('iat', 'exp', 'jti'),
		kitgate: { name: 'kitgate.session-token', valueBytes: Buffer.byteLength(ours), pairBytes: Buffer.byteLength(`kitgate.session-token=${ours}`), decodedClaims: Object.keys(decoded ?? {}) },
		authjs: { name: 'authjs.session-token', valueBytes: Buffer.byteLength(theirs), pairBytes: Buffer.byteLength(`authjs.session-token=${theirs}`) }
	};
}

// ---------------------------------------------------------------------------------------------
// Profiling (only when a target is missed)

/** Runs one load of `scenario` against a fresh kitgate child under `--cpu-prof` and summarises it. */
async function profileScenario(scenario, appFactory, profileRoot) {
	const directory = join(profileRoot, scenario.id);
	mkdirSync(directory, { recursive: true });
	const app = await appFactory(['--cpu-prof', `--cpu-prof-dir=${directory}`]);
	try {
		if (scenario.needsSignIn) app.session = await signIn(app);
		await loadRun(app, scenario, SETTINGS.warmupSeconds);
		await loadRun(app, scenario, SETTINGS.durationSeconds);
	} finally {
		await stopApp(app);
	}
	const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
	if (!file) throw new Error('no .cpuprofile was written');
	const { summariseProfile } = await import('./profile.js');
	return { file: join('bench', '.profiles', scenario.id, file), ...summariseProfile(join(directory, file)) };
}

// ---------------------------------------------------------------------------------------------
// SvelteKit: `handle` + `locals.auth()` on adapter-node builds (see sveltekit.js)

const SVELTEKIT_DIR = join(REFERENCE_DIR, '.tmp-sveltekit');

async function buildSvelteKit() {
	say('building the SvelteKit apps (adapter-node)…');
	const { buildSvelteKitApps } = await import('./sveltekit.js');
	exitTasks.push(() => rmSync(SVELTEKIT_DIR, { recursive: true, force: true }));
	return buildSvelteKitApps({ benchDir: BENCH_DIR, rootDir: ROOT, parentDir: SVELTEKIT_DIR, runCommand });
}

async function runSvelteKit(built, scenarios) {
	const specs = [
		['kitgate', 'kitgate SvelteKit', 'kitgate.session-token'],
		['authjs', '@auth/sveltekit', 'authjs.session-token'],
		['bare', 'bare SvelteKit', 'bare.session-token']
	];
	const apps = [];
	const problems = {};
	for (const [name, label, cookie] of specs) {
		if (built[name].error) {
			problems[name] = built[name].error;
			continue;
		}
		try {
			const app = await startApp(name, label, join(BENCH_DIR, 'apps', 'sveltekit-server.js'), { BENCH_HANDLER: built[name].handler, BENCH_SESSION_COOKIE: cookie });
			app.noCsrfToken = name === 'authjs';
			app.session = await signIn(app);
			apps.push(app);
		} catch (error) {
			problems[name] = error.message.split('\n').slice(0, 3).join(' ');
		}
	}
	const results = [];
	if (apps.length) {
		for (const scenario of scenarios) {
			const result = await runScenario(scenario, apps);
			Object.assign(result.problems, problems);
			results.push(result);
		}
	}
	for (const app of apps) await stopApp(app);
	return { results, problems };
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
	const started = Date.now();
	const loadAtStart = os.loadavg().map((value) => Number(value.toFixed(2)));
	await ensureReferenceInstalled({ log: say });
	({ autocannon } = await import('./reference/lib.js'));
	const build = await ensureDist();
	say(build.note.split('\n')[0]);

	const svelteKitBuild = SETTINGS.svelteKit ? await buildSvelteKit() : null;
	const scratch = mkdtempSync(join(os.tmpdir(), 'kitgate-bench-'));
	exitTasks.push(() => rmSync(scratch, { recursive: true, force: true }));

	// PostgreSQL first (it may take a few seconds); a failure is reported, not fatal
	let postgres = null;
	let postgresProblem = null;
	try {
		const { startPostgres } = await import('./postgres.js');
		postgres = await startPostgres();
		exitTasks.push(postgres.stop);
		say(`PostgreSQL: ${postgres.source}`);
	} catch (error) {
		postgresProblem = error.message.split('\n')[0];
		say(`PostgreSQL not available: ${postgresProblem}`);
	}

	const kitgateFile = join(BENCH_DIR, 'apps', 'kitgate.js');
	const startKitgate = (execArgv = []) => startApp('kitgate', 'kitgate', kitgateFile, {}, execArgv);
	const startSqlite = (execArgv = []) =>
		startApp('kitgate-sqlite', 'kitgate SQLite', kitgateFile, { BENCH_STORE: 'sqlite', BENCH_SQLITE_FILE: join(scratch, 'sessions.sqlite') }, execArgv);
	const startPg = (execArgv = []) =>
		startApp('kitgate-postgres', 'kitgate PostgreSQL', kitgateFile, { BENCH_STORE: 'postgres', BENCH_DATABASE_URL: postgres.url, BENCH_PG_SCHEMA: postgres.schema }, execArgv);
	// the same database sessions with session.cache (copies in an encrypted cookie, 60 s)
	const startPgCached = (execArgv = []) =>
		startApp('kitgate-postgres-cached', 'kitgate PostgreSQL + cache', kitgateFile, { BENCH_STORE: 'postgres', BENCH_SESSION_CACHE: 'cookie', BENCH_DATABASE_URL: postgres.url, BENCH_PG_SCHEMA: postgres.schema }, execArgv);

	say('starting apps…');
	const kitgate = await startKitgate();
	const authjs = await startApp('authjs', 'Auth.js', join(REFERENCE_DIR, 'authjs-app.js'));
	// the bare page is padded to the size of kitgate's built-in page
	const kitgatePage = await (await fetch(`${kitgate.base}/auth/signin`)).text();
	const authjsPage = await (await fetch(`${authjs.base}/auth/signin`)).text();
	const bare = await startApp('bare', 'bare Express', join(BENCH_DIR, 'apps', 'bare.js'), { BARE_PAGE_BYTES: String(Buffer.byteLength(kitgatePage)) });
	const barePage = await (await fetch(`${bare.base}/auth/signin`)).text();
	const mainApps = [kitgate, authjs, bare];
	for (const app of mainApps) app.session = await signIn(app);

	const databaseApps = [];
	const databaseProblems = {};
	try {
		databaseApps.push(await startSqlite());
	} catch (error) {
		databaseProblems['kitgate-sqlite'] = error.message.split('\n').slice(0, 4).join(' ');
	}
	if (postgres) {
		try {
			databaseApps.push(await startPg());
		} catch (error) {
			databaseProblems['kitgate-postgres'] = error.message.split('\n').slice(0, 4).join(' ');
		}
		try {
			databaseApps.push(await startPgCached());
		} catch (error) {
			databaseProblems['kitgate-postgres-cached'] = error.message.split('\n').slice(0, 4).join(' ');
		}
	} else {
		databaseProblems['kitgate-postgres'] = postgresProblem;
		databaseProblems['kitgate-postgres-cached'] = postgresProblem;
	}
	for (const app of databaseApps) app.session = { cookie: `${app.sessionCookieName}=${app.seededSessionToken}` };
	// the cached app answers its first read from the database with a copy: the load sends it back, as a browser would
	for (const app of databaseApps.filter((candidate) => candidate.name === 'kitgate-postgres-cached')) {
		const response = await fetch(`${app.base}/auth/session`, { headers: { cookie: app.session.cookie } });
		const copy = response.headers.getSetCookie().find((line) => line.startsWith('kitgate.session-cache='));
		if (copy) app.session.cookie += `; ${copy.split(';')[0]}`;
		else databaseProblems['kitgate-postgres-cached'] = 'the first read set no session-cache cookie';
	}


	// the sign-ins also run on a measuring build without their cryptography (crypto-floor.js): what
	// that cryptography costs, measured in the same rounds
	const startFloor = async () => {
		try {
			const dir = buildCryptoFloor('no-crypto');
			exitTasks.push(() => rmSync(dir, { recursive: true, force: true }));
			return [await startApp(FLOOR_APP, 'kitgate, no crypto', kitgateFile, { KITGATE_DIST: dir })];
		} catch (error) {
			floorProblem = error.message.split('\n')[0];
			return [];
		}
	};
	let floorProblem = null;
	const results = [];
	for (const scenario of SCENARIOS) {
		const apps = scenario.id === 'sign-in' ? [...mainApps, ...(await startFloor())] : mainApps;
		const result = await runScenario(scenario, apps);
		if (floorProblem && scenario.id === 'sign-in') result.problems[FLOOR_APP] = floorProblem;
		results.push(result);
		for (const app of apps.filter((candidate) => !mainApps.includes(candidate))) await stopApp(app);
	}
	const databaseResult = databaseApps.length ? await runScenario({ ...DATABASE_SCENARIO, title: `${DATABASE_SCENARIO.title} (vs kitgate JWT)` }, [kitgate, ...databaseApps]) : null;
	if (databaseResult) Object.assign(databaseResult.problems, databaseProblems);

	const svelteKit = svelteKitBuild ? await runSvelteKit(svelteKitBuild, SVELTEKIT_SCENARIOS) : { results: [], problems: { all: 'skipped (--no-sveltekit)' } };

	say('measuring bytes…');
	const cookies = await measureCookies(SECRET);
	cookies.signedIn = Object.fromEntries(mainApps.map((app) => [app.name, Buffer.byteLength(app.session.cookie)]));
	let clientJs;
	try {
		const { measureClientJs } = await import('./client-size.js');
		clientJs = await measureClientJs(join(ROOT, 'src', 'lib', 'components'));
	} catch (error) {
		clientJs = { error: error.message.split('\n')[0] };
	}

	// targets
	const targets = [];
	for (const scenario of SCENARIOS) {
		const result = results.find((r) => r.id === scenario.id);
		const ratio = ratioOf(result, 'kitgate', 'bare');
		targets.push({ id: scenario.id, issue: 17, label: `${scenario.title}: kitgate/bare ≥ ${scenario.target}×`, value: ratio?.value ?? null, met: ratio ? ratio.value >= scenario.target : null, target: scenario.target, scenario });
	}
	const signInCpu = statsOf(results.find((r) => r.id === 'sign-in'), 'kitgate')?.cpuMicrosPerOperation?.median ?? null;
	targets.push({ id: 'sign-in-cpu', issue: 17, label: `server CPU per credentials sign-in < ${fmtMicros(SIGN_IN_CPU_TARGET_MICROS)}`, value: signInCpu, unit: 'µs', met: signInCpu === null ? null : signInCpu < SIGN_IN_CPU_TARGET_MICROS });
	for (const scenario of SVELTEKIT_SCENARIOS.filter((s) => s.target)) {
		const result = svelteKit.results.find((r) => r.id === scenario.id);
		const ratio = result ? ratioOf(result, 'kitgate', 'bare') : null;
		targets.push({ id: scenario.id, issue: 17, label: `${scenario.title}: kitgate/bare SvelteKit ≥ ${scenario.target}×`, value: ratio?.value ?? null, met: ratio ? ratio.value >= scenario.target : null, target: scenario.target });
	}
	for (const [name, target] of Object.entries(DATABASE_TARGETS)) {
		const ratio = databaseResult ? ratioOf(databaseResult, name, 'kitgate') : null;
		const label = name === 'kitgate-sqlite' ? 'SQLite' : 'PostgreSQL';
		targets.push({ id: `database-${label.toLowerCase()}`, issue: name === 'kitgate-sqlite' ? 5 : 17, label: `${label} database-session check (no cache): ≥ ${target}× kitgate JWT`, value: ratio?.value ?? null, met: ratio ? ratio.value >= target : null, target, scenario: DATABASE_SCENARIO, profileApp: name });
	}
	const peakRss = (name) => Math.max(...results.flatMap((r) => (r.runs[name] ?? []).map((run) => run.rssBytes)));
	const rss = { kitgate: peakRss('kitgate'), authjs: peakRss('authjs'), bare: peakRss('bare') };
	targets.push({ id: 'rss', issue: 17, label: 'peak RSS after load ≤ Auth.js', value: rss.kitgate / rss.authjs, met: rss.kitgate <= rss.authjs });
	targets.push({ id: 'client-js', issue: 30, label: 'SignIn + SignOut client JS ≤ 2 KB gzipped', value: clientJs.components?.gzip ?? null, met: clientJs.components ? clientJs.components.gzip <= 2048 : null, limit: 2048 });
	targets.push({ id: 'client-js-user-button', issue: 30, label: 'UserButton adds ≤ 1 KB gzipped', value: clientJs.userButton?.gzip ?? null, met: clientJs.userButton ? clientJs.userButton.gzip <= 1024 : null, limit: 1024 });

	// profile kitgate where a throughput target is missed
	const profiles = {};
	if (SETTINGS.profile) {
		const profileRoot = join(BENCH_DIR, '.profiles');
		rmSync(profileRoot, { recursive: true, force: true });
		for (const target of targets.filter((t) => t.met === false && t.scenario)) {
			say(`profiling kitgate: ${target.scenario.title}…`);
			try {
				const factory = target.profileApp === 'kitgate-sqlite' ? startSqlite : target.profileApp === 'kitgate-postgres' ? startPg : startKitgate;
				const scenario = target.profileApp ? { ...target.scenario, needsSignIn: false } : target.scenario;
				profiles[target.id] = await profileScenario(scenario, async (execArgv) => {
					const app = await factory(execArgv);
					if (app.seededSessionToken) app.session = { cookie: `${app.sessionCookieName}=${app.seededSessionToken}` };
					return app;
				}, profileRoot);
			} catch (error) {
				profiles[target.id] = { error: error.message.split('\n')[0] };
			}
		}
	}

	for (const app of [...mainApps, ...databaseApps]) await stopApp(app);

	const machine = {
		cpu: os.cpus()[0]?.model ?? 'unknown',
		cores: os.cpus().length,
		totalMemoryBytes: os.totalmem(),
		node: process.version,
		platform: `${os.type()} ${os.release()} ${os.arch()}`,
		date: new Date().toISOString(),
		commit: gitDescribe(),
		loadAverageAtStart: loadAtStart,
		loadAverageAtEnd: os.loadavg().map((value) => Number(value.toFixed(2)))
	};
	const report = {
		machine,
		settings: SETTINGS,
		build: build.note,
		durationSeconds: (Date.now() - started) / 1000,
		pages: { kitgate: Buffer.byteLength(kitgatePage), authjs: Buffer.byteLength(authjsPage), bare: Buffer.byteLength(barePage) },
		postgres: postgres ? { source: postgres.source } : { notMeasured: postgresProblem },
		scenarios: results,
		database: databaseResult,
		svelteKit,
		rss,
		cookies,
		clientJs,
		// the scenario objects hold functions; the JSON keeps the rest
		targets: targets.map((target) => Object.fromEntries(Object.entries(target).filter(([key]) => key !== 'scenario'))),
		profiles
	};
	const markdown = `${renderMarkdown(report)}\n## Multi-server load\n\nTwo Express processes sharing one PostgreSQL: see [MULTI-SERVER.md](MULTI-SERVER.md) (\`npm run bench:multi\`).\n`;
	writeFileSync(join(BENCH_DIR, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
	writeFileSync(join(BENCH_DIR, 'RESULTS.md'), markdown);
	process.stdout.write(markdown);
	say(`done in ${report.durationSeconds.toFixed(0)} s: bench/RESULTS.md, bench/results.json`);
}

function gitDescribe() {
	try {
		const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
		const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8' }).trim();
		return dirty ? `${head} + uncommitted changes in src/` : head;
	} catch {
		return 'unknown';
	}
}

// ---------------------------------------------------------------------------------------------
// Report

function renderMarkdown(report) {
	const scenarios = SCENARIOS;
	const databaseScenario = DATABASE_SCENARIO;
	const svelteKitScenarios = SVELTEKIT_SCENARIOS;
	const { machine, settings } = report;
	const lines = [];
	const push = (...more) => lines.push(...more);
	const met = (value) => (value === null || value === undefined ? '—' : value ? '✅' : '❌');
	push(
		'# kitgate benchmark results',
		'',
		`Written by \`node bench/run.js${settings.quick ? ' --quick' : ''}\` (overwritten on every run; see [README.md](README.md) for how to read it).`,
		'',
		`- **Machine:** ${machine.cpu}, ${machine.cores} cores, ${(machine.totalMemoryBytes / 2 ** 30).toFixed(1)} GiB RAM, ${machine.platform}`,
		`- **Node:** ${machine.node} · **date:** ${machine.date} · **kitgate:** ${machine.commit} (${report.build.split('\n')[0]})`,
		`- **Load average** (1/5/15 min) at start ${machine.loadAverageAtStart.join(' / ')}, at end ${machine.loadAverageAtEnd.join(' / ')}: other work on the machine shows up as noise in the ranges.`,
		`- **Load:** autocannon, ${settings.repetitions} repetitions × ${settings.durationSeconds} s per target, alternating kitgate → Auth.js → bare (→ kitgate without cryptography, for sign-ins), ${settings.connections} connections (${settings.signInConnections} for sign-ins), ${settings.warmupSeconds} s warm-up each; all on 127.0.0.1, client and servers on the same machine. Whole run: ${Math.round(report.durationSeconds)} s.`,
		'- Cells are **median (min–max)** over the repetitions; ratios are ratios of medians, with the range of the per-repetition ratios.',
		''
	);

	push('## Throughput', '', '| measure | kitgate | Auth.js (@auth/express 0.12.3) | bare Express | kitgate / Auth.js | kitgate / bare | target (kitgate / bare) |', '|---|---|---|---|---|---|---|');
	for (const scenario of scenarios) {
		const result = report.scenarios.find((r) => r.id === scenario.id);
		const k = statsOf(result, 'kitgate');
		const a = statsOf(result, 'authjs');
		const b = statsOf(result, 'bare');
		const vsBare = ratioOf(result, 'kitgate', 'bare');
		push(`| ${scenario.title} (${scenario.unit}) | ${fmtRate(k?.rate)} | ${fmtRate(a?.rate)} | ${fmtRate(b?.rate)} | ${fmtRatio(ratioOf(result, 'kitgate', 'authjs'))} | ${fmtRatio(vsBare)} | ≥ ${scenario.target}× ${met(vsBare ? vsBare.value >= scenario.target : null)} |`);
	}
	push('');
	const authjsVsBare = scenarios.map((scenario) => {
		const ratio = ratioOf(report.scenarios.find((r) => r.id === scenario.id), 'authjs', 'bare');
		return `${scenario.id} ${ratio ? `${ratio.value.toFixed(2)}×` : '—'}`;
	});
	push(`Auth.js / bare in this run: ${authjsVsBare.join(', ')} (issue 5 quotes 0.15×, 0.14×, 0.45×, 0.42×, 0.9×).`, '');
	const floor = floorNote(report);
	if (floor) push(`**What a sign-in's cryptography costs.** ${floor}`, '');

	push('## Server CPU per operation and memory', '', 'CPU is the server process\'s user+system time (`process.cpuUsage()`) over a run divided by the requests (or successful sign-ins) it answered, so it shows the cost even when the load client is the limit. RSS is `process.memoryUsage().rss` right after each run.', '');
	push('| measure | kitgate CPU/op | Auth.js CPU/op | bare CPU/op | kitgate RSS | Auth.js RSS | bare RSS |', '|---|---|---|---|---|---|---|');
	for (const scenario of scenarios) {
		const result = report.scenarios.find((r) => r.id === scenario.id);
		const stat = (name) => statsOf(result, name);
		const cpu = (name) => fmtMicros(stat(name)?.cpuMicrosPerOperation?.median);
		const mem = (name) => fmtMB(stat(name)?.rssBytes?.median);
		push(`| ${scenario.title} | ${cpu('kitgate')} | ${cpu('authjs')} | ${cpu('bare')} | ${mem('kitgate')} | ${mem('authjs')} | ${mem('bare')} |`);
	}
	const signInResult = report.scenarios.find((r) => r.id === 'sign-in');
	const failedSignIns = Object.entries(signInResult?.runs ?? {}).map(([name, runs]) => `${name} ${runs.reduce((sum, run) => sum + (run.signInsFailed ?? 0), 0)}`);
	push('', `Peak RSS after any load: kitgate ${fmtMB(report.rss.kitgate)}, Auth.js ${fmtMB(report.rss.authjs)}, bare ${fmtMB(report.rss.bare)}. Failed sign-ins during load: ${failedSignIns.join(', ')}.`, '');

	push('## Database sessions', '');
	if (report.database) {
		const result = report.database;
		push(`\`${databaseScenario.path}\` with a database session cookie (a user and session written through the adapter at start-up), alternating with kitgate's JWT session check in the same run. PostgreSQL: ${report.postgres.source ?? `not measured (${report.postgres.notMeasured})`}.`, '');
		push('| session store | req/s | CPU/req | RSS | vs kitgate JWT | target |', '|---|---|---|---|---|---|');
		for (const [name, label] of [
			['kitgate', 'kitgate JWT cookie (reference)'],
			['kitgate-sqlite', 'SQLite (kitgate/adapters/sqlite, temp file)'],
			['kitgate-postgres', 'PostgreSQL (kitgate/adapters/postgres)'],
			['kitgate-postgres-cached', 'PostgreSQL + `session.cache: { maxAge: 3600 }` (copy in a cookie)']
		]) {
			const stat = statsOf(result, name);
			const ratio = name === 'kitgate' ? null : ratioOf(result, name, 'kitgate');
			const goal = DATABASE_TARGETS[name];
			const target = goal ? `≥ ${goal}× ${met(ratio ? ratio.value >= goal : null)}` : '—';
			const cell = stat ? fmtRate(stat.rate) : `not measured: ${result.problems[name] ?? 'unknown reason'}`;
			push(`| ${label} | ${cell} | ${fmtMicros(stat?.cpuMicrosPerOperation?.median)} | ${fmtMB(stat?.rssBytes?.median)} | ${ratio ? fmtRatio(ratio) : '—'} | ${target} |`);
		}
	} else {
		push('Not measured: no database app started.');
	}
	push('');

	push('## SvelteKit: `handle` + `locals.auth()`', '');
	if (report.svelteKit.results.length) {
		push('Three minimal SvelteKit 2 apps built with adapter-node and served by its `handler.js` on node:http: kitgate\'s `SvelteKitAuth` handle, `@auth/sveltekit` 1.11.3 with the same config, and a bare hook reading a plain cookie. Issue 17 asks ≥ 0.8× bare SvelteKit for the page calling `locals.auth()`.', '');
		push('| measure | kitgate | @auth/sveltekit | bare SvelteKit | kitgate / Auth.js | kitgate / bare | target (kitgate / bare) | CPU/req kitgate · Auth.js · bare |', '|---|---|---|---|---|---|---|---|');
		for (const scenario of svelteKitScenarios) {
			const result = report.svelteKit.results.find((r) => r.id === scenario.id);
			if (!result) continue;
			const stat = (name) => statsOf(result, name);
			const cpu = ['kitgate', 'authjs', 'bare'].map((name) => fmtMicros(stat(name)?.cpuMicrosPerOperation?.median)).join(' · ');
			const vsBare = ratioOf(result, 'kitgate', 'bare');
			const target = scenario.target ? `≥ ${scenario.target}× ${met(vsBare ? vsBare.value >= scenario.target : null)}` : '—';
			push(`| ${scenario.title.replace('SvelteKit: ', '')} (req/s) | ${fmtRate(stat('kitgate')?.rate)} | ${fmtRate(stat('authjs')?.rate)} | ${fmtRate(stat('bare')?.rate)} | ${fmtRatio(ratioOf(result, 'kitgate', 'authjs'))} | ${fmtRatio(vsBare)} | ${target} | ${cpu} |`);
		}
	} else {
		push(`Not measured: ${Object.entries(report.svelteKit.problems).map(([name, problem]) => `${name}: ${problem}`).join('; ')}`);
	}
	push('');

	const { cookies, clientJs, pages } = report;
	push('## Bytes', '', '| measure | kitgate | Auth.js | target |', '|---|---|---|---|');
	push(`| session cookie for a typical OIDC user (\`name=value\`; claims ${cookies.claims.join(', ')}) | ${fmtBytes(cookies.kitgate.pairBytes)} | ${fmtBytes(cookies.authjs.pairBytes)} | — |`);
	push(`| session cookie after the bench's credentials sign-in (\`name=value\`) | ${fmtBytes(cookies.signedIn.kitgate)} | ${fmtBytes(cookies.signedIn.authjs)} | — |`);
	push(`| built-in sign-in page HTML (bare serves ${fmtBytes(pages.bare)}) | ${fmtBytes(pages.kitgate)} | ${fmtBytes(pages.authjs)} | — |`);
	if (clientJs.components) {
		push(`| \`SignIn\` + \`SignOut\` client JS, gzipped (minified ${fmtBytes(clientJs.components.raw)}; Svelte runtime excluded) | ${fmtBytes(clientJs.components.gzip)} | — | ≤ 2 KB ${met(clientJs.components.gzip <= 2048)} |`);
		push(`| what \`UserButton\` adds to them, gzipped | ${fmtBytes(clientJs.userButton.gzip)} | — | ≤ 1 KB ${met(clientJs.userButton.gzip <= 1024)} |`);
		push(`| loaded on demand (a passkey provider listed; its ceremony): ${clientJs.lazy.map((chunk) => chunk.file.replace(/-[\w-]+\.js$/, '')).join(', ')} | ${clientJs.lazy.map((chunk) => fmtBytes(chunk.gzip)).join(', ')} | — | — |`);
		push(`| the same, counting the Svelte runtime code they pull in beyond an empty page | ${fmtBytes(clientJs.withRuntime.gzip)} | — | — |`);
	} else {
		push(`| \`SignIn\` + \`SignOut\` client JS | not measured: ${clientJs.error} | — | ≤ 2 KB |`);
	}
	push('', `Cookie sizes: kitgate's \`encode\` (salt \`kitgate.session-token\`) and \`@auth/core/jwt\`'s \`encode\` (salt \`authjs.session-token\`), same claims and secret, 30-day maxAge. Client JS: ${clientJs.method ?? 'see error above'}; "Svelte runtime excluded" means \`svelte/*\`, \`$app/*\` and Vite's module-preload helper are external, as any SvelteKit page already loads them.`, '');

	push('## Targets', '', 'Issue 17\'s targets, and issue 5\'s that issue 17 did not replace.', '', '| target | issue | measured | met | by how much |', '|---|---|---|---|---|');
	for (const target of report.targets) {
		let value = '—';
		if (target.value !== null && target.value !== undefined) value = target.limit ? fmtBytes(target.value) : target.unit === 'µs' ? fmtMicros(target.value) : `${target.value.toFixed(2)}×`;
		push(`| ${target.label} | ${target.issue ?? 5} | ${value} | ${met(target.met)} | ${margin(target)} |`);
	}
	push('');

	const missed = report.targets.filter((t) => t.met === false);
	if (missed.length) {
		push('## What bounds it', '');
		for (const target of missed) {
			push(`### ${target.label}`, '', missNote(report, target));
			const profile = report.profiles[target.id];
			if (profile?.functions) {
				push('', `Profile of one ${settings.durationSeconds} s run on a fresh kitgate child (\`node --cpu-prof\`, ${profile.totalMs.toFixed(0)} ms of non-idle samples, file \`${profile.file}\`). Self time by origin: ${profile.origins.map((o) => `${o.origin} ${(o.share * 100).toFixed(0)}%`).join(', ')}.`, '');
				push('| self time | function | where |', '|---|---|---|');
				for (const fn of profile.functions) push(`| ${(fn.share * 100).toFixed(1)}% | \`${fn.name}\` | ${fn.where || '—'} |`);
				if (profile.kitgateInclusive?.length) {
					push('', `Inclusive time of kitgate's own functions (everything beneath them on the stack, Node and package code included; kitgate is on the stack in ${(profile.kitgateShare * 100).toFixed(0)}% of the samples; code after an \`await\` counts under the function that resumed, not its caller):`, '');
					push('| inclusive | kitgate function | where |', '|---|---|---|');
					for (const fn of profile.kitgateInclusive.slice(0, 10)) push(`| ${(fn.share * 100).toFixed(1)}% | \`${fn.name}\` | ${fn.where} |`);
				}
			} else if (profile?.error) {
				push('', `Profiling failed: ${profile.error}`);
			}
			push('');
		}
	}

	const notMeasured = [];
	if (report.postgres.notMeasured) notMeasured.push(`PostgreSQL database sessions: ${report.postgres.notMeasured}`);
	for (const [name, problem] of Object.entries(report.database?.problems ?? {})) if (name !== 'kitgate-postgres' || !report.postgres.notMeasured) notMeasured.push(`${name}: ${problem}`);
	for (const result of report.scenarios) for (const [name, problem] of Object.entries(result.problems)) notMeasured.push(`${result.title}, ${name}: ${problem}`);
	for (const [name, problem] of Object.entries(report.svelteKit.problems)) notMeasured.push(`SvelteKit ${name}: ${problem}`);
	if (notMeasured.length === 0) notMeasured.push('Nothing: every measure above ran.');
	push('## Not measured', '', ...notMeasured.map((line) => `- ${line}`), '');
	return `${lines.join('\n')}\n`;
}

/** How far a target is met or missed: ratios in percent of the target, bytes and times as differences. */
function margin(target) {
	if (target.value === null || target.value === undefined || target.met === null) return '—';
	if (target.limit) return `${fmtBytes(Math.abs(target.value - target.limit))} ${target.met ? 'under' : 'over'}`;
	if (target.id === 'rss') return `${Math.abs((target.value - 1) * 100).toFixed(0)}% ${target.met ? 'below' : 'above'} Auth.js`;
	if (target.unit === 'µs') return `${fmtMicros(Math.abs(SIGN_IN_CPU_TARGET_MICROS - target.value))} ${target.met ? 'under' : 'over'}`;
	const percent = Math.abs((target.value / target.target - 1) * 100).toFixed(0);
	return target.met ? `+${percent}%` : `${percent}% short`;
}

/** A one-paragraph account of a missed target, from the numbers of this run. */
function missNote(report, target) {
	if (target.id === 'rss') {
		return `kitgate's peak RSS after load was ${fmtMB(report.rss.kitgate)} against Auth.js's ${fmtMB(report.rss.authjs)} (${((report.rss.kitgate / report.rss.authjs - 1) * 100).toFixed(0)}% more).`;
	}
	if (target.limit) {
		return `The components weigh ${fmtBytes(target.value)} gzipped, ${fmtBytes(target.value - target.limit)} over ${fmtBytes(target.limit)}.`;
	}
	if (target.id === 'sign-in-cpu') return `kitgate spends ${fmtMicros(target.value)} of server CPU per sign-in.`;
	const short = `Measured ${target.value.toFixed(2)}× against ≥ ${target.target}×: ${((1 - target.value / target.target) * 100).toFixed(0)}% short.`;
	if (target.id === 'database-sqlite' || target.id === 'database-postgresql') {
		const name = target.id === 'database-sqlite' ? 'kitgate-sqlite' : 'kitgate-postgres';
		const stat = statsOf(report.database, name);
		const jwt = statsOf(report.database, 'kitgate');
		return `${short} Server CPU per check: ${name.replace('kitgate-', '')} ${fmtMicros(stat?.cpuMicrosPerOperation?.median)} vs JWT ${fmtMicros(jwt?.cpuMicrosPerOperation?.median)} (the database's own CPU is not counted, and shares the machine).`;
	}
	if (target.id.startsWith('sk-')) {
		const result = report.svelteKit.results.find((r) => r.id === target.id);
		const cpu = (name) => statsOf(result, name)?.cpuMicrosPerOperation?.median;
		return `${short} CPU per request: kitgate ${fmtMicros(cpu('kitgate'))}, bare SvelteKit ${fmtMicros(cpu('bare'))}.`;
	}
	const result = report.scenarios.find((r) => r.id === target.id);
	const cpu = (name) => statsOf(result, name)?.cpuMicrosPerOperation?.median;
	const k = cpu('kitgate');
	const b = cpu('bare');
	const extra = k !== undefined && b !== undefined ? ` kitgate spends ${fmtMicros(k)} of server CPU per ${target.id === 'sign-in' ? 'sign-in' : 'request'} against bare's ${fmtMicros(b)}: ${fmtMicros(k - b)} is kitgate's own work on top of Express.` : '';
	const floor = target.id === 'sign-in' ? floorNote(report) : null;
	return `${short}${extra}${floor ? ` ${floor}` : ''}`;
}

/** The measuring build without cryptography against the real one and bare, from this run's sign-ins; null when it did not run. */
function floorNote(report) {
	const result = report.scenarios.find((r) => r.id === 'sign-in');
	const floor = statsOf(result, FLOOR_APP);
	const kitgate = statsOf(result, 'kitgate');
	const bare = statsOf(result, 'bare');
	if (!floor?.rate || !kitgate?.rate || !bare?.rate) return null;
	const cpu = (stat) => stat.cpuMicrosPerOperation.median;
	const cost = cpu(kitgate) - cpu(floor);
	return (
		`A measuring build of kitgate with the CSRF cookie's HMAC and the session token's encryption replaced by constants (\`bench/crypto-floor.js\`; it accepts forged cookies and is never shipped) ran in the same rounds: ` +
		`${fmtRate(floor.rate)} sign-ins/s, ${fmtMicros(cpu(floor))} of CPU per sign-in, ${fmtRatio(ratioOf(result, FLOOR_APP, 'bare'))} bare (the real build ${fmtRatio(ratioOf(result, 'kitgate', 'bare'))}). ` +
		`That cryptography costs ${fmtMicros(cost)} per sign-in, ${((cost / cpu(bare)) * 100).toFixed(0)}% of bare's whole sign-in (${fmtMicros(cpu(bare))}): with it, 0.9× bare needs the rest of kitgate's sign-in to cost ${fmtMicros(cpu(bare) / 0.9 - cost)} or less, against bare Express's ${fmtMicros(cpu(bare))} for its cookie compare and redirect.`
	);
}

/** Re-renders RESULTS.md from results.json, re-reading the kept CPU profiles: no load is generated. */
async function reportOnly() {
	const report = JSON.parse(readFileSync(join(BENCH_DIR, 'results.json'), 'utf8'));
	const { summariseProfile } = await import('./profile.js');
	for (const [id, profile] of Object.entries(report.profiles ?? {})) {
		if (profile.file && existsSync(join(ROOT, profile.file))) report.profiles[id] = { file: profile.file, ...summariseProfile(join(ROOT, profile.file)) };
	}
	const markdown = `${renderMarkdown(report)}\n## Multi-server load\n\nTwo Express processes sharing one PostgreSQL: see [MULTI-SERVER.md](MULTI-SERVER.md) (\`npm run bench:multi\`).\n`;
	writeFileSync(join(BENCH_DIR, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
	writeFileSync(join(BENCH_DIR, 'RESULTS.md'), markdown);
	process.stdout.write(markdown);
}

(flag('report-only') ? reportOnly() : main()).then(
	() => process.exit(0),
	(error) => {
		say(`failed: ${error.stack ?? error}`);
		process.exit(1); // the exit handler kills the children and removes temporary data
	}
);
