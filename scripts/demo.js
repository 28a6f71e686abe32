// `npm start`: the SvelteKit demo with embedded defaults, so sign-in works on a fresh machine with
// no accounts anywhere: a local OpenID Provider (oidc-provider) and an SQLite file under .data/.

import { spawn } from 'node:child_process';
import { DEMO_CLIENT, startDemoIdp } from './demo-idp.js';

const port = process.env.PORT ?? '5173';
const idpPort = Number(process.env.DEMO_IDP_PORT ?? 9090);
const idp = await startDemoIdp({ port: idpPort, clients: [DEMO_CLIENT] });

console.log(`
kitgate demo: http://localhost:${port}
  - "Sign in with Demo IdP": the local identity provider at ${idp.issuer}; log in as "demo" with any password
  - the demo account: user "demo", password "demo-password"
`);
const vite = spawn('npx', ['vite', 'dev', '--host', '127.0.0.1', '--port', port, '--strictPort'], {
	stdio: 'inherit',
	env: { ...process.env, DEMO_IDP_ISSUER: idp.issuer }
});
const stop = () => {
	vite.kill('SIGTERM');
	idp.close().finally(() => process.exit(0));
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
vite.on('exit', (code) => idp.close().finally(() => process.exit(code ?? 0)));
