// Dev tool: CPU per request of the SvelteKit apps (kitgate's handle vs a bare hook), alternating.
// node bench/quick-sveltekit.js [protected|session] [seconds] [reps] [--no-build]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { load, median, ROOT, signIn, startApp } from './quick-shared.js';
import { buildSvelteKitApps } from './sveltekit.js';

const [scenario = 'protected', seconds = '3', reps = '3'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const directory = join(ROOT, 'bench', 'reference', '.tmp-quick-sveltekit');
if (!process.argv.includes('--no-build')) {
	const runCommand = async (command, args, { cwd, env }) => {
		const run = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
		return { status: run.status, output: `${run.stdout}${run.stderr}` };
	};
	const built = await buildSvelteKitApps({ benchDir: join(ROOT, 'bench'), rootDir: ROOT, parentDir: directory, runCommand });
	for (const [name, result] of Object.entries(built)) if (result.error) console.log(name, result.error);
}
const start = (name, cookie) => startApp('bench/apps/sveltekit-server.js', { BENCH_HANDLER: join(directory, name, 'build', 'handler.js'), BENCH_SESSION_COOKIE: cookie });
const apps = { kitgate: await start('kitgate', 'kitgate.session-token'), bare: await start('bare', 'bare.session-token') };
for (const app of Object.values(apps)) {
	app.cookie = await signIn(app);
	await load(app, scenario, 1);
}
const runs = { kitgate: [], bare: [] };
for (let rep = 0; rep < Number(reps); rep++) {
	for (const [name, app] of Object.entries(apps)) {
		const run = await load(app, scenario, Number(seconds));
		runs[name].push(run);
		console.log(name.padEnd(8), run.rate.toFixed(0).padStart(6), '/s', run.cpu.toFixed(1).padStart(6), 'µs', run.non2xx ? `non-2xx ${run.non2xx}` : '');
	}
}
console.log(`kitgate/bare: rate ${(median(runs.kitgate.map((run) => run.rate)) / median(runs.bare.map((run) => run.rate))).toFixed(3)}`);
for (const app of Object.values(apps)) app.child.kill('SIGTERM');
setTimeout(() => process.exit(0), 1000);
