#!/usr/bin/env node
// Load without loss on two servers: two Express processes sharing one PostgreSQL (database
// sessions, shared rate limits) behind one public URL, driven by concurrent credentials and OIDC
// sign-ins, session checks, sign-outs and "sign out everywhere" spread over both. Run once with
// rate limits in PostgreSQL, once with rate limits, revocations and session copies in one Redis.
// `node bench/multi-server.js [--quick] [--store postgres|redis|both]`.
// Loopback only, a fixed amount of work and a hard time limit. Writes bench/MULTI-SERVER.md.

import { fork, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createClient } from 'redis';
import { startPostgres } from './postgres.js';
import { startRedis } from './redis-server.js';
import { startDemoIdp } from '../scripts/demo-idp.js';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(BENCH_DIR);
/** The public URL of the app, as a load balancer in front of both servers would have it. */
const PUBLIC_URL = 'http://localhost:8080';
const PASSWORD = 'correct horse battery staple';
const CLIENT = { client_id: 'kitgate-multi', client_secret: 'kitgate-multi-secret-kitgate-multi' };

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const option = (name, fallback) => {
	const index = argv.indexOf(`--${name}`);
	return index >= 0 ? Number(argv[index + 1]) : fallback;
};
const STORE = argv.includes('--store') ? argv[argv.indexOf('--store') + 1] : 'both';
if (!['postgres', 'redis', 'both'].includes(STORE)) {
	console.error(`--store must be postgres, redis or both (got ${STORE})`);
	process.exit(2);
}
/** The configurations, one run each (fresh schema, fresh servers), in this order. */
const CONFIGURATIONS = {
	postgres: {
		store: 'postgres',
		title: 'PostgreSQL only',
		about: 'rate limits in `SqlRateLimitStore` on the same database, no session copies: every session check reads PostgreSQL'
	},
	redis: {
		store: 'redis',
		title: 'PostgreSQL + Redis',
		about:
			'rate limits and revocations in `RedisRateLimitStore`, copies of the database sessions in `RedisSessionCacheStore` (`session.cache.maxAge` 60 s), both on one throwaway redis-server; users, accounts and sessions still in PostgreSQL'
	}
};
const RUNS = STORE === 'both' ? ['postgres', 'redis'] : [STORE];
const PLAN = {
	credentialsUsers: option('credentials', QUICK ? 120 : 400),
	oidcUsers: option('oidc', QUICK ? 30 : 100),
	/** Identities whose first sign-in runs on both servers at the same moment. */
	racingIdentities: QUICK ? 10 : 25,
	wrongPasswords: QUICK ? 20 : 60,
	/** Credentials users with two sessions (one per server) ended by `revokeSessions` ("sign out everywhere"). */
	revokedUsers: QUICK ? 20 : 50,
	/** Wrong passwords for one identifier sent at the same moment, half to each server. */
	burst: 12,
	checksPerSession: 8,
	concurrency: option('concurrency', 32),
	/** Each configuration's run stops after this, done or not. */
	timeLimitMs: (QUICK ? 3 : 8) * 60_000
};

const say = (...parts) => console.error('[multi]', ...parts);

// ---------------------------------------------------------------------------------------------
// Clean-up on every way out

const children = new Set();
const exitTasks = [];
function cleanUp() {
	for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
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
		cleanUp();
		process.exit(130);
	});
}

// ---------------------------------------------------------------------------------------------
// kitgate's dist/ (the apps import `kitgate/*` through the package's exports)

function newestMtime(path) {
	const stat = statSync(path);
	if (!stat.isDirectory()) return stat.mtimeMs;
	let newest = stat.mtimeMs;
	for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
	return newest;
}

async function ensureDist() {
	const marker = join(ROOT, 'dist', 'server', 'adapters', 'rate-limit-store.js');
	if (existsSync(marker) && statSync(marker).mtimeMs >= newestMtime(join(ROOT, 'src', 'lib'))) return 'dist/ was up to date';
	for (let attempt = 1; attempt <= 5; attempt++) {
		say(`building dist/ with svelte-package (attempt ${attempt})…`);
		const status = await new Promise((resolve) => {
			const child = spawn('npx', ['svelte-package'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
			child.on('close', resolve);
		});
		if (status === 0) return `dist/ rebuilt with svelte-package (attempt ${attempt})`;
		await sleep(30_000);
	}
	if (existsSync(marker)) return 'svelte-package kept failing; ran on the existing dist/';
	throw new Error('svelte-package kept failing and dist/ has no rate-limit store');
}

// ---------------------------------------------------------------------------------------------
// The two servers

function startServer(name, env) {
	const child = fork(join(BENCH_DIR, 'apps', 'multi.js'), [], {
		cwd: ROOT,
		env: { ...process.env, NODE_ENV: 'production', AUTH_URL: PUBLIC_URL, BENCH_SERVER_NAME: name, BENCH_PASSWORD: PASSWORD, ...env },
		stdio: ['ignore', 'pipe', 'pipe', 'ipc']
	});
	children.add(child);
	let output = '';
	const keep = (chunk) => {
		output = (output + chunk).slice(-8000);
	};
	child.stdout.on('data', keep);
	child.stderr.on('data', keep);
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`server ${name} did not start within 60 s:\n${output}`)), 60_000);
		child.once('exit', (code) => reject(new Error(`server ${name} exited (code ${code}):\n${output}`)));
		child.on('message', (message) => {
			if (message?.type !== 'ready') return;
			clearTimeout(timer);
			resolve({ name, child, base: `http://127.0.0.1:${message.port}`, output: () => output });
		});
	});
}

async function stopServer(server) {
	if (server.child.exitCode !== null) return;
	const exited = new Promise((resolve) => server.child.once('exit', resolve));
	server.child.kill('SIGTERM');
	await Promise.race([exited, sleep(5000).then(() => server.child.kill('SIGKILL'))]);
}

// ---------------------------------------------------------------------------------------------
// A browser: cookie jar, one client address, requests to whichever server it is told

/** What one configuration's run measured; `freshState()` starts the next one from zero. */
let stats;
let outcome;

function record(kind, started, status) {
	stats.requests++;
	stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
	const list = stats.latencies.get(kind) ?? [];
	list.push(performance.now() - started);
	stats.latencies.set(kind, list);
}

class Browser {
	constructor(servers, address) {
		this.servers = servers;
		this.address = address;
		this.jar = new Map();
	}

	cookie() {
		return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
	}

	keep(response) {
		for (const line of response.headers.getSetCookie()) {
			const pair = line.split(';')[0];
			const name = pair.slice(0, pair.indexOf('='));
			const value = pair.slice(pair.indexOf('=') + 1);
			if (!value || /max-age=0/i.test(line)) this.jar.delete(name);
			else this.jar.set(name, value);
		}
	}

	/** A request to `server` (index) for `path` (or a public URL, mapped onto that server). */
	async request(kind, server, path, init = {}) {
		const url = path.startsWith(PUBLIC_URL) ? path.slice(PUBLIC_URL.length) : path;
		const started = performance.now();
		const response = await fetch(`${this.servers[server].base}${url}`, {
			...init,
			redirect: 'manual',
			// x-bench-kind: the app counts its database session reads per kind of request
			headers: { cookie: this.cookie(), 'x-forwarded-for': this.address, 'x-bench-kind': kind, ...init.headers }
		});
		record(kind, started, response.status);
		if (response.status >= 500) stats.fiveXX.push(`${kind} on ${this.servers[server].name}: ${response.status} ${(await response.clone().text()).slice(0, 200)}`);
		this.keep(response);
		return response;
	}

	async csrf(server) {
		const response = await this.request('csrf', server, '/auth/csrf');
		return (await response.json()).csrfToken;
	}

	async post(kind, server, path, fields) {
		return this.request(kind, server, path, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(fields)
		});
	}

	hasSession() {
		return this.jar.has('kitgate.session-token');
	}
}

const errorOf = (response) => {
	const location = response.headers.get('location');
	return location ? new URL(location, PUBLIC_URL).searchParams.get('error') : null;
};

// ---------------------------------------------------------------------------------------------
// The flows

function freshState() {
	stats = { requests: 0, byStatus: new Map(), fiveXX: [], latencies: new Map() };
	outcome = {
		credentialsOk: 0,
		credentialsFailedCleanly: 0,
		wrongPasswordRefused: 0,
		oidcOk: 0,
		oidcFailedCleanly: 0,
		raceSignIns: 0,
		checks: 0,
		crossServerChecks: 0,
		signOuts: 0,
		checksAfterSignOut: 0,
		/** The first 50 problems, for the report; all are counted. */
		problems: [],
		problemCount: 0,
		checksFailed: 0,
		signOutReplaysFailed: 0,
		revokeReplaysFailed: 0,
		/** Who signed in successfully at least once (for the expected row counts). */
		credentialUsers: new Set(),
		oidcIdentities: new Set(),
		sessionsCreated: 0,
		sessionsEnded: 0,
		rateLimitShared: null,
		rateLimitBurst: null,
		revokedUsers: 0,
		checksAfterRevoke: 0,
		/** Sessions whose last read before the revocation was answered from a copy (no database query). */
		copiesBeforeRevoke: 0
	};
}

const problem = (text) => {
	outcome.problemCount++;
	if (outcome.problems.length < 50) outcome.problems.push(text);
};

let addressCounter = 0;
const nextAddress = () => {
	const n = ++addressCounter;
	return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/** After a sign-in: checks on both servers, then (every other user) sign-out on one and checks on both. */
async function useSession(browser, who, signOutToo) {
	for (let i = 0; i < PLAN.checksPerSession; i++) {
		const server = i % 2;
		const response = i % 4 < 2 ? await browser.request('session check', server, '/auth/session') : await browser.request('getSession', server, '/protected');
		const body = await response.json().catch(() => null);
		outcome.checks++;
		if (server === 1) outcome.crossServerChecks++;
		if (body?.user?.name !== who) {
			outcome.checksFailed++;
			problem(`${who}: check ${i} on server ${server} gave ${response.status} ${JSON.stringify(body).slice(0, 120)}`);
		}
	}
	if (!signOutToo) return;
	const from = Math.round(Math.random());
	const csrfToken = await browser.csrf(from);
	const out = await browser.post('sign-out', from, '/auth/signout', { csrfToken, callbackUrl: '/' });
	if (out.status !== 302 || browser.hasSession()) return problem(`${who}: sign-out on server ${from} answered ${out.status}`);
	outcome.signOuts++;
	outcome.sessionsEnded++;
	// the old cookie, replayed on both servers, is no session anywhere (a jar per server: the first
	// answer clears the cookie, and the second server must still be asked with it)
	for (const server of [0, 1]) {
		const replay = new Browser(browser.servers, browser.address);
		replay.jar.set('kitgate.session-token', browser.lastSessionToken);
		const body = await (await replay.request('old cookie check', server, '/auth/session')).json().catch(() => 'unreadable');
		outcome.checksAfterSignOut++;
		if (body !== null) {
			outcome.signOutReplaysFailed++;
			problem(`${who}: signed out on ${from}, but server ${server} still answered ${JSON.stringify(body).slice(0, 120)}`);
		}
	}
}

/** A credentials sign-in of `who`, CSRF token from server `first`, form posted to the other one; the browser, or null. */
async function credentialsSignIn(servers, who, first) {
	const browser = new Browser(servers, nextAddress());
	const csrfToken = await browser.csrf(first);
	// the form is posted to the other server than the one that gave the CSRF token
	const response = await browser.post('credentials sign-in', 1 - first, '/auth/callback/credentials', { csrfToken, username: who, password: PASSWORD, callbackUrl: '/protected' });
	if (response.status === 302 && browser.hasSession()) {
		outcome.credentialsOk++;
		outcome.credentialUsers.add(who);
		outcome.sessionsCreated++;
		browser.lastSessionToken = browser.jar.get('kitgate.session-token');
		return browser;
	}
	if (response.status === 302 && !browser.hasSession()) outcome.credentialsFailedCleanly++;
	problem(`${who}: sign-in answered ${response.status} ${errorOf(response) ?? ''}`);
	return null;
}

async function credentialsFlow(servers, index) {
	const who = `cred-${String(index).padStart(4, '0')}`;
	const browser = await credentialsSignIn(servers, who, index % 2);
	if (browser) await useSession(browser, who, index % 2 === 0);
}

/**
 * "Sign out everywhere": a user signs in on both servers (two sessions), reads each on both (so a
 * copy is kept, where there are copies), then `revokeSessions` runs on one server: both old cookies
 * must be no session on either server from the next request on.
 */
async function revokeFlow(servers, index) {
	const who = `cred-${5000 + index}`;
	const browsers = [];
	for (const first of [index % 2, 1 - (index % 2)]) {
		const browser = await credentialsSignIn(servers, who, first);
		if (!browser) return;
		browsers.push(browser);
	}
	for (const browser of browsers) {
		let lastReads;
		for (const server of [0, 1]) {
			const response = await browser.request('getSession', server, '/protected');
			const body = await response.json().catch(() => null);
			outcome.checks++;
			if (server === 1) outcome.crossServerChecks++;
			if (body?.user?.name !== who) {
				outcome.checksFailed++;
				problem(`${who}: check before the revocation on server ${server} gave ${response.status} ${JSON.stringify(body).slice(0, 120)}`);
			}
			lastReads = body?.sessionReads;
		}
		if (lastReads === 0) outcome.copiesBeforeRevoke++;
	}
	const from = index % 2;
	// as an admin action of the app would: not with the user's own cookies
	const admin = new Browser(servers, nextAddress());
	const revoked = await admin.request('revoke', from, '/__bench/revoke', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email: `${who}@multi.example` })
	});
	if (revoked.status !== 204) return problem(`${who}: revokeSessions on server ${from} answered ${revoked.status}`);
	outcome.revokedUsers++;
	outcome.sessionsEnded += browsers.length;
	// each old cookie, on both servers and through both kinds of read, is no session
	for (const [n, browser] of browsers.entries()) {
		for (const server of [0, 1]) {
			for (const path of ['/auth/session', '/protected']) {
				const replay = new Browser(servers, browser.address);
				replay.jar.set('kitgate.session-token', browser.lastSessionToken);
				const response = await replay.request('old cookie check', server, path);
				const body = await response.json().catch(() => 'unreadable');
				outcome.checksAfterRevoke++;
				const ended = path === '/auth/session' ? body === null : response.status === 401;
				if (!ended) {
					outcome.revokeReplaysFailed++;
					problem(`${who}: revoked everywhere on ${from}, but session ${n + 1} on server ${server} (${path}) answered ${response.status} ${JSON.stringify(body).slice(0, 120)}`);
				}
			}
		}
	}
}

async function wrongPasswordFlow(servers, index) {
	const browser = new Browser(servers, nextAddress());
	const csrfToken = await browser.csrf(index % 2);
	const response = await browser.post('wrong password', 1 - (index % 2), '/auth/callback/credentials', { csrfToken, username: `cred-wrong-${index}`, password: 'nope' });
	if (response.status === 302 && errorOf(response) === 'CredentialsSignin' && !browser.hasSession()) outcome.wrongPasswordRefused++;
	else problem(`wrong password ${index}: ${response.status} ${errorOf(response)}`);
}

/** Walks the IdP's login and consent forms as `login`; returns the callback URL it redirects to. */
async function loginAtIdp(authorizationUrl, login) {
	const jar = new Map();
	const idpOrigin = new URL(authorizationUrl).origin;
	let url = authorizationUrl;
	let form;
	for (let step = 0; step < 20; step++) {
		const response = await fetch(url, {
			method: form ? 'POST' : 'GET',
			redirect: 'manual',
			headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
			body: form ? new URLSearchParams(form) : undefined
		});
		for (const line of response.headers.getSetCookie()) {
			const pair = line.split(';')[0];
			const value = pair.slice(pair.indexOf('=') + 1);
			if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(pair.slice(0, pair.indexOf('=')));
			else jar.set(pair.slice(0, pair.indexOf('=')), value);
		}
		form = undefined;
		const location = response.headers.get('location');
		if (response.status >= 300 && response.status < 400 && location) {
			const next = new URL(location, url);
			if (next.origin !== idpOrigin) return next.href;
			url = next.href;
			continue;
		}
		const html = await response.text();
		const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
		const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
		if (response.status !== 200 || !action || !prompt) throw new Error(`IdP answered ${response.status} at ${url}: ${html.slice(0, 200)}`);
		url = new URL(action.replaceAll('&amp;', '&'), url).href;
		form = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
	}
	throw new Error('the IdP did not redirect back within 20 steps');
}

/** An OIDC sign-in started on one server and completed on `finish` (default: the other one). */
async function oidcSignIn(servers, login, start, finish = 1 - start) {
	const browser = new Browser(servers, nextAddress());
	const csrfToken = await browser.csrf(start);
	const started = await browser.post('OIDC start', start, '/auth/signin/idp', { csrfToken, callbackUrl: '/protected' });
	const authorization = started.headers.get('location');
	if (started.status !== 302 || !authorization?.includes('/auth?')) {
		problem(`${login}: OIDC start answered ${started.status} ${authorization}`);
		return { browser, ok: false };
	}
	const callback = await loginAtIdp(authorization, login);
	const done = await browser.request('OIDC callback', finish, callback);
	const ok = done.status === 302 && browser.hasSession();
	if (!ok) {
		if (done.status === 302) outcome.oidcFailedCleanly++;
		problem(`${login}: OIDC callback on server ${finish} answered ${done.status} ${errorOf(done) ?? ''}`);
	}
	browser.lastSessionToken = browser.jar.get('kitgate.session-token');
	return { browser, ok };
}

async function oidcFlow(servers, index) {
	const login = `oidc-${String(index).padStart(4, '0')}`;
	const { browser, ok } = await oidcSignIn(servers, login, index % 2);
	if (!ok) return;
	outcome.oidcOk++;
	outcome.oidcIdentities.add(login);
	outcome.sessionsCreated++;
	return useSession(browser, login, index % 2 === 1);
}

/** The first sign-in of one identity on both servers at the same moment: one user, one account, two sessions. */
async function raceFlow(servers, index) {
	const login = `race-${String(index).padStart(4, '0')}`;
	const results = await Promise.all([oidcSignIn(servers, login, 0, 0), oidcSignIn(servers, login, 1, 1)]);
	for (const { ok } of results) {
		if (!ok) continue;
		outcome.raceSignIns++;
		outcome.sessionsCreated++;
		outcome.oidcIdentities.add(login);
	}
}

/** One credentials attempt for `who` on `server`, from an address of its own; the `error` it answered. */
async function attempt(servers, server, who, password, kind) {
	const browser = new Browser(servers, nextAddress());
	const csrfToken = await browser.csrf(server);
	const response = await browser.post(kind, server, '/auth/callback/credentials', { csrfToken, username: who, password });
	return browser.hasSession() ? 'a session' : errorOf(response);
}

/** Five wrong passwords for one identifier, alternating servers, are refused as such: the sixth try is RateLimited on both. */
async function sharedRateLimit(servers) {
	const who = 'cred-9999';
	const first = [];
	for (let i = 0; i < 5; i++) first.push(await attempt(servers, i % 2, who, 'nope', 'wrong password'));
	// the right password now: a limit that let it through would also forget the failures
	const sixth = [];
	for (const server of [0, 1]) sixth.push(await attempt(servers, server, who, PASSWORD, 'rate-limited'));
	outcome.rateLimitShared = first.every((answer) => answer === 'CredentialsSignin') && sixth.every((answer) => answer === 'RateLimited');
	if (!outcome.rateLimitShared) problem(`shared rate limit: the five wrong passwords answered ${first.join(', ')}; the sixth attempts ${sixth.join(', ')}`);
}

/** PLAN.burst wrong passwords for one identifier at the same moment, half on each server: exactly 5 get through to the password check. */
async function rateLimitBurst(servers) {
	const who = 'cred-9998';
	// CSRF tokens first, so the posts leave together
	const browsers = await Promise.all(
		Array.from({ length: PLAN.burst }, async (_, i) => {
			const browser = new Browser(servers, nextAddress());
			return { browser, server: i % 2, csrfToken: await browser.csrf(i % 2) };
		})
	);
	const answers = await Promise.all(
		browsers.map(async ({ browser, server, csrfToken }) => {
			const response = await browser.post('burst wrong password', server, '/auth/callback/credentials', { csrfToken, username: who, password: 'nope' });
			return browser.hasSession() ? 'a session' : errorOf(response);
		})
	);
	const refused = answers.filter((answer) => answer === 'CredentialsSignin').length;
	const limited = answers.filter((answer) => answer === 'RateLimited').length;
	outcome.rateLimitBurst = { refused, limited };
	if (refused !== 5 || limited !== PLAN.burst - 5) problem(`rate-limit burst: ${PLAN.burst} simultaneous wrong passwords answered ${answers.join(', ')}`);
}

/** Runs `tasks` (functions) with at most `limit` at a time. */
async function pool(tasks, limit) {
	let next = 0;
	const worker = async () => {
		while (next < tasks.length) {
			const task = tasks[next++];
			try {
				await task();
			} catch (error) {
				problem(`a flow threw: ${error instanceof Error ? error.message : error}`);
			}
		}
	};
	await Promise.all(Array.from({ length: limit }, worker));
}

function shuffle(list) {
	for (let i = list.length - 1; i > 0; i--) {
		const j = Math.floor(Math.random() * (i + 1));
		[list[i], list[j]] = [list[j], list[i]];
	}
	return list;
}

// ---------------------------------------------------------------------------------------------
// Report

function percentile(sorted, p) {
	if (sorted.length === 0) return 0;
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ms = (value) => `${value.toFixed(1)} ms`;
const check = (ok) => (ok ? '✅' : '❌');

/** What the plan asks for, counted from PLAN alone (not from what happened). */
function planned() {
	return {
		credentialsSignIns: PLAN.credentialsUsers + 2 * PLAN.revokedUsers,
		signOuts: Math.ceil(PLAN.credentialsUsers / 2) + Math.floor(PLAN.oidcUsers / 2),
		checks: (PLAN.credentialsUsers + PLAN.oidcUsers) * PLAN.checksPerSession + PLAN.revokedUsers * 4,
		checksAfterRevoke: PLAN.revokedUsers * 8
	};
}

/** The checks table of one configuration: [what, expected, measured, ok]. */
function checkRows(configuration, { rows, expected }) {
	const plan = planned();
	const checksSeen = outcome.checks - outcome.checksFailed;
	const afterSignOut = outcome.checksAfterSignOut - outcome.signOutReplaysFailed;
	const afterRevoke = outcome.checksAfterRevoke - outcome.revokeReplaysFailed;
	const burst = outcome.rateLimitBurst ?? { refused: '–', limited: '–' };
	const list = [
		['responses with status ≥ 500', 0, stats.fiveXX.length],
		['credentials sign-ins that set a session', plan.credentialsSignIns, outcome.credentialsOk],
		['OIDC sign-ins (start on one server, callback on the other)', PLAN.oidcUsers, outcome.oidcOk],
		['racing first sign-ins that set a session', PLAN.racingIdentities * 2, outcome.raceSignIns],
		['wrong passwords refused cleanly (302 `CredentialsSignin`, no session)', PLAN.wrongPasswords, outcome.wrongPasswordRefused],
		['flows that neither succeeded nor failed cleanly', 0, outcome.problemCount],
		['session checks that saw the signed-in user (half on the other server)', plan.checks, checksSeen],
		[`sign-outs on one server, then the old cookie is no session on either server (${plan.signOuts} × 2)`, plan.signOuts * 2, afterSignOut],
		[
			`"sign out everywhere" (\`revokeSessions\` on one server) of users with a session on each server, then both old cookies are no session on either server, through \`GET /auth/session\` and \`getSession\` (${PLAN.revokedUsers} × 8)`,
			plan.checksAfterRevoke,
			afterRevoke
		]
	];
	if (configuration.store === 'redis') {
		list.push([
			`of those sessions, read just before the revocation from their copy in Redis (no database query) (${PLAN.revokedUsers} × 2)`,
			PLAN.revokedUsers * 2,
			outcome.copiesBeforeRevoke
		]);
	}
	list.push(
		['5 wrong passwords split over both servers are refused as such, then the 6th attempt (right password) is `RateLimited` on both', 'yes', outcome.rateLimitShared ? 'yes' : 'no'],
		[`${PLAN.burst} wrong passwords for one identifier at the same moment, half per server: \`CredentialsSignin\` / \`RateLimited\``, `5 / ${PLAN.burst - 5}`, `${burst.refused} / ${burst.limited}`],
		['users rows', expected.users, rows.users],
		['accounts rows (OIDC identities, and a `credentials` account per credentials user)', expected.accounts, rows.accounts],
		['sessions rows (sign-ins − sign-outs − revoked sessions)', expected.sessions, rows.sessions]
	);
	return list.map(([what, wanted, measured]) => ({ what, wanted, measured, ok: wanted === measured }));
}

/** Database session reads of the session checks, as the apps counted them (`getSessionAndUser` calls per request kind). */
function readRows(reads) {
	return ['session check', 'getSession', 'old cookie check'].map((kind) => {
		const { requests = 0, sessionReads = 0 } = reads[kind] ?? {};
		const without = requests - sessionReads;
		return `| ${kind} | ${requests} | ${sessionReads} | ${without} (${requests ? Math.round((100 * without) / requests) : 0} %) |`;
	});
}

function latencyRows() {
	return [...stats.latencies]
		.sort((a, b) => b[1].length - a[1].length)
		.map(([kind, list]) => {
			const sorted = [...list].sort((a, b) => a - b);
			return `| ${kind} | ${list.length} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 95))} | ${ms(percentile(sorted, 99))} | ${ms(sorted.at(-1) ?? 0)} |`;
		});
}

const p50Of = (kind) => percentile([...(stats.latencies.get(kind) ?? [])].sort((a, b) => a - b), 50);

/** One configuration's section of MULTI-SERVER.md, whether it failed, and its line of the summary. */
function reportSection(configuration, { durationMs, rows, expected, cpu, reads, redisKeys }) {
	const checks = checkRows(configuration, { rows, expected });
	const statusRows = [...stats.byStatus].sort((a, b) => a[0] - b[0]).map(([status, count]) => `${status} × ${count}`).join(', ');
	const signIns = outcome.credentialsOk + outcome.oidcOk + outcome.raceSignIns;
	const seconds = durationMs / 1000;
	const sessionReads = ['session check', 'getSession'].map((kind) => reads[kind] ?? { requests: 0, sessionReads: 0 });
	const readRequests = sessionReads.reduce((sum, r) => sum + r.requests, 0);
	const withoutQuery = readRequests - sessionReads.reduce((sum, r) => sum + r.sessionReads, 0);
	const lines = [
		`## ${configuration.title}`,
		'',
		`Both servers: ${configuration.about}.`,
		'',
		'| check | expected | measured | |',
		'|---|---|---|---|',
		...checks.map((c) => `| ${c.what} | ${c.wanted} | ${c.measured} | ${check(c.ok)} |`),
		'',
		`${stats.requests} requests in ${seconds.toFixed(1)} s (${Math.round(stats.requests / seconds)} requests/s, ${(signIns / seconds).toFixed(1)} sign-ins/s including the IdP round trips); statuses: ${statusRows}. Server CPU over the run: ${cpu.map((c) => `${c.name} ${(c.cpuMs / 1000).toFixed(1)} s`).join(', ')}.${redisKeys ? ` Redis at the end: ${redisKeys.copies} session copies, ${redisKeys.counters} rate-limit counters, ${redisKeys.revocations} revocation records.` : ''}`,
		'',
		'### Database reads of the session checks',
		'',
		'As the two apps counted them: calls of the adapter\'s `getSessionAndUser` made while answering each kind of request (tagged by the load client). `old cookie check`: the cookies replayed after a sign-out or revocation.',
		'',
		'| request | requests | `getSessionAndUser` queries | answered without one |',
		'|---|---|---|---|',
		...readRows(reads),
		'',
		'### Latency per request kind',
		'',
		'| request | count | p50 | p95 | p99 | max |',
		'|---|---|---|---|---|---|',
		...latencyRows(),
		''
	];
	if (outcome.problemCount || stats.fiveXX.length) {
		const more = outcome.problemCount - outcome.problems.length;
		lines.push('### Problems', '', ...[...stats.fiveXX, ...outcome.problems].slice(0, 50).map((p) => `- ${p}`), ...(more > 0 ? [`- … and ${more} more`] : []), '');
	}
	const passed = checks.filter((c) => c.ok).length;
	const summary = `| ${configuration.title} | ${passed} of ${checks.length} ${check(passed === checks.length)} | ${Math.round(stats.requests / seconds)} | ${ms(p50Of('session check'))} | ${ms(p50Of('getSession'))} | ${withoutQuery} of ${readRequests} |`;
	return { markdown: lines.join('\n'), failed: passed !== checks.length, summary };
}

/** The whole file: what was run, a summary line per configuration, then each configuration's section. */
function report({ distNote, source, results }) {
	return [
		'# Multi-server load (two Express processes, one PostgreSQL, with and without Redis)',
		'',
		`Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`node bench/multi-server.js${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}\`; ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end; PostgreSQL: ${source}; ${distNote}.`,
		'',
		'Each configuration runs on its own: a fresh schema, two fresh processes of `bench/apps/multi.js` (Express 5, `ExpressAuth`, database sessions on `kitgate/adapters/postgres`, `AUTH_URL` set to one public URL as behind a load balancer) and, for Redis, a fresh redis-server; the local OIDC provider (`scripts/demo-idp.js`) serves both. The load client (this script, `fetch`) runs',
		`${PLAN.concurrency} virtual users at a time over a fixed plan: ${PLAN.credentialsUsers} credentials users (CSRF token from one server, form posted to the other), ${PLAN.oidcUsers} OIDC users (started on one server, finished on the other), ${PLAN.racingIdentities} OIDC identities whose first sign-in runs on both servers at once, ${PLAN.wrongPasswords} wrong passwords, ${PLAN.revokedUsers} credentials users who sign in on both servers and are then signed out everywhere (\`revokeSessions\`, through an internal loopback-only route of the app); after each sign-in ${PLAN.checksPerSession} session checks alternating between the servers (\`GET /auth/session\` and \`getSession\` on \`/protected\`), and every other user signs out on one server and replays the old cookie on both. Then the rate limit (5 failures per identifier) is tested across both servers, one attempt after another and in a burst.`,
		'',
		'| configuration | checks | requests/s | session check p50 | getSession p50 | session checks answered without a database query |',
		'|---|---|---|---|---|---|',
		...results.map((r) => r.summary),
		'',
		'Numbers are noisy (2 cores shared with the client, the IdP, PostgreSQL and Redis, and at times other work), and the configurations run one after the other, not side by side: compare their requests/s and latencies with care (requests Redis does not touch, such as the OIDC start, differ between them too). The checks are exact. Wrong passwords take at least 300 ms by design (`minFailureMs`, so unknown users and wrong passwords answer alike).',
		'',
		...results.map((r) => r.markdown)
	].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main

/** Counts the keys the Redis stores left, by kind (prefix `kitgate-multi:`, see apps/multi.js). */
async function countRedisKeys(url) {
	const client = await createClient({ url }).connect();
	try {
		const count = async (pattern) => (await client.keys(pattern)).length;
		return { copies: await count('kitgate-multi:{session-cache}:copy:*'), counters: await count('kitgate-multi:rate:*'), revocations: await count('kitgate-multi:revoked:*') };
	} finally {
		await client.quit();
	}
}

/** Runs the plan against one configuration; resolves to its report section (and whether it ran out of time). */
async function runConfiguration(configuration, { database, schemaBase, idp }) {
	freshState();
	const schema = `${schemaBase}_${configuration.store}`;
	const redis = configuration.store === 'redis' ? await startRedis() : undefined;
	if (redis) exitTasks.push(redis.stop);
	say(`${configuration.title}: schema ${schema}${redis ? `, redis-server ${redis.url} (pid ${redis.pid})` : ''}`);
	const env = {
		BENCH_DATABASE_URL: database.url,
		BENCH_PG_SCHEMA: schema,
		BENCH_ISSUER: idp.issuer,
		BENCH_CLIENT_ID: CLIENT.client_id,
		BENCH_CLIENT_SECRET: CLIENT.client_secret,
		BENCH_STORE: configuration.store,
		...(redis ? { BENCH_REDIS_URL: redis.url } : {})
	};
	const servers = await Promise.all([startServer('A', env), startServer('B', env)]);
	say(`servers: ${servers.map((s) => `${s.name} ${s.base}`).join(', ')}; IdP ${idp.issuer}`);
	const cpuBefore = await Promise.all(servers.map(async (s) => (await fetch(`${s.base}/__bench/cpu`)).json()));
	const started = performance.now();

	async function finish() {
		const durationMs = performance.now() - started;
		const cpuAfter = await Promise.all(servers.map(async (s) => (await fetch(`${s.base}/__bench/cpu`)).json())).catch(() => cpuBefore);
		const cpu = servers.map((s, i) => ({ name: s.name, cpuMs: (cpuAfter[i].user + cpuAfter[i].system - cpuBefore[i].user - cpuBefore[i].system) / 1000 }));
		const reads = sumReads(await Promise.all(servers.map(async (s) => (await fetch(`${s.base}/__bench/reads`)).json())).catch(() => []));
		const redisKeys = redis ? await countRedisKeys(redis.url).catch(() => undefined) : undefined;
		const client = new pg.Client({ connectionString: database.url });
		await client.connect();
		const count = async (table) => Number((await client.query(`select count(*) as n from "${schema}".${table}`)).rows[0].n);
		const rows = { users: await count('users'), accounts: await count('accounts'), sessions: await count('sessions') };
		const expected = {
			users: outcome.credentialUsers.size + outcome.oidcIdentities.size,
			// a database session's credentials user is found by its `credentials` account (flows/credentials/stored-user.ts)
			accounts: outcome.credentialUsers.size + outcome.oidcIdentities.size,
			sessions: outcome.sessionsCreated - outcome.sessionsEnded
		};
		await Promise.all(servers.map(stopServer));
		// a fresh schema for the next configuration; with DATABASE_URL, nothing left behind
		await client.query(`drop schema if exists "${schema}" cascade`);
		await client.end();
		redis?.stop();
		return reportSection(configuration, { durationMs, rows, expected, cpu, reads, redisKeys });
	}

	const tasks = shuffle([
		...Array.from({ length: PLAN.credentialsUsers }, (_, i) => () => credentialsFlow(servers, i)),
		...Array.from({ length: PLAN.oidcUsers }, (_, i) => () => oidcFlow(servers, i)),
		...Array.from({ length: PLAN.racingIdentities }, (_, i) => () => raceFlow(servers, i)),
		...Array.from({ length: PLAN.wrongPasswords }, (_, i) => () => wrongPasswordFlow(servers, i)),
		...Array.from({ length: PLAN.revokedUsers }, (_, i) => () => revokeFlow(servers, i))
	]);
	say(`running ${tasks.length} flows, ${PLAN.concurrency} at a time…`);
	const work = (async () => {
		await pool(tasks, PLAN.concurrency);
		await sharedRateLimit(servers);
		await rateLimitBurst(servers);
	})();
	let deadline;
	const timeLimit = new Promise((resolve) => (deadline = setTimeout(resolve, PLAN.timeLimitMs)));
	// over time, the report is made from what was done; flows still running then fail against stopped servers, unreported
	const timedOut = await Promise.race([
		work.then(
			() => false,
			(error) => {
				problem(`the rate-limit checks threw: ${error instanceof Error ? error.message : error}`);
				return false;
			}
		),
		timeLimit.then(() => true)
	]);
	clearTimeout(deadline);
	if (timedOut) {
		say(`time limit of ${PLAN.timeLimitMs / 1000} s reached: stopping`);
		problem(`the time limit of ${PLAN.timeLimitMs / 1000} s was reached before the plan finished`);
	}
	return { ...(await finish()), timedOut };
}

/** The two servers' read counts, added up per request kind. */
function sumReads(perServer) {
	const total = {};
	for (const reads of perServer) {
		for (const [kind, { requests, sessionReads }] of Object.entries(reads)) {
			total[kind] ??= { requests: 0, sessionReads: 0 };
			total[kind].requests += requests;
			total[kind].sessionReads += sessionReads;
		}
	}
	return total;
}

async function main() {
	const distNote = await ensureDist();
	say(distNote);
	const database = await startPostgres();
	exitTasks.push(database.stop);
	const schemaBase = database.schema === 'public' ? 'kitgate_multi' : `${database.schema}_multi`;
	say(`PostgreSQL: ${database.source}; configurations: ${RUNS.join(', ')}`);
	const idp = await startDemoIdp({ clients: [{ ...CLIENT, redirect_uris: [`${PUBLIC_URL}/auth/callback/idp`] }] });
	exitTasks.push(() => void idp.close());

	const results = [];
	const write = () => {
		const markdown = report({ distNote, source: database.source, results });
		writeFileSync(join(BENCH_DIR, 'MULTI-SERVER.md'), markdown);
		return markdown;
	};
	for (const name of RUNS) {
		const result = await runConfiguration(CONFIGURATIONS[name], { database, schemaBase, idp });
		results.push(result);
		write();
		// over time: the report has what was done; the next configuration is not started
		if (result.timedOut) break;
	}
	linkFromResults();
	console.log(write());
	const failed = results.some((r) => r.failed);
	say(failed ? 'FAILED: see bench/MULTI-SERVER.md' : 'all checks passed; bench/MULTI-SERVER.md written');
	await idp.close();
	// the exit handler stops PostgreSQL; fetch's idle sockets would keep the process alive for a while
	process.exit(failed ? 1 : 0);
}

/** Adds (once) a pointer to MULTI-SERVER.md at the end of RESULTS.md, which the main bench rewrites. */
function linkFromResults() {
	const results = join(BENCH_DIR, 'RESULTS.md');
	if (!existsSync(results)) return;
	const text = readFileSync(results, 'utf8');
	const heading = '## Multi-server load';
	if (text.includes(heading)) return;
	writeFileSync(results, `${text.trimEnd()}\n\n${heading}\n\nTwo Express processes sharing one PostgreSQL, under concurrent credentials and OIDC sign-ins: see [MULTI-SERVER.md](MULTI-SERVER.md) (\`node bench/multi-server.js\`).\n`);
}

main().catch((error) => {
	console.error(error);
	cleanUp();
	process.exit(1);
});
