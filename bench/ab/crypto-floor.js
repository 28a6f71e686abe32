// Dev tool: how fast the credentials sign-in would be if its cryptography cost nothing. The
// measuring builds of ../crypto-floor.js (no CSRF MAC, no session-token cipher, neither) are loaded
// side by side with the real build and the bare app, a different one first each round, and each
// is reported against bare; the differences in CPU are what each part costs per sign-in.
// node bench/ab/crypto-floor.js [seconds] [reps]
import { buildCryptoFloor, FLOOR_VARIANTS } from '../crypto-floor.js';
import { load, median, startApp } from '../quick-shared.js';

const [seconds = '4', reps = '6'] = process.argv.slice(2);

const apps = { kitgate: await startApp('bench/apps/kitgate.js') };
for (const name of Object.keys(FLOOR_VARIANTS)) apps[name] = await startApp('bench/apps/kitgate.js', { KITGATE_DIST: buildCryptoFloor(name) });
apps.bare = await startApp('bench/apps/bare.js');
for (const app of Object.values(apps)) await load(app, 'sign-in', 2);

const names = Object.keys(apps);
const runs = Object.fromEntries(names.map((name) => [name, []]));
for (let rep = 0; rep < Number(reps); rep++) {
	const order = [...names.slice(rep % names.length), ...names.slice(0, rep % names.length)];
	for (const name of order) runs[name].push(await load(apps[name], 'sign-in', Number(seconds)));
}
const rate = (name) => median(runs[name].map((run) => run.rate));
const cpu = (name) => median(runs[name].map((run) => run.cpu));
console.log('build'.padEnd(16), 'sign-ins/s', 'CPU/sign-in', '  / bare');
for (const name of names) {
	console.log(name.padEnd(16), rate(name).toFixed(0).padStart(10), `${cpu(name).toFixed(1)} µs`.padStart(11), `${(rate(name) / rate('bare')).toFixed(3)}×`.padStart(9));
}
const cost = (name) => (cpu('kitgate') - cpu(name)).toFixed(1);
console.log(`cryptography per sign-in: ${cost('no-crypto')} µs (CSRF MAC ${cost('no-csrf-mac')}, session token ${cost('no-token-cipher')})`);
for (const app of Object.values(apps)) app.child.kill();
setTimeout(() => process.exit(0), 500);
