// Client authentication at the token endpoint, end to end over HTTP against two independent OpenID
// Providers: oidc-provider, which percent-decodes HTTP Basic credentials (RFC 6749 §2.3.1), and
// oauth2-mock-server behind a check that compares them as sent (./second-idp.ts). Every method of
// `client.token_endpoint_auth_method`, with client ids and secrets holding - . _ ~ : % + and spaces.

import { exportJWK, exportPKCS8, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startDemoIdp, type DemoClient } from '../../../../../scripts/demo-idp.js';
import type { OAuthConfig, Session } from '../types.js';
import { testClient } from './client.js';
import { loginAtIdp } from './idp-browser.js';
import { Browser, INTEGRATIONS, startApps } from './integrations.js';
import {
	ORIGIN,
	expectErrorRedirect,
	oauthConfig,
	quietLogger,
	setsSession,
	signInThroughIdp,
	startRecordingProxy,
	type RecordedRequest
} from './oauth-fixtures.js';
import { SECOND_IDP_USER, startSecondIdp, type SecondIdpClient } from './second-idp.js';

/** Ids and secrets with the characters identity providers disagree about. */
const CREDENTIALS = {
	unreserved: { id: 'kit-gate.app_~1', secret: 'se-cr.et_~0123456789abcdefghijklmnopqrstuvwx' },
	spaces: { id: 'kitgate app 2', secret: 'a pass phrase: with colons:, -._~ 0123456789' },
	colonInId: { id: 'tenant:kitgate-3', secret: 'colon-in-id.secret_~0123456789abcdefghijk' },
	percent: { id: 'kitgate%app+4', secret: '100%+sure secret_~0123456789abcdefghijklm' }
} as const;
type CredentialName = keyof typeof CREDENTIALS;
const NAMES = Object.keys(CREDENTIALS) as CredentialName[];

type Method = 'client_secret_basic' | 'client_secret_post' | 'client_secret_jwt' | 'private_key_jwt' | 'none';
const SECRET_METHODS = ['client_secret_basic', 'client_secret_post', 'client_secret_jwt'] as const;
const SHORT: Record<Method, string> = {
	client_secret_basic: 'basic',
	client_secret_post: 'post',
	client_secret_jwt: 'jwt',
	private_key_jwt: 'key',
	none: 'none'
};

/** The client id registered for `credentials` with `method` (servers register one method per client). */
const clientIdOf = (name: CredentialName, method: Method) => `${CREDENTIALS[name].id}-${SHORT[method]}`;

/**
 * The decoded Authorization header each client_secret_basic client must send, written out by hand:
 * unreserved characters, spaces and a `:` in the secret as they are; `%`, `+` and a `:` in the id encoded.
 */
const EXPECTED_BASIC: Record<CredentialName, string> = {
	unreserved: 'kit-gate.app_~1-basic:se-cr.et_~0123456789abcdefghijklmnopqrstuvwx',
	spaces: 'kitgate app 2-basic:a pass phrase: with colons:, -._~ 0123456789',
	colonInId: 'tenant%3Akitgate-3-basic:colon-in-id.secret_~0123456789abcdefghijk',
	percent: 'kitgate%25app%2B4-basic:100%25%2Bsure secret_~0123456789abcdefghijklm'
};

/** private_key_jwt clients: one per way of giving the key. */
interface KeyClient {
	clientId: string;
	client: Record<string, unknown>;
	publicJwk: JWK;
}
let keyClients: Record<'jwk' | 'pem' | 'cryptoKey', KeyClient>;
const PUBLIC_CLIENT_ID = 'public ~app:5%-none';

async function makeKeyClients(): Promise<typeof keyClients> {
	const rsa = await generateKeyPair('RS256', { extractable: true });
	const ec = await generateKeyPair('ES256', { extractable: true });
	const ed = await generateKeyPair('Ed25519'); // the private CryptoKey cannot be exported
	const publicJwk = async (key: CryptoKey, kid: string, alg: string) => ({ ...(await exportJWK(key)), kid, alg, use: 'sig' });
	return {
		// a private JWK: its own kid is the assertion's
		jwk: {
			clientId: 'jwk-key:client ~1-key',
			client: { private_key: { ...(await exportJWK(rsa.privateKey)), kid: 'rsa-1', alg: 'RS256' } },
			publicJwk: await publicJwk(rsa.publicKey, 'rsa-1', 'RS256')
		},
		// a PKCS#8 PEM string with a separate kid
		pem: {
			clientId: 'pem-key.client_2-key',
			client: { private_key: await exportPKCS8(ec.privateKey), private_key_kid: 'ec-1' },
			publicJwk: await publicJwk(ec.publicKey, 'ec-1', 'ES256')
		},
		// a non-extractable WebCrypto key
		cryptoKey: {
			clientId: 'crypto-key client%3-key',
			client: { private_key: ed.privateKey, private_key_kid: 'ed-1' },
			publicJwk: await publicJwk(ed.publicKey, 'ed-1', 'Ed25519')
		}
	};
}

/** Every client, in the second IdP's shape (oidc-provider gets the same metadata). */
function registeredClients(): SecondIdpClient[] {
	return [
		...NAMES.flatMap((name) =>
			SECRET_METHODS.map((method) => ({ client_id: clientIdOf(name, method), client_secret: CREDENTIALS[name].secret, token_endpoint_auth_method: method }))
		),
		...Object.values(keyClients).map((key) => ({ client_id: key.clientId, token_endpoint_auth_method: 'private_key_jwt' as const, jwk: key.publicJwk })),
		{ client_id: PUBLIC_CLIENT_ID, token_endpoint_auth_method: 'none' }
	];
}

interface Server {
	name: string;
	issuer: string;
	proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
	/** The user every sign-in gets. */
	email: string;
	refusals?: string[];
	close(): Promise<void>;
}

let apps: Awaited<ReturnType<typeof startApps>>;
let decoding: Server;
let literal: Server;

beforeAll(async () => {
	keyClients = await makeKeyClients();
	apps = await startApps();
	const redirect_uris = [ORIGIN, apps.express.origin, apps.sveltekit.origin].map((origin) => `${origin}/auth/callback/idp`);
	const clients = registeredClients().map(({ jwk, ...client }) => ({
		...client,
		redirect_uris,
		...(jwk ? { jwks: { keys: [jwk] } } : {})
	}));
	const [oidcProvider, second] = await Promise.all([
		startDemoIdp({ clients: clients as DemoClient[] }),
		startSecondIdp(registeredClients())
	]);
	decoding = { name: 'oidc-provider', email: 'demo@kitgate.dev', ...oidcProvider, proxy: await startRecordingProxy(oidcProvider.issuer) };
	literal = { name: 'oauth2-mock-server', email: SECOND_IDP_USER.email, ...second, proxy: await startRecordingProxy(second.issuer) };
});
afterAll(async () => {
	for (const server of [decoding, literal]) await Promise.all([server?.close(), server?.proxy.close()]);
	await apps?.closeAll();
});
beforeEach(() => {
	for (const server of [decoding, literal]) {
		if (server) server.proxy.requests.length = 0;
		server?.refusals?.splice(0);
	}
});

/** An OIDC provider on `server` whose token requests pass through its recording proxy. */
function providerOn(server: Server, clientId: string, overrides: Partial<OAuthConfig> = {}): OAuthConfig {
	return { id: 'idp', name: server.name, type: 'oidc', issuer: server.issuer, clientId, token: `${server.proxy.url}/token`, ...overrides };
}

function secretProvider(server: Server, name: CredentialName, method: (typeof SECRET_METHODS)[number]): OAuthConfig {
	return providerOn(server, clientIdOf(name, method), { clientSecret: CREDENTIALS[name].secret, client: { token_endpoint_auth_method: method } });
}

/** A whole sign-in through `Auth()` with `provider`; the callback's answer, the token request sent, the log. */
async function signIn(server: Server, provider: OAuthConfig) {
	const log = quietLogger();
	const client = testClient(oauthConfig([provider], { logger: log.logger }));
	const response = await signInThroughIdp(client, 'idp');
	const session = (await (await client.request('/auth/session')).json()) as Session | null;
	return { response, session, log, tokenRequest: tokenRequests(server).at(-1) as RecordedRequest };
}

const tokenRequests = (server: Server) => server.proxy.requests.filter((request) => request.path === '/token');
const basicOf = (request: RecordedRequest) => {
	const [scheme, credentials] = String(request.headers.authorization).split(' ');
	expect(scheme).toBe('Basic');
	return Buffer.from(credentials, 'base64').toString('utf8');
};

async function expectSignedIn(server: Server, result: Awaited<ReturnType<typeof signIn>>) {
	expect(result.response.status, result.log.text()).toBe(302);
	expect(result.response.headers.get('location'), result.log.text()).toBe(`${ORIGIN}/dashboard`);
	expect(setsSession(result.response)).toBe(true);
	expect(result.session?.user?.email).toBe(server.email);
}

describe('oidc-provider (percent-decodes Basic credentials)', () => {
	test.each(NAMES)('client_secret_basic with the %s id and secret: signs in', async (name) => {
		const result = await signIn(decoding, secretProvider(decoding, name, 'client_secret_basic'));
		await expectSignedIn(decoding, result);
		expect(basicOf(result.tokenRequest)).toBe(EXPECTED_BASIC[name]);
		expect(new URLSearchParams(result.tokenRequest.body).has('client_secret')).toBe(false);
	});

	test.each(NAMES)('client_secret_post with the %s id and secret: signs in, both in the form body', async (name) => {
		const result = await signIn(decoding, secretProvider(decoding, name, 'client_secret_post'));
		await expectSignedIn(decoding, result);
		expect(result.tokenRequest.headers.authorization).toBeUndefined();
		const form = new URLSearchParams(result.tokenRequest.body);
		expect([form.get('client_id'), form.get('client_secret')]).toEqual([clientIdOf(name, 'client_secret_post'), CREDENTIALS[name].secret]);
	});

	test.each(NAMES)('client_secret_jwt with the %s id and secret: signs in with an HS256 assertion', async (name) => {
		const result = await signIn(decoding, secretProvider(decoding, name, 'client_secret_jwt'));
		await expectSignedIn(decoding, result);
		expect(result.tokenRequest.headers.authorization).toBeUndefined();
		expect(assertionOf(result.tokenRequest)).toMatchObject({ header: { alg: 'HS256' }, payload: { iss: clientIdOf(name, 'client_secret_jwt'), aud: decoding.issuer } });
	});

	test.each(['jwk', 'pem', 'cryptoKey'] as const)('private_key_jwt with the key as a %s: signs in with a signed assertion and its kid', async (form) => {
		const key = keyClients[form];
		const result = await signIn(decoding, providerOn(decoding, key.clientId, { client: { token_endpoint_auth_method: 'private_key_jwt', ...key.client } }));
		await expectSignedIn(decoding, result);
		expect(assertionOf(result.tokenRequest)).toMatchObject({
			header: { alg: key.publicJwk.alg, kid: key.publicJwk.kid },
			payload: { iss: key.clientId, sub: key.clientId, aud: decoding.issuer }
		});
	});

	test('none (a public client, id with a space, ":" and "%"): signs in with the client id in the body only', async () => {
		const result = await signIn(decoding, providerOn(decoding, PUBLIC_CLIENT_ID));
		await expectSignedIn(decoding, result);
		const form = new URLSearchParams(result.tokenRequest.body);
		expect([form.get('client_id'), form.has('client_secret'), result.tokenRequest.headers.authorization]).toEqual([PUBLIC_CLIENT_ID, false, undefined]);
	});
});

describe('oauth2-mock-server behind a check that compares Basic credentials as sent (no decoding)', () => {
	test.each(['unreserved', 'spaces'] as const)('client_secret_basic with the %s id and secret: signs in (nothing in them needs encoding)', async (name) => {
		const result = await signIn(literal, secretProvider(literal, name, 'client_secret_basic'));
		await expectSignedIn(literal, result);
		expect(basicOf(result.tokenRequest)).toBe(EXPECTED_BASIC[name]);
		expect(literal.refusals).toEqual([]);
	});

	test.each([
		['colonInId', /unknown client "tenant%3Akitgate-3-basic"/],
		['percent', /unknown client "kitgate%25app%2B4-basic"/]
	] as const)(
		'client_secret_basic with the %s id and secret is REFUSED (":" in an id, "%" and "+" must be encoded for decoding servers): such servers need client_secret_post',
		async (name, refusal) => {
			const result = await signIn(literal, secretProvider(literal, name, 'client_secret_basic'));
			expectErrorRedirect(result.response, 'OAuthCallbackError');
			expect(result.log.text()).toMatch(/the token response failed: the identity provider answered 401/);
			expect(basicOf(result.tokenRequest)).toBe(EXPECTED_BASIC[name]);
			expect(literal.refusals?.at(-1)).toMatch(refusal);
		}
	);

	test.each(NAMES)('client_secret_post with the %s id and secret: signs in', async (name) => {
		const result = await signIn(literal, secretProvider(literal, name, 'client_secret_post'));
		await expectSignedIn(literal, result);
		const form = new URLSearchParams(result.tokenRequest.body);
		expect([form.get('client_id'), form.get('client_secret')]).toEqual([clientIdOf(name, 'client_secret_post'), CREDENTIALS[name].secret]);
	});

	test.each(NAMES)('client_secret_jwt with the %s id and secret: signs in with an HS256 assertion', async (name) => {
		const result = await signIn(literal, secretProvider(literal, name, 'client_secret_jwt'));
		await expectSignedIn(literal, result);
		expect(assertionOf(result.tokenRequest).payload).toMatchObject({ iss: clientIdOf(name, 'client_secret_jwt'), aud: literal.issuer });
	});

	test.each(['jwk', 'pem', 'cryptoKey'] as const)('private_key_jwt with the key as a %s: signs in with a signed assertion and its kid', async (form) => {
		const key = keyClients[form];
		const result = await signIn(literal, providerOn(literal, key.clientId, { client: { token_endpoint_auth_method: 'private_key_jwt', ...key.client } }));
		await expectSignedIn(literal, result);
		expect(assertionOf(result.tokenRequest).header).toMatchObject({ alg: key.publicJwk.alg, kid: key.publicJwk.kid });
	});

	test('private_key_jwt is the default when client.private_key is set', async () => {
		const key = keyClients.jwk;
		const result = await signIn(literal, providerOn(literal, key.clientId, { client: key.client }));
		await expectSignedIn(literal, result);
		expect(new URLSearchParams(result.tokenRequest.body).get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
	});

	test('none (a public client, id with a space, ":" and "%"): signs in', async () => {
		await expectSignedIn(literal, await signIn(literal, providerOn(literal, PUBLIC_CLIENT_ID)));
	});

	test('a wrong secret is refused (the check is real)', async () => {
		const provider = { ...secretProvider(literal, 'unreserved', 'client_secret_basic'), clientSecret: 'not-the-secret' };
		const result = await signIn(literal, provider);
		expectErrorRedirect(result.response, 'OAuthCallbackError');
		expect(literal.refusals).toEqual(['wrong client_secret for "kit-gate.app_~1-basic"']);
	});
});

describe.each(['decoding', 'literal'] as const)('token refresh authenticates the same way (%s server)', (which) => {
	test('client_secret_basic with spaces and ":" in the secret: the refresh request carries the same Basic credentials and succeeds', async () => {
		const server = which === 'decoding' ? decoding : literal;
		const provider = { ...secretProvider(server, 'spaces', 'client_secret_basic'), refresh: { skewSeconds: 365 * 24 * 3600 } };
		const log = quietLogger();
		const client = testClient(oauthConfig([provider], { logger: log.logger }));
		expect(setsSession(await signInThroughIdp(client, 'idp'))).toBe(true);
		const session = (await (await client.request('/auth/session')).json()) as Session | null;
		const refresh = tokenRequests(server).find((request) => new URLSearchParams(request.body).get('grant_type') === 'refresh_token');
		expect(refresh, log.text()).toBeDefined();
		expect(basicOf(refresh as RecordedRequest)).toBe(EXPECTED_BASIC.spaces);
		expect(session?.error, log.text()).toBeUndefined();
		expect(log.warnings.join('\n')).not.toMatch(/refresh-token-refused/);
	});
});

describe.each(INTEGRATIONS)('%s over HTTP', (integration) => {
	test.each(['decoding', 'literal'] as const)('signs in at the %s server with client_secret_basic (spaces, ":" in the secret) and with private_key_jwt', async (which) => {
		const server = which === 'decoding' ? decoding : literal;
		const app = apps[integration];
		for (const provider of [
			secretProvider(server, 'spaces', 'client_secret_basic'),
			providerOn(server, keyClients.pem.clientId, { client: { token_endpoint_auth_method: 'private_key_jwt', ...keyClients.pem.client } })
		]) {
			const log = quietLogger();
			app.use(oauthConfig([provider], { logger: log.logger }));
			const browser = new Browser();
			const csrfToken = await browser.csrfToken(app.origin);
			const started = await browser.request(`${app.origin}/auth/signin/idp`, { form: { csrfToken, callbackUrl: '/' } });
			expect(started.status).toBe(302);
			const back = await loginAtIdp(started.headers.get('location') as string);
			const done = await browser.request(back);
			expect(done.headers.get('location'), log.text()).toBe(`${app.origin}/`);
			expect((await browser.session(app.origin))?.user?.email).toBe(server.email);
		}
		const sent = tokenRequests(server);
		expect(sent).toHaveLength(2);
		expect(basicOf(sent[0])).toBe(EXPECTED_BASIC.spaces);
		expect(assertionOf(sent[1]).header).toMatchObject({ alg: 'ES256', kid: 'ec-1' });
	});
});

/** The decoded header and claims of the client assertion in a token request body. */
function assertionOf(request: RecordedRequest): { header: Record<string, unknown>; payload: Record<string, unknown> } {
	const assertion = new URLSearchParams(request.body).get('client_assertion');
	expect(assertion).toEqual(expect.any(String));
	const [header, payload] = (assertion as string).split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
	return { header, payload };
}
