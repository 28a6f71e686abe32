#!/usr/bin/env node
// Load without loss on two servers: two Express processes sharing one PostgreSQL (database
// sessions, shared rate limits) behind one public URL, driven by concurrent credentials and OIDC
// sign-ins, session checks and sign-outs spread over both. `node bench/multi-server.js [--quick]`.
// Loopback only, a fixed amount of work and a hard time limit. Writes bench/MULTI-SERVER.md.

import { fork, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startPostgres } from './postgres.js';
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
const PLAN = {
	credentialsUsers: option('credentials', QUICK ? 120 : 400),
	oidcUsers: option('oidc', QUICK ? 30 : 100),
	/** Identities whose first sign-in runs on both servers at the same moment. */
	racingIdentities: QUICK ? 10 : 25,
	wrongPasswords: QUICK ? 20 : 60,
	checksPerSession: 8,
	concurrency: option('concurrency', 32),
	/** Everything stops after this, done or not. */
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

const stats = { requests: 0, byStatus: new Map(), fiveXX: [], latencies: new Map() };

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
			headers: { cookie: this.cookie(), 'x-forwarded-for': this.address, ...init.headers }
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

const outcome = {
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
	problems: [],
	/** Who signed in successfully at least once (for the expected row counts). */
	credentialUsers: new Set(),
	oidcIdentities: new Set(),
	sessionsCreated: 0,
	sessionsEnded: 0,
	rateLimitShared: null
};

const problem = (text) => {
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
		if (body?.user?.name !== who) problem(`${who}: check ${i} on server ${server} gave ${response.status} ${JSON.stringify(body).slice(0, 120)}`);
	}
	if (!signOutToo) return;
	const from = Math.round(Math.random());
	const csrfToken = await browser.csrf(from);
	const out = await browser.post('sign-out', from, '/auth/signout', { csrfToken, callbackUrl: '/' });
	if (out.status !== 302 || browser.hasSession()) return problem(`${who}: sign-out on server ${from} answered ${out.status}`);
	outcome.signOuts++;
	outcome.sessionsEnded++;
	// the old cookie, replayed on both servers, is no session anywhere
	const replay = new Browser(browser.servers, browser.address);
	replay.jar.set('kitgate.session-token', browser.lastSessionToken);
	for (const server of [0, 1]) {
		const body = await (await replay.request('session check', server, '/auth/session')).json().catch(() => 'unreadable');
		outcome.checksAfterSignOut++;
		if (body !== null) problem(`${who}: signed out on ${from}, but server ${server} still answered ${JSON.stringify(body).slice(0, 120)}`);
	}
}

async function credentialsFlow(servers, index) {
	const who = `cred-${String(index).padStart(4, '0')}`;
	const browser = new Browser(servers, nextAddress());
	const first = index % 2;
	const csrfToken = await browser.csrf(first);
	// the form is posted to the other server than the one that gave the CSRF token
	const response = await browser.post('credentials sign-in', 1 - first, '/auth/callback/credentials', { csrfToken, username: who, password: PASSWORD, callbackUrl: '/protected' });
	if (response.status === 302 && browser.hasSession()) {
		outcome.credentialsOk++;
		outcome.credentialUsers.add(who);
		outcome.sessionsCreated++;
		browser.lastSessionToken = browser.jar.get('kitgate.session-token');
		return useSession(browser, who, index % 2 === 0);
	}
	if (response.status === 302 && !browser.hasSession()) outcome.credentialsFailedCleanly++;
	problem(`${who}: sign-in answered ${response.status} ${errorOf(response) ?? ''}`);
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

/** Five wrong passwords for one identifier, alternating servers: the sixth try is RateLimited on both. */
async function sharedRateLimit(servers) {
	const who = 'cred-9999';
	for (let i = 0; i < 5; i++) {
		const browser = new Browser(servers, nextAddress());
		const csrfToken = await browser.csrf(i % 2);
		await browser.post('wrong password', i % 2, '/auth/callback/credentials', { csrfToken, username: who, password: 'nope' });
	}
	const answers = [];
	for (const server of [0, 1]) {
		const browser = new Browser(servers, nextAddress());
		const csrfToken = await browser.csrf(server);
		const response = await browser.post('rate-limited', server, '/auth/callback/credentials', { csrfToken, username: who, password: PASSWORD });
		answers.push(errorOf(response));
	}
	outcome.rateLimitShared = answers.every((answer) => answer === 'RateLimited');
	if (!outcome.rateLimitShared) problem(`shared rate limit: the sixth attempts answered ${answers.join(', ')}`);
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

function report({ distNote, source, durationMs, rows, expected, cpu }) {
	const ms = (value) => `${value.toFixed(1)} ms`;
	const latencyRows = [...stats.latencies]
		.sort((a, b) => b[1].length - a[1].length)
		.map(([kind, list]) => {
			const sorted = [...list].sort((a, b) => a - b);
			return `| ${kind} | ${list.length} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 95))} | ${ms(percentile(sorted, 99))} | ${ms(sorted.at(-1) ?? 0)} |`;
		});
	const statusRows = [...stats.byStatus].sort((a, b) => a[0] - b[0]).map(([status, count]) => `${status} × ${count}`).join(', ');
	const signIns = outcome.credentialsOk + outcome.oidcOk + outcome.raceSignIns;
	const check = (ok) => (ok ? '✅' : '❌');
	const lines = [
		'# Multi-server load (two Express processes, one PostgreSQL)',
		'',
		`Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`node bench/multi-server.js${QUICK ? ' --quick' : ''}\`; ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end; PostgreSQL: ${source}; ${distNote}.`,
		'',
		'Two processes of `bench/apps/multi.js` (Express 5, `ExpressAuth`, database sessions on `kitgate/adapters/postgres`, rate limits in `SqlRateLimitStore` on the same database, `AUTH_URL` set to one public URL as behind a load balancer) and the local OIDC provider (`scripts/demo-idp.js`). The load client (this script, `fetch`) runs',
		`${PLAN.concurrency} virtual users at a time over a fixed plan: ${PLAN.credentialsUsers} credentials users (CSRF token from one server, form posted to the other), ${PLAN.oidcUsers} OIDC users (started on one server, finished on the other), ${PLAN.racingIdentities} OIDC identities whose first sign-in runs on both servers at once, ${PLAN.wrongPasswords} wrong passwords; after each sign-in ${PLAN.checksPerSession} session checks alternating between the servers (\`GET /auth/session\` and \`getSession\` on \`/protected\`), and every other user signs out on one server and replays the old cookie on both.`,
		'',
		'## Outcome',
		'',
		'| check | expected | measured | |',
		'|---|---|---|---|',
		`| responses with status ≥ 500 | 0 | ${stats.fiveXX.length} | ${check(stats.fiveXX.length === 0)} |`,
		`| credentials sign-ins that set a session | ${PLAN.credentialsUsers} | ${outcome.credentialsOk} | ${check(outcome.credentialsOk === PLAN.credentialsUsers)} |`,
		`| OIDC sign-ins (start on one server, callback on the other) | ${PLAN.oidcUsers} | ${outcome.oidcOk} | ${check(outcome.oidcOk === PLAN.oidcUsers)} |`,
		`| racing first sign-ins that set a session | ${PLAN.racingIdentities * 2} | ${outcome.raceSignIns} | ${check(outcome.raceSignIns === PLAN.racingIdentities * 2)} |`,
		`| wrong passwords refused cleanly (302 \`CredentialsSignin\`, no session) | ${PLAN.wrongPasswords} | ${outcome.wrongPasswordRefused} | ${check(outcome.wrongPasswordRefused === PLAN.wrongPasswords)} |`,
		`| flows that neither succeeded nor failed cleanly | 0 | ${outcome.problems.length} | ${check(outcome.problems.length === 0)} |`,
		`| session checks that saw the signed-in user (half on the other server) | ${outcome.checks} | ${outcome.checks - outcome.problems.filter((p) => p.includes(': check ')).length} | ${check(!outcome.problems.some((p) => p.includes(': check ')))} |`,
		`| sign-outs, then the old cookie is no session on either server | ${outcome.signOuts} × 2 | ${outcome.checksAfterSignOut - outcome.problems.filter((p) => p.includes('signed out on')).length} | ${check(!outcome.problems.some((p) => p.includes('signed out on')))} |`,
		`| 6th attempt after 5 wrong passwords split over both servers is \`RateLimited\` on both | yes | ${outcome.rateLimitShared ? 'yes' : 'no'} | ${check(outcome.rateLimitShared)} |`,
		`| users rows | ${expected.users} | ${rows.users} | ${check(rows.users === expected.users)} |`,
		`| accounts rows | ${expected.accounts} | ${rows.accounts} | ${check(rows.accounts === expected.accounts)} |`,
		`| sessions rows (sign-ins − sign-outs) | ${expected.sessions} | ${rows.sessions} | ${check(rows.sessions === expected.sessions)} |`,
		'',
		`${stats.requests} requests in ${(durationMs / 1000).toFixed(1)} s (${Math.round(stats.requests / (durationMs / 1000))} requests/s, ${(signIns / (durationMs / 1000)).toFixed(1)} sign-ins/s including the IdP round trips); statuses: ${statusRows}. Server CPU over the run: ${cpu.map((c) => `${c.name} ${(c.cpuMs / 1000).toFixed(1)} s`).join(', ')}.`,
		'',
		'## Latency per request kind',
		'',
		'| request | count | p50 | p95 | p99 | max |',
		'|---|---|---|---|---|---|',
		...latencyRows,
		'',
		'Wrong passwords take at least 300 ms by design (`minFailureMs`, so unknown users and wrong passwords answer alike). Latencies include the client, the IdP and PostgreSQL on the same machine.',
		''
	];
	if (outcome.problems.length || stats.fiveXX.length) {
		lines.push('## Problems', '', ...[...stats.fiveXX, ...outcome.problems].slice(0, 50).map((p) => `- ${p}`), '');
	}
	return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
	const distNote = await ensureDist();
	say(distNote);
	const database = await startPostgres();
	exitTasks.push(database.stop);
	const schema = database.schema === 'public' ? 'kitgate_multi' : `${database.schema}_multi`;
	say(`PostgreSQL: ${database.source}, schema ${schema}`);
	const idp = await startDemoIdp({ clients: [{ ...CLIENT, redirect_uris: [`${PUBLIC_URL}/auth/callback/idp`] }] });
	exitTasks.push(() => void idp.close());
	const env = { BENCH_DATABASE_URL: database.url, BENCH_PG_SCHEMA: schema, BENCH_ISSUER: idp.issuer, BENCH_CLIENT_ID: CLIENT.client_id, BENCH_CLIENT_SECRET: CLIENT.client_secret };
	const servers = await Promise.all([startServer('A', env), startServer('B', env)]);
	say(`servers: ${servers.map((s) => `${s.name} ${s.base}`).join(', ')}; IdP ${idp.issuer}`);
	const cpuBefore = await Promise.all(servers.map(async (s) => (await fetch(`${s.base}/__bench/cpu`)).json()));

	const deadline = setTimeout(() => {
		say(`time limit of ${PLAN.timeLimitMs / 1000} s reached: stopping`);
		problem(`the time limit of ${PLAN.timeLimitMs / 1000} s was reached before the plan finished`);
		finish().finally(() => process.exit(1));
	}, PLAN.timeLimitMs);

	const tasks = shuffle([
		...Array.from({ length: PLAN.credentialsUsers }, (_, i) => () => credentialsFlow(servers, i)),
		...Array.from({ length: PLAN.oidcUsers }, (_, i) => () => oidcFlow(servers, i)),
		...Array.from({ length: PLAN.racingIdentities }, (_, i) => () => raceFlow(servers, i)),
		...Array.from({ length: PLAN.wrongPasswords }, (_, i) => () => wrongPasswordFlow(servers, i))
	]);
	const started = performance.now();
	say(`running ${tasks.length} flows, ${PLAN.concurrency} at a time…`);
	await pool(tasks, PLAN.concurrency);
	await sharedRateLimit(servers);
	const durationMs = performance.now() - started;
	clearTimeout(deadline);

	async function finish() {
		const cpuAfter = await Promise.all(servers.map(async (s) => (await fetch(`${s.base}/__bench/cpu`)).json())).catch(() => cpuBefore);
		const cpu = servers.map((s, i) => ({ name: s.name, cpuMs: (cpuAfter[i].user + cpuAfter[i].system - cpuBefore[i].user - cpuBefore[i].system) / 1000 }));
		const client = new pg.Client({ connectionString: database.url });
		await client.connect();
		const count = async (table) => Number((await client.query(`select count(*) as n from "${schema}".${table}`)).rows[0].n);
		const rows = { users: await count('users'), accounts: await count('accounts'), sessions: await count('sessions') };
		await client.end();
		const expected = {
			users: outcome.credentialUsers.size + outcome.oidcIdentities.size,
			accounts: outcome.oidcIdentities.size,
			sessions: outcome.sessionsCreated - outcome.sessionsEnded
		};
		await Promise.all(servers.map(stopServer));
		const markdown = report({ distNote, source: database.source, durationMs, rows, expected, cpu });
		writeFileSync(join(BENCH_DIR, 'MULTI-SERVER.md'), markdown);
		linkFromResults();
		console.log(markdown);
		const failed = stats.fiveXX.length > 0 || outcome.problems.length > 0 || rows.users !== expected.users || rows.accounts !== expected.accounts || rows.sessions !== expected.sessions;
		return failed;
	}
	const failed = await finish();
	say(failed ? 'FAILED: see bench/MULTI-SERVER.md' : 'all checks passed; bench/MULTI-SERVER.md written');
	process.exitCode = failed ? 1 : 0;
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
