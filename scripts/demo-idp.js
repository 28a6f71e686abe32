// The demos' local OpenID Provider: `startTestIdp` of `kitgate/testing` (src/lib/testing/idp.js)
// with the demo's user and client, for the demo apps, Playwright and the OAuth integration tests.
// `node scripts/demo-idp.js` serves it on http://127.0.0.1:9090 (DEMO_IDP_PORT, and
// DEMO_IDP_REDIRECT_URIS to replace the demo client's callback URLs).

import { fileURLToPath } from 'node:url';
import { startTestIdp } from '../src/lib/testing/idp.js';

/** @typedef {import('../src/lib/testing/idp.js').TestIdpClient} DemoClient */
/** @typedef {import('../src/lib/testing/idp.js').TestIdpAccount} DemoAccount */
/** @typedef {import('../src/lib/testing/idp.js').TestIdpOptions} DemoIdpOptions */
/** @typedef {import('../src/lib/testing/idp.js').TestIdp} DemoIdp */

/** The one built-in user: log in as `demo` with any password. */
export const DEMO_ACCOUNT = Object.freeze({
	id: 'demo',
	email: 'demo@kitgate.dev',
	email_verified: true,
	name: 'Demo User',
	preferred_username: 'demo'
});

/** The demo apps' client, used by `node scripts/demo-idp.js`. */
export const DEMO_CLIENT = Object.freeze({
	client_id: 'kitgate-demo',
	client_secret: 'kitgate-demo-secret',
	// 4174 and 3101: the demos' second session strategy in the end-to-end tests, 4175 and 3102 their "stale sign-in" demos (playwright.config.ts)
	redirect_uris: [5173, 4173, 4174, 4175, 3100, 3101, 3102].map((port) => `http://localhost:${port}/auth/callback/demo-idp`),
	grant_types: ['authorization_code', 'refresh_token']
});

/**
 * `startTestIdp` with the demo user as its known account unless `accounts` says otherwise.
 *
 * @param {DemoIdpOptions} options
 * @returns {Promise<DemoIdp>}
 * @example
 * const idp = await startDemoIdp({ clients: [DEMO_CLIENT] });
 */
export function startDemoIdp(options) {
	return startTestIdp({ ...options, accounts: options.accounts ?? [DEMO_ACCOUNT] });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const port = Number(process.env.DEMO_IDP_PORT ?? 9090);
	// apps served under another base path or port list their callback URLs here, comma-separated
	const redirects = process.env.DEMO_IDP_REDIRECT_URIS?.split(',').map((uri) => uri.trim()).filter(Boolean);
	const client = redirects?.length ? { ...DEMO_CLIENT, redirect_uris: redirects } : DEMO_CLIENT;
	const idp = await startDemoIdp({ port, clients: [client] });
	console.log(`demo IdP: ${idp.issuer} (client "${DEMO_CLIENT.client_id}"; log in as "demo" with any password)`);
	for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => idp.close().then(() => process.exit(0)));
}
