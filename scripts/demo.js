// `npm start`: runs the SvelteKit demo with embedded defaults (no accounts anywhere) and prints
// how to sign in.

import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '5173';
console.log(`kitgate demo: http://localhost:${port}  (credentials: user "demo", password "demo-password")`);
const vite = spawn('npx', ['vite', 'dev', '--host', '127.0.0.1', '--port', port, '--strictPort'], {
	stdio: 'inherit',
	env: { ...process.env }
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => vite.kill(signal));
vite.on('exit', (code) => process.exit(code ?? 0));
