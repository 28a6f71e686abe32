// A/B of two builds of kitgate on one scenario: copies of dist/ in bench/.ab/A and bench/.ab/B (each
// `cp -r dist bench/.ab/A` after a build), served by the same Express app, loaded alternately
// (A B, B A, …) so that a slow moment hits both. Prints each one's CPU per operation and B/A per pair.
// node bench/ab/ab.js [sign-in|session|protected|signin-page|csrf] [seconds] [reps]
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CREDENTIALS } from '../apps/shared.js';
const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const autocannon = createRequire(join(ROOT, 'bench/reference/package.json'))('autocannon');
const [scenario = 'sign-in', secs = '4', reps = '6'] = process.argv.slice(2);
const start = (dist) => { const child = fork(join(ROOT, 'bench/ab/app.js'), [], { env: { ...process.env, NODE_ENV: 'production', AB_DIST: dist }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }); return new Promise((r) => child.on('message', (m) => m?.type === 'ready' && r({ child, base: `http://127.0.0.1:${m.port}`, cookieName: m.sessionCookie }))); };
const pairs = (lines) => lines.map((l) => l.split(';')[0]).filter((p) => !p.endsWith('=')).join('; ');
const stats = async (app) => (await fetch(`${app.base}/__bench/cpu`)).json();
async function signIn(app) { const r = await fetch(`${app.base}/auth/csrf`); const { csrfToken } = await r.json(); const res = await fetch(`${app.base}/auth/callback/credentials`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: pairs(r.headers.getSetCookie()), origin: app.base }, body: new URLSearchParams({ csrfToken, ...CREDENTIALS }) }); return res.headers.getSetCookie().find((l) => l.startsWith(`${app.cookieName}=`)).split(';')[0]; }
async function run(app, seconds) {
	const opts = { url: app.base, connections: scenario === 'sign-in' ? 20 : 50, duration: seconds };
	let ok = 0;
	if (scenario === 'sign-in') {
		const list = (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
		const h = (headers, name) => Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
		opts.requests = [
			{ method: 'GET', path: '/auth/csrf', onResponse(s, b, ctx, headers) { ctx.t = JSON.parse(String(b)).csrfToken; ctx.c = pairs(list(h(headers, 'set-cookie'))); } },
			{ method: 'POST', path: '/auth/callback/credentials', setupRequest(req, ctx) { return { ...req, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: ctx.c, origin: app.base }, body: new URLSearchParams({ csrfToken: ctx.t, ...CREDENTIALS }).toString() }; }, onResponse(s) { if (s === 302) ok++; } }
		];
	} else { opts.url += { session: '/auth/session', protected: '/protected', 'signin-page': '/auth/signin', csrf: '/auth/csrf' }[scenario]; opts.headers = { cookie: app.cookie }; }
	const before = await stats(app); const result = await autocannon(opts); const after = await stats(app);
	const ops = scenario === 'sign-in' ? ok : result.requests.total;
	return { rate: ops / result.duration, cpu: (after.user - before.user + after.system - before.system) / ops };
}
const A = await start(join(ROOT, 'bench/.ab/A')), B = await start(join(ROOT, 'bench/.ab/B'));
for (const app of [A, B]) { app.cookie = await signIn(app); await run(app, 2); }
const res = { A: [], B: [] };
for (let i = 0; i < Number(reps); i++) for (const [n, app] of i % 2 ? [['B', B], ['A', A]] : [['A', A], ['B', B]]) { const r = await run(app, Number(secs)); res[n].push(r); }
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const n of ['A', 'B']) console.log(n, 'rate', med(res[n].map((r) => r.rate)).toFixed(0), 'cpu', med(res[n].map((r) => r.cpu)).toFixed(1), 'µs', res[n].map((r) => r.cpu.toFixed(0)).join(' '));
const pairsRatio = res.B.map((r, i) => r.cpu / res.A[i].cpu);
console.log('B/A cpu per-pair', pairsRatio.map((x) => x.toFixed(3)).join(' '), 'median', med(pairsRatio).toFixed(3));
for (const app of [A, B]) app.child.kill(); setTimeout(() => process.exit(0), 500);
