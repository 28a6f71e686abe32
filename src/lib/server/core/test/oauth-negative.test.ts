// OAuth callbacks that must fail: missing or tampered check cookies, wrong state, PKCE mismatch,
// replayed codes, foreign or bad ID tokens, IdP errors. Each ends in an error redirect with no
// session, no 500, nothing stored, and the cause in the log.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import type { Adapter, OAuthConfig } from '../types.js';
import { testClient } from './client.js';
import { startHostileOpenIdProvider, type HostileOpenIdProvider } from './hostile-openid-provider.js';
import { loginAtIdp } from './idp-browser.js';
import {
	CLIENTS,
	ORIGIN,
	authorizationUrl,
	expectErrorRedirect,
	idpProvider,
	oauthConfig,
	quietLogger,
	setsSession,
	startSignIn,
	testIdpWorld,
	throughIdp
} from './oauth-fixtures.js';

const world = testIdpWorld();
let fake: HostileOpenIdProvider;
beforeAll(async () => {
	fake = await startHostileOpenIdProvider();
});
afterAll(() => fake.close());

/** A client on a config with a memory adapter and a capturing logger, for one provider (or more). */
function setup(providers: OAuthConfig[]) {
	const adapter = MemoryAdapter();
	const log = quietLogger();
	const client = testClient(oauthConfig(providers, { adapter, logger: log.logger }));
	return { adapter, log, client };
}

/** Nothing of the demo user reached the adapter. */
async function expectNothingStored(adapter: Required<Adapter>, provider = 'idp', id = 'demo', email = 'demo@kitgate.dev') {
	expect(await adapter.getUserByAccount({ provider, providerAccountId: id })).toBeNull();
	expect(await adapter.getUserByEmail(email)).toBeNull();
}

describe('check cookies', () => {
	test('callback without the check cookies (another browser): InvalidCheck', async () => {
		const { adapter, log, client } = setup([idpProvider(world.idp.issuer)]);
		const back = await throughIdp(client, 'idp');
		const stranger = testClient(oauthConfig([idpProvider(world.idp.issuer)], { adapter, logger: log.logger }));
		expectErrorRedirect(await stranger.request(back), 'InvalidCheck');
		expect(log.text()).toMatch(/PKCE code verifier cookie .* is missing, expired or invalid/);
		await expectNothingStored(adapter);
	});

	test('a tampered PKCE cookie reads as missing: InvalidCheck', async () => {
		const { adapter, client } = setup([idpProvider(world.idp.issuer)]);
		const back = await throughIdp(client, 'idp');
		const value = client.jar.get('kitgate.pkce.code_verifier') as string;
		const middle = Math.floor(value.length / 2);
		client.jar.set('kitgate.pkce.code_verifier', value.slice(0, middle) + (value[middle] === 'A' ? 'B' : 'A') + value.slice(middle + 1));
		expectErrorRedirect(await client.request(back), 'InvalidCheck');
		await expectNothingStored(adapter);
	});

	test('PKCE verifier of another attempt (valid cookie, wrong verifier): the IdP refuses, OAuthCallbackError', async () => {
		const { adapter, log, client } = setup([idpProvider(world.idp.issuer)]);
		await startSignIn(client, 'idp');
		const earlierVerifier = client.jar.get('kitgate.pkce.code_verifier') as string;
		const back = await loginAtIdp(authorizationUrl(await startSignIn(client, 'idp')).href);
		client.jar.set('kitgate.pkce.code_verifier', earlierVerifier);
		expectErrorRedirect(await client.request(back), 'OAuthCallbackError');
		expect(log.text()).toMatch(/token response failed: the identity provider answered 400 "invalid_grant"/);
		await expectNothingStored(adapter);
	});

	test('wrong state: InvalidCheck, and the check cookies are cleared all the same', async () => {
		const { adapter, log, client } = setup([idpProvider(world.idp.issuer, { checks: ['pkce', 'state'] })]);
		const back = new URL(await throughIdp(client, 'idp'));
		back.searchParams.set('state', 'forged-state-value');
		const response = await client.request(back.href);
		expectErrorRedirect(response, 'InvalidCheck');
		expect(log.text()).toMatch(/failed its checks.*state/);
		const cleared = response.headers.getSetCookie().filter((c) => /max-age=0/i.test(c)).map((c) => c.split('=')[0]);
		expect(cleared).toEqual(expect.arrayContaining(['kitgate.state', 'kitgate.pkce.code_verifier', 'kitgate.callback-url']));
		await expectNothingStored(adapter);
	});

	test('state missing from the callback when it was sent: InvalidCheck', async () => {
		const { client } = setup([idpProvider(world.idp.issuer, { checks: ['state'] })]);
		const back = new URL(await throughIdp(client, 'idp'));
		back.searchParams.delete('state');
		expectErrorRedirect(await client.request(back.href), 'InvalidCheck');
	});

	test('check cookies made for provider A do not validate a callback for provider B', async () => {
		const other = idpProvider(world.idp.issuer, { id: 'other' });
		const { adapter, log, client } = setup([idpProvider(world.idp.issuer, { checks: ['pkce', 'state'] }), { ...other, checks: ['pkce', 'state'] }]);
		const back = new URL(await throughIdp(client, 'idp'));
		back.pathname = '/auth/callback/other';
		expectErrorRedirect(await client.request(back.href), 'InvalidCheck');
		expect(log.text()).toContain('sign-in with "other" is missing');
		await expectNothingStored(adapter, 'other');
	});
});

describe('replayed authorization code', () => {
	test('the same callback URL twice: the second finds no check cookies (InvalidCheck), no new session', async () => {
		const { client } = setup([idpProvider(world.idp.issuer)]);
		const back = await throughIdp(client, 'idp');
		const first = await client.request(back);
		expect(first.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
		expect(setsSession(first)).toBe(true);
		expectErrorRedirect(await client.request(back), 'InvalidCheck');
	});

	test('replayed with the original cookies too: the IdP refuses the used code, OAuthCallbackError', async () => {
		const { adapter, log, client } = setup([idpProvider(world.idp.issuer)]);
		const back = await throughIdp(client, 'idp');
		const cookiesBefore = new Map(client.jar);
		expect(setsSession(await client.request(back))).toBe(true);
		const attacker = testClient(oauthConfig([idpProvider(world.idp.issuer)], { adapter, logger: log.logger }));
		for (const [name, value] of cookiesBefore) attacker.jar.set(name, value);
		expectErrorRedirect(await attacker.request(back), 'OAuthCallbackError');
		expect(log.text()).toMatch(/token (request|response) failed.*invalid_grant/);
	});
});

describe('ID token validation', () => {
	test('an ID token for another audience (issued to a second client): OAuthCallbackError', async () => {
		// the authorization and the code exchange happen as `kitgate-second`; kitgate expects `kitgate-basic`
		const discovery = (await (await fetch(`${world.idp.issuer}/.well-known/openid-configuration`)).json()) as { token_endpoint: string };
		const second = CLIENTS.second;
		const provider = idpProvider(world.idp.issuer, {
			authorization: { params: { client_id: second.client_id } },
			token: {
				request: async ({ params }) => {
					const { code, code_verifier, redirect_uri } = params as Record<string, string>;
					return fetch(discovery.token_endpoint, {
						method: 'POST',
						headers: {
							'content-type': 'application/x-www-form-urlencoded',
							authorization: `Basic ${Buffer.from(`${second.client_id}:${second.client_secret}`).toString('base64')}`
						},
						body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier, redirect_uri })
					});
				}
			}
		});
		const { adapter, log, client } = setup([provider]);
		expectErrorRedirect(await client.request(await throughIdp(client, 'idp')), 'OAuthCallbackError');
		expect(log.text()).toMatch(/validating the token response failed: unexpected JWT "aud"/);
		await expectNothingStored(adapter);
	});

	/** What the crafted provider's token endpoint answers with: an ID token that is valid, or wrong in one way. */
	const ID_TOKENS = {
		valid: (parts, { sign }) => sign(parts),
		expired: (parts, { sign }) => sign({ ...parts, claims: { ...parts.claims, iat: Number(parts.claims.iat) - 7200, exp: Number(parts.claims.iat) - 3600 } }),
		// the provider's kid, signed with a key its JWKS does not hold
		'bad-signature': (parts, { sign }) => sign(parts, fake.attacker.privateKey),
		'wrong-nonce': (parts, { sign }) => sign({ ...parts, claims: { ...parts.claims, nonce: 'not-the-nonce' } })
	} satisfies Record<string, HostileOpenIdProvider['mintIdToken']>;

	/** A sign-in of `fake-user` with the crafted provider, whose token endpoint answers the `mode` ID token. */
	async function fakeSignIn(mode: keyof typeof ID_TOKENS, checks: OAuthConfig['checks'] = ['pkce']) {
		const context = setup([fake.provider({ id: 'fake', checks })]);
		const started = authorizationUrl(await startSignIn(context.client, 'fake'));
		fake.mintIdToken = ID_TOKENS[mode];
		const response = await context.client.request(fake.authorize(started.href, { sub: 'fake-user', email: 'fake@example.test' }));
		return { ...context, response };
	}

	test('control: a valid ID token from the fake issuer signs in (so the failures below are the ID token)', async () => {
		const { response, adapter } = await fakeSignIn('valid');
		expect(response.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
		expect(setsSession(response)).toBe(true);
		expect(await adapter.getUserByAccount({ provider: 'fake', providerAccountId: 'fake-user' })).not.toBeNull();
	});

	test('an expired ID token: OAuthCallbackError', async () => {
		const { response, log, adapter } = await fakeSignIn('expired');
		expectErrorRedirect(response, 'OAuthCallbackError');
		expect(log.text()).toMatch(/"exp" \(expiration time\) claim value, expiration is past/);
		await expectNothingStored(adapter, 'fake', 'fake-user', 'fake@example.test');
	});

	test('an ID token signed with a key not in the JWKS: OAuthCallbackError', async () => {
		const { response, log, adapter } = await fakeSignIn('bad-signature');
		expectErrorRedirect(response, 'OAuthCallbackError');
		expect(log.text()).toMatch(/checking the ID token's signature failed/);
		await expectNothingStored(adapter, 'fake', 'fake-user', 'fake@example.test');
	});

	test('an ID token whose nonce is not this sign-in\'s: InvalidCheck', async () => {
		const { response, log, adapter } = await fakeSignIn('wrong-nonce', ['pkce', 'nonce']);
		expectErrorRedirect(response, 'InvalidCheck');
		expect(log.text()).toMatch(/nonce does not match/);
		await expectNothingStored(adapter, 'fake', 'fake-user', 'fake@example.test');
	});
});

describe('identity provider errors', () => {
	test('the user cancels at the IdP (error=access_denied): OAuthCallbackError, reason logged', async () => {
		const { adapter, log, client } = setup([idpProvider(world.idp.issuer)]);
		const back = await throughIdp(client, 'idp', { abort: true });
		expect(new URL(back).searchParams.get('error')).toBe('access_denied');
		const response = await client.request(back);
		expectErrorRedirect(response, 'OAuthCallbackError');
		expect(new URL(response.headers.get('location') as string).searchParams.get('callbackUrl')).toBe(`${ORIGIN}/dashboard`);
		expect(log.text()).toMatch(/the authorization failed: the identity provider returned "access_denied"/);
		await expectNothingStored(adapter);
	});

	test('a callback with no parameters at all: InvalidCheck, never a 500', async () => {
		const { client } = setup([idpProvider(world.idp.issuer)]);
		expectErrorRedirect(await client.request('/auth/callback/idp'), 'InvalidCheck');
		const posted = await client.request('/auth/callback/idp', { form: { code: 'x', state: 'y' } });
		expectErrorRedirect(posted, 'InvalidCheck');
	});

	test('codes and tokens never reach the log', async () => {
		const { log, client } = setup([idpProvider(world.idp.issuer)]);
		const back = new URL(await throughIdp(client, 'idp'));
		const code = back.searchParams.get('code') as string;
		const cookiesBefore = new Map(client.jar);
		await client.request(back.href);
		for (const [name, value] of cookiesBefore) client.jar.set(name, value);
		await client.request(back.href);
		expect(log.errors.length).toBeGreaterThan(0);
		expect(log.text()).not.toContain(code);
		for (const error of log.errors) expect(JSON.stringify(error.cause ?? null)).not.toContain(code);
	});
});
