// Mix-up attacks between two identity providers: a callback naming another issuer (`iss`), and a
// code that provider A's sign-in returns delivered to provider B's callback. Both are refused.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import type { AuthConfig } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { startFaultyIssuer, type FaultyIssuer } from './faulty-issuer.js';
import { expectErrorRedirect, quietLogger, setsSession, type TestClient } from './oauth-fixtures.js';

let honest: FaultyIssuer;
let attacker: FaultyIssuer;
beforeAll(async () => {
	[honest, attacker] = await Promise.all([startFaultyIssuer(), startFaultyIssuer()]);
});
afterAll(async () => {
	await honest.close();
	await attacker.close();
});

function config(): AuthConfig {
	return {
		secret: TEST_SECRET,
		trustHost: true,
		adapter: MemoryAdapter(),
		logger: quietLogger().logger,
		providers: [
			{ id: 'honest', name: 'Honest', type: 'oidc', issuer: honest.issuer, clientId: 'kitgate', clientSecret: 'honest-secret', checks: ['pkce', 'state'] },
			{ id: 'attacker', name: 'Attacker', type: 'oidc', issuer: attacker.issuer, clientId: 'kitgate', clientSecret: 'attacker-secret', checks: ['pkce', 'state'] }
		]
	};
}

/** Starts a sign-in with `providerId`; returns the state the authorization URL carries. */
async function start(client: TestClient, providerId: string): Promise<string> {
	const csrfToken = await client.csrfToken();
	const started = await client.request(`/auth/signin/${providerId}`, { form: { csrfToken } });
	return new URL(started.headers.get('location') as string).searchParams.get('state') as string;
}

describe('mix-up between two identity providers', () => {
	test('control: the honest callback, with its own issuer named, signs in', async () => {
		const client = testClient(config());
		const state = await start(client, 'honest');
		const done = await client.request(`/auth/callback/honest?code=c&state=${state}&iss=${encodeURIComponent(honest.issuer)}`);
		expect(setsSession(done)).toBe(true);
	});

	test('a callback to the honest provider that names the attacker as issuer is refused, and no token request is made', async () => {
		const client = testClient(config());
		const state = await start(client, 'honest');
		const before = honest.tokenRequests + attacker.tokenRequests;
		const done = await client.request(`/auth/callback/honest?code=c&state=${state}&iss=${encodeURIComponent(attacker.issuer)}`);
		expect(honest.tokenRequests + attacker.tokenRequests).toBe(before);
		expect(done.status).toBe(302);
		expect(setsSession(done)).toBe(false);
		expect(['InvalidCheck', 'OAuthCallbackError']).toContain(new URL(done.headers.get('location') as string).searchParams.get('error'));
	});

	test('a sign-in started with the attacker, whose code is delivered to the honest callback, is refused (check cookies are per provider)', async () => {
		const client = testClient(config());
		const state = await start(client, 'attacker');
		const before = honest.tokenRequests + attacker.tokenRequests;
		expectErrorRedirect(await client.request(`/auth/callback/honest?code=c&state=${state}`), 'InvalidCheck');
		expect(honest.tokenRequests + attacker.tokenRequests).toBe(before);
	});
});
