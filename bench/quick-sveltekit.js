// Dev tool: CPU per request of the SvelteKit apps (kitgate's handle vs a bare hook), alternating.
// node bench/quick-sveltekit.js [protected|session] [seconds] [reps] [--no-build]
import { fork, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CREDENTIALS } from './apps/shared.js';
import { buildSvelteKitApps } from './sveltekit.js';
const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const autocannon = createRequire(join(ROOT, 'bench/reference/package.json'))('autocannon');
const [scenario = 'protected', secs = '3', reps = '3'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const dir = join(ROOT, 'bench', 'reference', '.tmp-quick-sveltekit');
if (!process.argv.includes('--no-build')) {
	const runCommand = async (command, args, { cwd, env }) => {
		const run = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
		return { status: run.status, output: `${run.stdout}${run.stderr}` };
	};
	const built = await buildSvelteKitApps({ benchDir: join(ROOT, 'bench'), rootDir: ROOT, parentDir: dir, runCommand });
	for (const [name, result] of Object.entries(built)) if (result.error) console.log(name, result.error);
}
function start(name, cookie) {
	const child = fork(join(ROOT, 'bench/apps/sveltekit-server.js'), [], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production', BENCH_HANDLER: join(dir, name, 'build', 'handler.js'), BENCH_SESSION_COOKIE: cookie }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	return new Promise((resolve) => child.on('message', (m) => m?.type === 'ready' && resolve({ child, base: `http://127.0.0.1:${m.port}`, cookieName: cookie })));
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
	const before = await stats(app);
	const result = await autocannon({ url: `${app.base}${scenario === 'session' ? '/auth/session' : '/protected'}`, connections: 50, duration: seconds, headers: { cookie: app.cookie } });
	const after = await stats(app);
	return { rate: result.requests.total / result.duration, cpu: (after.user - before.user + after.system - before.system) / result.requests.total, non2xx: result.non2xx };
}
const apps = { kitgate: await start('kitgate', 'kitgate.session-token'), bare: await start('bare', 'bare.session-token') };
for (const app of Object.values(apps)) { app.cookie = await signIn(app); await run(app, 1); }
const res = { kitgate: [], bare: [] };
for (let i = 0; i < Number(reps); i++) for (const [name, app] of Object.entries(apps)) { const r = await run(app, Number(secs)); res[name].push(r); console.log(name.padEnd(8), r.rate.toFixed(0).padStart(6), '/s', r.cpu.toFixed(1).padStart(6), 'µs', r.non2xx ? `non2xx ${r.non2xx}` : ''); }
const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
const k = med(res.kitgate.map((r) => r.rate)), b = med(res.bare.map((r) => r.rate));
console.log(`ratio ${(k / b).toFixed(3)}`);
for (const app of Object.values(apps)) app.child.kill('SIGTERM');
setTimeout(() => process.exit(0), 1000);
