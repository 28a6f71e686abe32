// An OpenID Provider for tests (`kitgate/testing`): the certified `oidc-provider` (an optional
// peer) on 127.0.0.1, with the clients and users a test gives it and a development login form.

import { loadPeer } from './peer.js';

/**
 * A client registered with the IdP: oidc-provider's client metadata (any of its fields is accepted).
 * @typedef {{
 *   client_id: string,
 *   client_secret?: string,
 *   redirect_uris: string[],
 *   token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'client_secret_jwt' | 'none',
 *   grant_types?: string[],
 *   [field: string]: unknown
 * }} TestIdpClient
 */

/**
 * A user of the IdP; `id` is what you type into the login form and becomes the `sub` claim.
 * @typedef {{ id: string, email: string, name: string, [claim: string]: unknown }} TestIdpAccount
 */

/**
 * Options of {@link startTestIdp}.
 * @typedef {object} TestIdpOptions
 * @property {TestIdpClient[]} clients Registered clients (at least one).
 * @property {number} [port] Port on 127.0.0.1; 0 (default) picks a free one.
 * @property {TestIdpAccount[]} [accounts] Known users. Any other login signs in too, with
 *   generated claims (`email` is `<login>@example.test`, verified; `name` is the login).
 * @property {Record<string, number>} [ttl] Lifetimes in seconds, e.g. `{ AccessToken: 60 }`.
 * @property {boolean} [conformIdTokenClaims] True: the ID token carries only `sub` (and the
 *   protocol claims); `email`, `name` and the other scope claims are in userinfo only, as OpenID
 *   Connect Core 5.4 says for the code flow (oidc-provider's own default). Default false: they are
 *   in the ID token too, as most hosted providers do.
 */

/**
 * A running identity provider.
 * @typedef {object} TestIdp
 * @property {string} issuer e.g. `http://127.0.0.1:9090`: the OIDC provider's `issuer` (`AUTH_OIDC_ISSUER`).
 * @property {() => Promise<void>} close Stops the server (and drops open connections).
 */

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
 * Starts an OpenID Provider on 127.0.0.1 for an app's tests. Its login is oidc-provider's
 * development form: any login with any password (then a consent page). Needs `oidc-provider`
 * (`npm install -D oidc-provider`). The `kitgate/testing/playwright` fixture `signIn.oidc` fills
 * both pages.
 *
 * @param {TestIdpOptions} options
 * @returns {Promise<TestIdp>}
 * @example
 * const idp = await startTestIdp({
 * 	clients: [{ client_id: 'my-app', client_secret: 'my-app-secret', redirect_uris: ['http://localhost:4173/auth/callback/oidc'] }]
 * });
 * // the app's AUTH_OIDC_ISSUER = idp.issuer, AUTH_OIDC_ID = 'my-app', AUTH_OIDC_SECRET = 'my-app-secret'
 * await idp.close();
 */
export async function startTestIdp({ port = 0, clients, accounts = [], ttl = {}, conformIdTokenClaims = false }) {
	if (!Array.isArray(clients) || clients.length === 0) throw new TypeError('startTestIdp() needs at least one client: { clients: [{ client_id, client_secret, redirect_uris }] }.');
	const { default: Provider } = await quietly(() => loadPeer(() => import('oidc-provider'), 'oidc-provider', 'startTestIdp'));
	// Node's modules only when a test starts the IdP: importing kitgate/testing loads none (runtime-neutral.test.ts)
	const [{ createServer }, { generateKeyPairSync, randomBytes }] = await Promise.all([import('node:http'), import('node:crypto')]);
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
				jwks: { keys: [signingKey(generateKeyPairSync, randomBytes)] },
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
 * @param {TestIdpAccount[]} accounts
 */
function claimsOf(id, accounts) {
	const known = accounts.find((account) => account.id === id);
	if (known) {
		const { id: sub, ...claims } = known;
		return { sub, ...claims };
	}
	return { sub: id, email: `${id}@example.test`, email_verified: true, name: id, preferred_username: id };
}

/**
 * @param {typeof import('node:crypto').generateKeyPairSync} generateKeyPairSync
 * @param {typeof import('node:crypto').randomBytes} randomBytes
 */
function signingKey(generateKeyPairSync, randomBytes) {
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

