// An OpenID Provider that answers kitgate's `fetch` in process (`vi.stubGlobal`): discovery, JWKS,
// the authorization step (done by the test, as the user's browser would), a token endpoint that
// checks the code and PKCE, and userinfo. Every ID token goes through `mintIdToken`, which gets
// the header and claims a well-behaved provider would sign and may sign anything else instead
// (another algorithm, another key, other claims, a token kept from an earlier sign-in). Also
// answers an attacker's JWKS URL, so a test can show kitgate never fetches it. Unit tests: no socket.

import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair, type CryptoKey, type JWK, type JWTHeaderParameters } from 'jose';
import { expect, vi } from 'vitest';
import { clearDiscoveryCache } from '../flows/oauth/oauth-metadata.js';
import type { OAuthConfig } from '../types.js';
import type { TestClient } from './oauth-fixtures.js';

export const OP_ISSUER = 'https://op.example.test';
/** A JWKS URL the attacker controls: it publishes the attacker's key. */
export const ATTACKER_JWKS = 'https://attacker.example.test/jwks.json';
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

export interface InProcessOp {
	issuer: string;
	clientId: string;
	/** Fields laid over the discovery document on every answer (set them with `changeMetadata`). */
	metadata: Record<string, unknown>;
	/** Sets `metadata` and forgets the cached discovery document, so the next sign-in reads the new one. */
	changeMetadata(fields: Record<string, unknown>): void;
	/** Makes each ID token from what a well-behaved provider would sign; default: signs those parts. */
	mintIdToken: (parts: IdTokenParts, tools: MintTools) => Promise<string> | string;
	/** Every URL kitgate fetched, in order. */
	fetched: string[];
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
	/** The attacker's key pair (its public JWK is at ATTACKER_JWKS). */
	attacker: { privateKey: CryptoKey; jwk: JWK };
	tools: MintTools;
	/**
	 * The user's trip through the authorization endpoint kitgate redirected to: the redirect back
	 * to kitgate's callback with a code for `user` (and the state; `extra` adds parameters).
	 */
	authorize(location: string, user: OpUser, extra?: Record<string, string>): string;
}

/** The provider's and the attacker's key pairs, made once per test file (RSA key generation is slow). */
let keyPairs: Promise<Awaited<ReturnType<typeof generateKeyPair>>[]> | undefined;

function base64url(value: unknown): string {
	return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * Starts the provider: stubs `fetch` (undo with `vi.unstubAllGlobals()`) and forgets cached
 * discovery documents, so each test sees this provider's keys.
 *
 * @example
 * const op = await startInProcessOp();
 * op.mintIdToken = (parts, { unsecured }) => unsecured({ ...parts, header: { alg: 'none' } });
 */
export async function startInProcessOp(): Promise<InProcessOp> {
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

	const op: InProcessOp = {
		issuer: OP_ISSUER,
		clientId: OP_CLIENT.id,
		metadata: {},
		changeMetadata(fields) {
			op.metadata = fields;
			clearDiscoveryCache();
		},
		mintIdToken: (parts, { sign }) => sign(parts),
		fetched: [],
		tokenRequests: 0,
		idTokens: [],
		issued: [],
		userinfo: (user) => ({ ...user }),
		published: { privateKey: published.privateKey, privateJwk: await exportJWK(published.privateKey), jwk: publishedJwk, pem: await exportSPKI(published.publicKey) },
		attacker: { privateKey: attacker.privateKey, jwk: attackerJwk },
		tools,
		authorize(location, user, extra = {}) {
			const url = new URL(location);
			expect(`${url.origin}${url.pathname}`).toBe(`${OP_ISSUER}/authorize`);
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
		}
	};

	const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
	vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
		const request = new Request(input, init);
		op.fetched.push(request.url);
		const url = new URL(request.url);
		if (url.href === ATTACKER_JWKS) return json(200, { keys: [attackerJwk] });
		if (url.origin !== OP_ISSUER) throw new TypeError(`fetch failed: ${url.origin} is not the in-process provider`);
		switch (url.pathname) {
			case '/.well-known/openid-configuration':
				return json(200, {
					issuer: OP_ISSUER,
					authorization_endpoint: `${OP_ISSUER}/authorize`,
					token_endpoint: `${OP_ISSUER}/token`,
					userinfo_endpoint: `${OP_ISSUER}/userinfo`,
					jwks_uri: `${OP_ISSUER}/jwks`,
					response_types_supported: ['code'],
					subject_types_supported: ['public'],
					id_token_signing_alg_values_supported: ['RS256'],
					...op.metadata
				});
			case '/jwks':
				return json(200, { keys: [publishedJwk] });
			case '/token': {
				const body = new URLSearchParams(await request.text());
				const [clientId, secret] = Buffer.from((request.headers.get('authorization') ?? '').replace(/^Basic /, ''), 'base64').toString('utf8').split(':').map(decodeURIComponent);
				if (clientId !== OP_CLIENT.id || secret !== OP_CLIENT.secret) return json(401, { error: 'invalid_client' });
				const entry = codes.get(body.get('code') ?? '');
				codes.delete(body.get('code') ?? '');
				if (!entry || entry.redirectUri !== body.get('redirect_uri') || entry.clientId !== clientId) return json(400, { error: 'invalid_grant' });
				if (entry.challenge !== createHash('sha256').update(body.get('code_verifier') ?? '').digest('base64url')) return json(400, { error: 'invalid_grant' });
				op.tokenRequests++;
				const now = Math.floor(Date.now() / 1000);
				const { user } = entry;
				const parts: IdTokenParts = {
					header: { alg: 'RS256', kid: 'op-key', typ: 'JWT' },
					claims: {
						iss: OP_ISSUER,
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
				return json(200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, refresh_token: refreshToken, id_token: idToken });
			}
			case '/userinfo': {
				const user = tokens.get((request.headers.get('authorization') ?? '').replace(/^Bearer /, ''));
				return user ? json(200, op.userinfo(user)) : json(401, { error: 'invalid_token' });
			}
			default:
				return json(404, { error: 'not_found' });
		}
	});
	return op;
}

/** An OIDC provider on the in-process OP (PKCE, state and nonce: the defaults), with `overrides`. */
export function opProvider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
	return { id: 'op', name: 'OP', type: 'oidc', issuer: OP_ISSUER, clientId: OP_CLIENT.id, clientSecret: OP_CLIENT.secret, ...overrides };
}

/** `POST /auth/signin/{providerId}`: the authorization URL kitgate redirects the browser to. */
export async function startAt(client: TestClient, providerId = 'op'): Promise<URL> {
	const csrfToken = await client.csrfToken();
	const started = await client.request(`/auth/signin/${providerId}`, { form: { csrfToken, callbackUrl: '/dashboard' } });
	expect(started.status, 'a redirect to the provider').toBe(302);
	return new URL(started.headers.get('location') as string);
}

/** A whole sign-in of `user` at `op` in `client`: start, authorization, callback. Returns the callback's response. */
export async function signInAt(op: InProcessOp, client: TestClient, user: OpUser, extra: Record<string, string> = {}, providerId = 'op'): Promise<Response> {
	return client.request(op.authorize((await startAt(client, providerId)).href, user, extra));
}
