// Dev tool: CPU per operation of one scenario on kitgate and bare, alternating, for fast iteration.
// node bench/quick-one.js <session|protected|anonymous|signin-page|sign-in|csrf> [seconds] [reps] [--prof]
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CREDENTIALS } from './apps/shared.js';
const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const autocannon = createRequire(join(ROOT, 'bench/reference/package.json'))('autocannon');
const [scenario = 'sign-in', secs = '3', reps = '3'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const prof = process.argv.includes('--prof');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
function start(file, env = {}, execArgv = []) {
	const child = fork(join(ROOT, file), [], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production', ...env }, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	return new Promise((resolve) => child.on('message', (m) => m?.type === 'ready' && resolve({ child, base: `http://127.0.0.1:${m.port}`, cookieName: m.sessionCookie, token: m.sessionToken })));
}
const pairs = (lines) => lines.map((l) => l.split(';')[0]).filter((p) => !p.endsWith('=')).join('; ');
async function signIn(app) {
	const r = await fetch(`${app.base}/auth/csrf`);
	const { csrfToken } = await r.json();
	const res = await fetch(`${app.base}/auth/callback/credentials`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: pairs(r.headers.getSetCookie()), origin: app.base }, body: new URLSearchParams({ csrfToken, ...CREDENTIALS }) });
	return res.headers.getSetCookie().find((l) => l.startsWith(`${app.cookieName}=`)).split(';')[0];
}
const stats = async (app) => (await fetch(`${app.base}/__bench/cpu`)).json();
async function run(app, seconds) {
	const opts = { url: app.base, connections: scenario === 'sign-in' ? 20 : 50, duration: seconds, pipelining: 1 };
	let ok = 0;
	if (scenario === 'sign-in') {
		const list = (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
		const h = (headers, name) => Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
		opts.requests = [
			{ method: 'GET', path: '/auth/csrf', onResponse(s, b, ctx, headers) { ctx.t = JSON.parse(String(b)).csrfToken; ctx.c = pairs(list(h(headers, 'set-cookie'))); } },
			{ method: 'POST', path: '/auth/callback/credentials', setupRequest(req, ctx) { return { ...req, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: ctx.c, origin: app.base }, body: new URLSearchParams({ csrfToken: ctx.t, ...CREDENTIALS }).toString() }; },
				onResponse(s, b, ctx, headers) { if (s === 302 && list(h(headers, 'set-cookie')).some((l) => l.startsWith(`${app.cookieName}=`))) ok++; } }
		];
	} else {
		opts.url += { session: '/auth/session', protected: '/protected', anonymous: '/auth/session', 'signin-page': '/auth/signin', csrf: '/auth/csrf' }[scenario];
		if (scenario === 'session' || scenario === 'protected') opts.headers = { cookie: app.cookie };
	}
	const before = await stats(app);
	const result = await autocannon(opts);
	const after = await stats(app);
	const ops = scenario === 'sign-in' ? ok : result.requests.total;
	return { rate: ops / result.duration, cpu: (after.user - before.user + after.system - before.system) / ops, non2xx: result.non2xx, errors: result.errors };
}
const env = process.env.BENCH_STORE ? { BENCH_STORE: process.env.BENCH_STORE } : {};
let postgres;
if (process.env.BENCH_STORE === 'postgres') {
	const { startPostgres } = await import('./postgres.js');
	postgres = await startPostgres();
	process.on('exit', () => postgres.stop());
	Object.assign(env, { BENCH_DATABASE_URL: postgres.url, BENCH_PG_SCHEMA: postgres.schema });
}
if (process.env.BENCH_STORE === 'sqlite') env.BENCH_SQLITE_FILE = `/tmp/q/bench-${process.pid}.sqlite`;
const apps = {};
if (only !== "bare") apps.kitgate = await start(process.env.KG_APP ?? "bench/apps/kitgate.js", env, prof && only === "kitgate" ? ['--cpu-prof', '--cpu-prof-dir=/tmp/q/prof'] : []);
if (only !== "kitgate" && process.env.BENCH_STORE) apps.bare = await start("bench/apps/kitgate.js", { BENCH_STORE: "jwt" });
else if (only !== "kitgate") apps.bare = await start(process.env.BARE_APP ?? "bench/apps/bare.js", { BARE_PAGE_BYTES: process.env.BARE_PAGE_BYTES ?? '13067' }, prof && only === "bare" ? ["--cpu-prof", "--cpu-prof-dir=/tmp/q/prof-bare"] : []);
for (const app of Object.values(apps)) { app.cookie = app.token ? `${app.cookieName}=${app.token}` : await signIn(app); await run(app, 1); }
const res = Object.fromEntries(Object.keys(apps).map((k) => [k, []]));
for (let i = 0; i < Number(reps); i++) for (const [name, app] of Object.entries(apps)) { const r = await run(app, Number(secs)); res[name].push(r); console.log(name.padEnd(8), r.rate.toFixed(0).padStart(6), '/s', r.cpu.toFixed(1).padStart(6), 'µs', r.non2xx ? `non2xx ${r.non2xx}` : ''); }
const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
const m = Object.fromEntries(Object.entries(res).map(([k, v]) => [k, { rate: med(v.map((r) => r.rate)), cpu: med(v.map((r) => r.cpu)) }]));
console.log(JSON.stringify(m), m.bare && m.kitgate ? `ratio ${(m.kitgate.rate / m.bare.rate).toFixed(3)} cpu-ratio ${(m.bare.cpu / m.kitgate.cpu).toFixed(3)}` : '');
for (const app of Object.values(apps)) app.child.kill('SIGTERM');
setTimeout(() => process.exit(0), 1500);
