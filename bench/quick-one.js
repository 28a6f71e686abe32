// Dev tool: CPU per operation of one scenario on kitgate and the bare app, alternating, for fast
// iteration. BENCH_STORE=sqlite|postgres compares a database-session kitgate with kitgate's JWT one.
// node bench/quick-one.js [sign-in|session|protected|anonymous|signin-page|csrf] [seconds] [reps] [--prof]
// (--prof: a CPU profile of the kitgate app alone, in the system's temp folder)
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, median, sessionCookie, startApp } from './quick-shared.js';

const [scenario = 'sign-in', seconds = '3', reps = '3'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const profile = process.argv.includes('--prof');
const store = process.env.BENCH_STORE;
const env = store ? { BENCH_STORE: store } : {};
if (store === 'postgres') {
	const { startPostgres } = await import('./postgres.js');
	const postgres = await startPostgres();
	process.on('exit', () => postgres.stop());
	Object.assign(env, { BENCH_DATABASE_URL: postgres.url, BENCH_PG_SCHEMA: postgres.schema });
}
if (store === 'sqlite') env.BENCH_SQLITE_FILE = join(tmpdir(), `kitgate-quick-${process.pid}.sqlite`);

const profileDir = join(tmpdir(), 'kitgate-quick-profile');
const apps = { kitgate: await startApp('bench/apps/kitgate.js', env, profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []) };
if (!profile) apps[store ? 'jwt' : 'bare'] = store ? await startApp('bench/apps/kitgate.js', { BENCH_STORE: 'jwt' }) : await startApp('bench/apps/bare.js', { BARE_PAGE_BYTES: process.env.BARE_PAGE_BYTES ?? '13067' });
for (const app of Object.values(apps)) {
	app.cookie = await sessionCookie(app);
	await load(app, scenario, 1);
}
const runs = Object.fromEntries(Object.keys(apps).map((name) => [name, []]));
for (let rep = 0; rep < Number(reps); rep++) {
	for (const [name, app] of Object.entries(apps)) {
		const run = await load(app, scenario, Number(seconds));
		runs[name].push(run);
		console.log(name.padEnd(8), run.rate.toFixed(0).padStart(6), '/s', run.cpu.toFixed(1).padStart(6), 'µs', run.non2xx ? `non-2xx ${run.non2xx}` : '');
	}
}
const [first, second] = Object.keys(apps);
const rate = (name) => median(runs[name].map((run) => run.rate));
const cpu = (name) => median(runs[name].map((run) => run.cpu));
console.log(second ? `${first}/${second}: rate ${(rate(first) / rate(second)).toFixed(3)}, CPU ${(cpu(second) / cpu(first)).toFixed(3)}` : `profile in ${profileDir}`);
for (const app of Object.values(apps)) app.child.kill('SIGTERM');
setTimeout(() => process.exit(0), 1500);
