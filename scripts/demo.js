// `npm start`: the SvelteKit demo with embedded defaults, so sign-in works on a fresh machine with
// no accounts anywhere: a local OpenID Provider (oidc-provider), a local mail sink (smtp-server)
// and an SQLite file under .data/.

import { spawn } from 'node:child_process';
import { DEMO_CLIENT, startDemoIdp } from './demo-idp.js';
import { startDemoSmtp } from './demo-smtp.js';

const port = process.env.PORT ?? '5173';
const idpPort = Number(process.env.DEMO_IDP_PORT ?? 9090);
const idp = await startDemoIdp({ port: idpPort, clients: [DEMO_CLIENT] });
const mail = await startDemoSmtp({
	smtpPort: Number(process.env.DEMO_SMTP_PORT ?? 2525),
	httpPort: Number(process.env.DEMO_MAILBOX_PORT ?? 2526)
});

console.log(`
kitgate demo: http://localhost:${port}
  - "Sign in with Demo IdP": the local identity provider at ${idp.issuer}; log in as "demo" with any password
  - the demo account: user "demo", password "demo-password"
  - the admin account: user "admin", password "demo-password"; the admin pages are at http://localhost:${port}/admin
  - "Sign in with email": any address; the mail lands in the local sink (SMTP 127.0.0.1:${mail.smtpPort}),
    read it at http://localhost:${port}/dev/mailbox
`);
const vite = spawn('npx', ['vite', 'dev', '--host', '127.0.0.1', '--port', port, '--strictPort'], {
	stdio: 'inherit',
	env: { ...process.env, DEMO_IDP_ISSUER: idp.issuer, DEMO_SMTP_PORT: String(mail.smtpPort), DEMO_MAILBOX_URL: mail.mailboxUrl }
});
const closeAll = () => Promise.allSettled([idp.close(), mail.close()]);
const stop = () => {
	vite.kill('SIGTERM');
	closeAll().finally(() => process.exit(0));
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
vite.on('exit', (code) => closeAll().finally(() => process.exit(code ?? 0)));
