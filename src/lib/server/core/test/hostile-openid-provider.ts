// A hostile or crafted OpenID Provider: a real HTTP server on 127.0.0.1 (an ephemeral port) with
// discovery, JWKS, a token endpoint that checks the client, the code and PKCE, and userinfo. The
// authorization step is done by the test, as the user's browser would (`authorize`). Every ID
// token goes through `mintIdToken`, which gets the header and claims a well-behaved provider would
// sign and may sign anything else instead (another algorithm, another key, other claims, a token
// kept from an earlier sign-in). The same server publishes an attacker's JWKS on a path of its own
// (`attackerJwks`), and records every request it receives, so a test can show what kitgate asked
// for and what it never fetched. kitgate allows plain http for loopback hosts (idpHttpOptions), so
// no provider option is needed; a test file that uses this belongs in the `integration` project.

import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair, type CryptoKey, type JWK, type JWTHeaderParameters } from 'jose';
import { afterEach, beforeEach, expect } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { clearDiscoveryCache } from '../flows/oauth/oauth-metadata.js';
import type { AuthConfig, OAuthConfig } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { quietLogger, type TestClient } from './oauth-fixtures.js';

/** The relying party the provider knows (client_secret_basic). */
export const OP_CLIENT = { id: 'kitgate-rp', secret: 'rp-secret-rp-secret-rp-secret-rp-secret' };

/** The user who logs in at the provider. */
export interface OpUser {
	sub: string;
	email?: string;
	name?: string;
	email_verified?: boolean;
}

/** What an ID token is made of. */
export interface IdTokenParts {
	header: Record<string, unknown>;
	claims: Record<string, unknown>;
}

/** Ways to turn parts into a token. */
export interface MintTools {
	/** Signs with `key` (default: the provider's published key) under the header's `alg`. */
	sign(parts: IdTokenParts, key?: CryptoKey | Uint8Array): Promise<string>;
	/** An unsecured JWT (`alg: none`): header and claims, an empty signature. */
	unsecured(parts: IdTokenParts): string;
}

/** One request the provider received. */
export interface ReceivedRequest {
	method: string;
	/** The full URL, e.g. `http://127.0.0.1:41234/jwks`. */
	url: string;
	authorization: string | null;
	body: string;
}

export interface HostileOpenIdProvider {
	/** e.g. `http://127.0.0.1:41234` */
	issuer: string;
	/** The URL of its discovery document. */
	wellKnown: string;
	/** A JWKS URL the attacker controls, on this server: it publishes the attacker's key. */
	attackerJwks: string;
	clientId: string;
	/** Fields laid over the discovery document on every answer (set them with `changeMetadata`). */
	metadata: Record<string, unknown>;
	/** Sets `metadata` and forgets the cached discovery document, so the next sign-in reads the new one. */
	changeMetadata(fields: Record<string, unknown>): void;
	/** Makes each ID token from what a well-behaved provider would sign; default: signs those parts. */
	mintIdToken: (parts: IdTokenParts, tools: MintTools) => Promise<string> | string;
	/** Every request the server received, in order. */
	requests: ReceivedRequest[];
	/** The URL of every request the server received, in order. */
	readonly fetched: string[];
	/** Token requests answered (code exchanges). */
	tokenRequests: number;
	/** ID tokens issued so far, in order. */
	idTokens: string[];
	/** Every token the token endpoint issued (access, refresh and ID tokens), in order. */
	issued: string[];
	/** What the userinfo endpoint answers for the user an access token was issued to; default: the user. */
	userinfo: (user: OpUser) => Record<string, unknown>;
	/** The provider's signing key pair (public: a JWK in its JWKS and a PEM; private: also as a JWK). */
	published: { privateKey: CryptoKey; privateJwk: JWK; jwk: JWK; pem: string };
	/** The attacker's key pair (its public JWK is at `attackerJwks`). */
	attacker: { privateKey: CryptoKey; jwk: JWK };
	tools: MintTools;
	/**
	 * The user's trip through the authorization endpoint kitgate redirected to: the redirect back
	 * to kitgate's callback with a code for `user` (and the state; `extra` adds parameters).
	 */
	authorize(location: string, user: OpUser, extra?: Record<string, string>): string;
	/** An OIDC provider config for this server (PKCE, state and nonce: the defaults), with `overrides`. */
	provider(overrides?: Partial<OAuthConfig>): OAuthConfig;
	close(): Promise<void>;
}

/** The provider's and the attacker's key pairs, made once per test file (RSA key generation is slow). */
let keyPairs: Promise<Awaited<ReturnType<typeof generateKeyPair>>[]> | undefined;

function base64url(value: unknown): string {
	return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * Starts the provider on 127.0.0.1 and forgets cached discovery documents. Close it with `close()`.
 *
 * @example
 * const op = await startHostileOpenIdProvider();
 * op.mintIdToken = (parts, { unsecured }) => unsecured({ ...parts, header: { alg: 'none' } });
 */
export async function startHostileOpenIdProvider(): Promise<HostileOpenIdProvider> {
	clearDiscoveryCache();
	const [published, attacker] = await (keyPairs ??= Promise.all([generateKeyPair('RS256', { extractable: true }), generateKeyPair('RS256', { extractable: true })]));
	const publishedJwk = { ...(await exportJWK(published.publicKey)), kid: 'op-key', alg: 'RS256', use: 'sig' };
	const attackerJwk = { ...(await exportJWK(attacker.publicKey)), kid: 'attacker-key', alg: 'RS256', use: 'sig' };
	const codes = new Map<string, { user: OpUser; nonce: string | null; challenge: string | null; redirectUri: string; clientId: string }>();
	const tokens = new Map<string, OpUser>();

	const tools: MintTools = {
		sign: ({ header, claims }, key = published.privateKey) => new SignJWT(claims).setProtectedHeader(header as JWTHeaderParameters).sign(key),
		unsecured: ({ header, claims }) => `${base64url(header)}.${base64url(claims)}.`
	};

	/** The answer to one request: a status and a JSON body. */
	async function answer(request: ReceivedRequest): Promise<[number, unknown]> {
		const { issuer } = op;
		switch (new URL(request.url).pathname) {
			case '/.well-known/openid-configuration':
				return [
					200,
					{
						issuer,
						authorization_endpoint: `${issuer}/authorize`,
						token_endpoint: `${issuer}/token`,
						userinfo_endpoint: `${issuer}/userinfo`,
						jwks_uri: `${issuer}/jwks`,
						response_types_supported: ['code'],
						subject_types_supported: ['public'],
						id_token_signing_alg_values_supported: ['RS256'],
						...op.metadata
					}
				];
			case '/jwks':
				return [200, { keys: [publishedJwk] }];
			case new URL(op.attackerJwks).pathname:
				return [200, { keys: [attackerJwk] }];
			case '/token': {
				if (request.method !== 'POST') return [405, { error: 'invalid_request' }];
				const body = new URLSearchParams(request.body);
				const [clientId, secret] = Buffer.from((request.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8').split(':').map(decodeURIComponent);
				if (clientId !== OP_CLIENT.id || secret !== OP_CLIENT.secret) return [401, { error: 'invalid_client' }];
				const entry = codes.get(body.get('code') ?? '');
				codes.delete(body.get('code') ?? '');
				if (!entry || entry.redirectUri !== body.get('redirect_uri') || entry.clientId !== clientId) return [400, { error: 'invalid_grant' }];
				if (entry.challenge !== createHash('sha256').update(body.get('code_verifier') ?? '').digest('base64url')) return [400, { error: 'invalid_grant' }];
				op.tokenRequests++;
				const now = Math.floor(Date.now() / 1000);
				const { user } = entry;
				const parts: IdTokenParts = {
					header: { alg: 'RS256', kid: 'op-key', typ: 'JWT' },
					claims: {
						iss: issuer,
						sub: user.sub,
						aud: clientId,
						iat: now,
						exp: now + 600,
						...(entry.nonce ? { nonce: entry.nonce } : {}),
						...(user.email ? { email: user.email, email_verified: user.email_verified ?? true } : {}),
						...(user.name ? { name: user.name } : {})
					}
				};
				const idToken = await op.mintIdToken(parts, tools);
				op.idTokens.push(idToken);
				const accessToken = `at-${randomUUID()}`;
				const refreshToken = `rt-${randomUUID()}`;
				tokens.set(accessToken, user);
				op.issued.push(accessToken, refreshToken, idToken);
				return [200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, refresh_token: refreshToken, id_token: idToken }];
			}
			case '/userinfo': {
				const user = tokens.get((request.authorization ?? '').replace(/^Bearer /, ''));
				return user ? [200, op.userinfo(user)] : [401, { error: 'invalid_token' }];
			}
			default:
				return [404, { error: 'not_found' }];
		}
	}

	const server = createServer(async (req, res) => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const request: ReceivedRequest = {
			method: req.method ?? 'GET',
			url: `${op.issuer}${req.url ?? '/'}`,
			authorization: req.headers.authorization ?? null,
			body: Buffer.concat(chunks).toString('utf8')
		};
		op.requests.push(request);
		const [status, body] = await answer(request).catch((error: unknown) => [500, { error: 'server_error', error_description: String(error) }] as const);
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify(body));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	const op: HostileOpenIdProvider = {
		issuer,
		wellKnown: `${issuer}/.well-known/openid-configuration`,
		attackerJwks: `${issuer}/attacker/jwks.json`,
		clientId: OP_CLIENT.id,
		metadata: {},
		changeMetadata(fields) {
			op.metadata = fields;
			clearDiscoveryCache();
		},
		mintIdToken: (parts, { sign }) => sign(parts),
		requests: [],
		get fetched() {
			return op.requests.map(({ url }) => url);
		},
		tokenRequests: 0,
		idTokens: [],
		issued: [],
		userinfo: (user) => ({ ...user }),
		published: { privateKey: published.privateKey, privateJwk: await exportJWK(published.privateKey), jwk: publishedJwk, pem: await exportSPKI(published.publicKey) },
		attacker: { privateKey: attacker.privateKey, jwk: attackerJwk },
		tools,
		authorize(location, user, extra = {}) {
			const url = new URL(location);
			expect(`${url.origin}${url.pathname}`).toBe(`${issuer}/authorize`);
			const code = `code-${randomUUID()}`;
			const redirectUri = url.searchParams.get('redirect_uri') as string;
			codes.set(code, {
				user,
				nonce: url.searchParams.get('nonce'),
				challenge: url.searchParams.get('code_challenge'),
				redirectUri,
				clientId: url.searchParams.get('client_id') as string
			});
			const back = new URL(redirectUri);
			back.searchParams.set('code', code);
			const state = url.searchParams.get('state');
			if (state) back.searchParams.set('state', state);
			for (const [name, value] of Object.entries(extra)) back.searchParams.set(name, value);
			return back.href;
		},
		provider(overrides = {}) {
			return { id: 'op', name: 'OP', type: 'oidc', issuer, clientId: OP_CLIENT.id, clientSecret: OP_CLIENT.secret, ...overrides };
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			})
	};
	return op;
}

/** `POST /auth/signin/{providerId}`: the authorization URL kitgate redirects the browser to. */
export async function startAt(client: TestClient, providerId = 'op'): Promise<URL> {
	const csrfToken = await client.csrfToken();
	const started = await client.request(`/auth/signin/${providerId}`, { form: { csrfToken, callbackUrl: '/dashboard' } });
	expect(started.status, 'a redirect to the provider').toBe(302);
	return new URL(started.headers.get('location') as string);
}

/** A whole sign-in of `user` at `op` in `client`: start, authorization, callback. Returns the callback's response. */
export async function signInAt(op: HostileOpenIdProvider, client: TestClient, user: OpUser, extra: Record<string, string> = {}, providerId = 'op'): Promise<Response> {
	return client.request(op.authorize((await startAt(client, providerId)).href, user, extra));
}

/**
 * The world of the tests against the crafted OP: a fresh provider for every test of the calling
 * file (started before the test, closed after it; read `world.op` inside tests), and `setup()`: a
 * memory adapter, a capturing logger and a config with the OP's provider (PKCE, state, nonce),
 * `overrides` last, with a browser on it (`client`) and a maker of more (`browser()`).
 *
 * @example
 * const world = hostileProviderWorld();
 * test('…', async () => {
 * 	const { client, log } = world.setup();
 * 	world.op.mintIdToken = …;
 * });
 */
export function hostileProviderWorld() {
	const world = {} as { op: HostileOpenIdProvider };
	beforeEach(async () => {
		world.op = await startHostileOpenIdProvider();
	});
	afterEach(() => world.op.close());
	function setup(overrides: Partial<AuthConfig> = {}) {
		const adapter = MemoryAdapter();
		const log = quietLogger();
		const config: AuthConfig = { secret: TEST_SECRET, trustHost: true, adapter, logger: log.logger, providers: [world.op.provider()], ...overrides };
		return { adapter, log, config, client: testClient(config), browser: () => testClient(config) };
	}
	return Object.assign(world, { setup });
}
