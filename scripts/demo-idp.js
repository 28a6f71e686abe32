// A local OpenID Provider (the certified `oidc-provider`) for the demo apps, Playwright and the
// OAuth integration tests. `node scripts/demo-idp.js` serves it on http://127.0.0.1:9090
// (DEMO_IDP_PORT, and DEMO_IDP_REDIRECT_URIS to replace the demo client's callback URLs).

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

/**
 * Client metadata registered with the IdP (any `oidc-provider` client field is accepted).
 * @typedef {{
 *   client_id: string,
 *   client_secret?: string,
 *   redirect_uris: string[],
 *   token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'client_secret_jwt' | 'none',
 *   grant_types?: string[],
 *   [field: string]: unknown
 * }} DemoClient
 */

/**
 * A user of the IdP; `id` is what you type into the login form and becomes the `sub` claim.
 * @typedef {{ id: string, email: string, name: string, [claim: string]: unknown }} DemoAccount
 */

/**
 * @typedef {object} DemoIdpOptions
 * @property {number} [port] Port on 127.0.0.1; 0 (default) picks a free one.
 * @property {DemoClient[]} clients Registered clients.
 * @property {DemoAccount[]} [accounts] Known users (default: the `demo` user). Other logins get generated claims.
 * @property {Record<string, number>} [ttl] Lifetimes in seconds, e.g. `{ AccessToken: 60 }`.
 * @property {boolean} [conformIdTokenClaims] True: the ID token carries only `sub` (and the
 *   protocol claims); `email`, `name` and the other scope claims are in userinfo only, as OpenID
 *   Connect Core 5.4 says for the code flow (oidc-provider's own default). Default false: they are
 *   in the ID token too, as most hosted providers do.
 */

/**
 * @typedef {object} DemoIdp
 * @property {string} issuer e.g. `http://127.0.0.1:9090`
 * @property {() => Promise<void>} close Stops the server (and drops open connections).
 */

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

const DEFAULT_TTL = {
	AccessToken: 3600,
	AuthorizationCode: 60,
	IdToken: 3600,
	RefreshToken: 14 * 24 * 3600,
	Interaction: 3600,
	Session: 14 * 24 * 3600,
	Grant: 14 * 24 * 3600
};

/**
 * Starts the IdP on 127.0.0.1. Login is oidc-provider's development form: any password works.
 *
 * @param {DemoIdpOptions} options
 * @returns {Promise<DemoIdp>}
 * @example
 * const idp = await startDemoIdp({ clients: [{ client_id: 'app', client_secret: 's', redirect_uris: ['http://localhost:3000/auth/callback/idp'] }] });
 * // ... OIDC provider config: { issuer: idp.issuer, clientId: 'app', clientSecret: 's' }
 * await idp.close();
 */
export async function startDemoIdp({ port = 0, clients, accounts = [DEMO_ACCOUNT], ttl = {}, conformIdTokenClaims = false }) {
	const { default: Provider } = await quietly(() => import('oidc-provider'));
	const server = createServer();
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve(undefined));
	});
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	const issuer = `http://127.0.0.1:${address.port}`;

	const provider = quietly(
		() =>
			new Provider(issuer, {
				clients: clients.map((client) => ({
					response_types: ['code'],
					grant_types: ['authorization_code', 'refresh_token'],
					...client
				})),
				// our own signing key: no "development keys" warning, and a fresh key per run
				jwks: { keys: [signingKey()] },
				cookies: { keys: [randomBytes(32).toString('base64url')] },
				claims: {
					openid: ['sub'],
					email: ['email', 'email_verified'],
					profile: ['name', 'nickname', 'preferred_username', 'picture', 'given_name', 'family_name']
				},
				// by default, put the scope's claims in the ID token too, as most hosted providers do
				conformIdTokenClaims,
				features: { devInteractions: { enabled: true } },
				// PKCE is checked when the client sends a code_challenge, not demanded
				pkce: { required: () => false },
				issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
				rotateRefreshToken: true,
				ttl: { ...DEFAULT_TTL, ...ttl },
				findAccount: (_ctx, id) => ({ accountId: id, claims: () => claimsOf(id, accounts) }),
				renderError: (ctx, out) => {
					ctx.type = 'text/plain';
					ctx.body = `${out.error}: ${out.error_description ?? ''}`;
				}
			})
	);
	const handler = quietly(() => provider.callback());
	server.on('request', handler);

	return {
		issuer,
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve(undefined));
				server.closeAllConnections();
			})
	};
}

/**
 * Claims of the user `id`: a configured account, or generated ones for any other login.
 * @param {string} id
 * @param {DemoAccount[]} accounts
 */
function claimsOf(id, accounts) {
	const known = accounts.find((account) => account.id === id);
	if (known) {
		const { id: sub, ...claims } = known;
		return { sub, ...claims };
	}
	return { sub: id, email: `${id}@example.test`, email_verified: true, name: id, preferred_username: id };
}

function signingKey() {
	const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
	return { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' };
}

/**
 * Runs `work` with oidc-provider's start-up notices (Node version, dev features) silenced.
 * @template T
 * @param {() => T} work
 * @returns {T}
 */
function quietly(work) {
	const { warn, info } = console;
	/** @param {(...args: unknown[]) => void} original */
	const filtered = (original) => (/** @type {unknown[]} */ ...args) => {
		if (typeof args[0] === 'string' && args[0].includes('oidc-provider ')) return;
		original(...args);
	};
	console.warn = filtered(warn);
	console.info = filtered(info);
	const restore = () => {
		console.warn = warn;
		console.info = info;
	};
	try {
		const result = work();
		if (result instanceof Promise) return /** @type {T} */ (result.finally(restore));
		restore();
		return result;
	} catch (error) {
		restore();
		throw error;
	}
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
