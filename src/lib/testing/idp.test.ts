// startTestIdp: a real OpenID Connect code flow with kitgate's OIDC provider signs in the user the
// test gave it (and any other login, with generated claims); close() stops it.

import { afterAll, beforeAll, expect, test } from 'vitest';
import { Auth } from '../server/core/auth.js';
import { loginAtIdp } from '../server/core/test/idp-browser.js';
import { testClient } from '../server/core/test/client.js';
import type { AuthConfig, Session } from '../server/core/types.js';
import OIDC from '../server/providers/oidc.js';
import { startTestIdp, type TestIdp } from './idp.js';

const ORIGIN = 'http://localhost:3000';
const client = { client_id: 'app', client_secret: 'app-secret-app-secret', redirect_uris: [`${ORIGIN}/auth/callback/oidc`] };
let idp: TestIdp;
let config: AuthConfig;

beforeAll(async () => {
	idp = await startTestIdp({ clients: [client], accounts: [{ id: 'grace', email: 'grace@example.com', email_verified: true, name: 'Grace Hopper' }] });
	config = {
		secret: 'idp-test-secret-idp-test-secret-idp-test',
		trustHost: true,
		providers: [OIDC({ id: 'oidc', name: 'Test IdP', issuer: idp.issuer, clientId: client.client_id, clientSecret: client.client_secret })],
		logger: { error: () => {}, warn: () => {}, debug: () => {} }
	};
});
afterAll(() => idp?.close());

/** Signs in with the OIDC provider as `login` and returns the app's session. */
async function signInAs(login: string): Promise<Session | null> {
	const browser = testClient(config, ORIGIN);
	const started = await browser.request('/auth/signin/oidc', { form: { csrfToken: await browser.csrfToken(), callbackUrl: '/' } });
	expect(started.status).toBe(302);
	const back = await loginAtIdp(started.headers.get('location') as string, { login });
	expect(new URL(back).origin).toBe(ORIGIN);
	const callback = await browser.request(back);
	expect(callback.status).toBe(302);
	return (await (await browser.request('/auth/session')).json()) as Session | null;
}

test('it listens on 127.0.0.1 on a free port and serves its discovery document', async () => {
	expect(idp.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	const discovery = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string };
	expect(discovery.issuer).toBe(idp.issuer);
});

test("a code flow with kitgate's OIDC provider signs in a known account with its claims", async () => {
	expect(await signInAs('grace')).toMatchObject({ user: { email: 'grace@example.com', name: 'Grace Hopper' } });
});

test('any other login signs in with generated claims', async () => {
	expect(await signInAs('lin')).toMatchObject({ user: { email: 'lin@example.test', name: 'lin' } });
});

test('it sends the user back only to a redirect_uri its client registered, and only for a client it knows (no open redirect)', async () => {
	const authorize = (params: Record<string, string>) =>
		fetch(`${idp.issuer}/auth?${new URLSearchParams({ response_type: 'code', scope: 'openid', state: 's', ...params })}`, { redirect: 'manual' });
	for (const params of [
		{ client_id: 'app', redirect_uri: 'https://attacker.example/auth/callback/oidc' },
		{ client_id: 'app', redirect_uri: `${ORIGIN}/auth/callback/oidc/../../elsewhere` },
		{ client_id: 'app', redirect_uri: `${ORIGIN}.attacker.example/auth/callback/oidc` },
		{ client_id: 'someone-else', redirect_uri: 'https://attacker.example/callback' }
	]) {
		const response = await authorize(params);
		expect(response.status).toBe(400);
		expect(response.headers.get('location')).toBeNull();
		expect(await response.text()).toMatch(/invalid_redirect_uri|invalid_client/);
	}
	// the registered one goes on to the login form
	const registered = await authorize({ client_id: 'app', redirect_uri: `${ORIGIN}/auth/callback/oidc` });
	expect(registered.status).toBe(303);
	expect(new URL(registered.headers.get('location') as string, idp.issuer).origin).toBe(idp.issuer);
});

test('it needs a client, and close() stops it', async () => {
	await expect(startTestIdp({ clients: [] })).rejects.toThrow(/at least one client/);
	const other = await startTestIdp({ clients: [client] });
	await other.close();
	await expect(fetch(`${other.issuer}/.well-known/openid-configuration`)).rejects.toThrow();
	// Auth() is still fine with the first one
	expect((await Auth(new Request(`${ORIGIN}/auth/providers`), config)).status).toBe(200);
});
