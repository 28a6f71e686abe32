// A/B of two builds of kitgate on one scenario: copies of dist/ in bench/.ab/A and bench/.ab/B (each
// `cp -r dist bench/.ab/A` after a build), served by the same bench app (KITGATE_DIST), loaded
// alternately (A B, B A, …) so that a slow moment hits both. Prints each one's CPU per operation
// and B/A per pair with its median.
// node bench/ab/ab.js [sign-in|session|protected|signin-page|csrf] [seconds] [reps]
import { join } from 'node:path';
import { load, median, ROOT, sessionCookie, startApp } from '../quick-shared.js';

const [scenario = 'sign-in', seconds = '4', reps = '6'] = process.argv.slice(2);
const builds = { A: await startApp('bench/apps/kitgate.js', { KITGATE_DIST: join(ROOT, 'bench/.ab/A') }), B: await startApp('bench/apps/kitgate.js', { KITGATE_DIST: join(ROOT, 'bench/.ab/B') }) };
for (const app of Object.values(builds)) {
	app.cookie = await sessionCookie(app);
	await load(app, scenario, 2);
}
const runs = { A: [], B: [] };
for (let rep = 0; rep < Number(reps); rep++) {
	for (const name of rep % 2 ? ['B', 'A'] : ['A', 'B']) runs[name].push(await load(builds[name], scenario, Number(seconds)));
}
for (const name of ['A', 'B']) {
	console.log(name, 'rate', median(runs[name].map((run) => run.rate)).toFixed(0), 'cpu', median(runs[name].map((run) => run.cpu)).toFixed(1), 'µs', runs[name].map((run) => run.cpu.toFixed(0)).join(' '));
}
const ratios = runs.B.map((run, index) => run.cpu / runs.A[index].cpu);
console.log('B/A cpu per pair', ratios.map((ratio) => ratio.toFixed(3)).join(' '), 'median', median(ratios).toFixed(3));
for (const app of Object.values(builds)) app.child.kill();
setTimeout(() => process.exit(0), 500);
