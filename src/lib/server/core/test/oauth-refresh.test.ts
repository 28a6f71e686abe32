// Upstream token refresh (`refresh: true`) against the real IdP: refresh before `expires_at`,
// rotation kept, one refresh for concurrent reads, `RefreshTokenError` when the IdP refuses.
// JWT sessions keep the tokens in the cookie; database sessions on the adapter account. When a
// token is due (isDue alone): flows/oauth/token-refresh.test.ts.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { decodeJwt, encodeJwt } from '../crypto/jwt.js';
import { UPSTREAM_TOKEN_KEY, type UpstreamTokens } from '../flows/oauth/token-refresh.js';
import type { Adapter, Session } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import {
	idpProvider,
	oauthConfig,
	quietLogger,
	setsSession,
	signInThroughIdp,
	startRecordingProxy,
	testIdpWorld,
	type RecordedRequest
} from './oauth-fixtures.js';
import { memoryAndSqliteAdapters } from './stored-adapters.js';

const HOUR = 3600 * 1000;

const world = testIdpWorld();
let proxy: { url: string; requests: RecordedRequest[]; close: () => Promise<void> };
beforeAll(async () => {
	// the token endpoint is reached through a recording pass-through, to count refresh requests
	proxy = await startRecordingProxy(world.idp.issuer);
});
afterAll(async () => {
	await proxy.close();
});
beforeEach(() => {
	proxy.requests.length = 0;
});

const refreshRequests = () => proxy.requests.filter((r) => new URLSearchParams(r.body).get('grant_type') === 'refresh_token');

function refreshingProvider() {
	return idpProvider(world.idp.issuer, { id: 'refresh', refresh: true, token: `${proxy.url}/token` });
}

async function readSession(client: ReturnType<typeof testClient>): Promise<{ session: Session | null; response: Response }> {
	const response = await client.request('/auth/session');
	return { session: (await response.clone().json()) as Session | null, response };
}

describe('JWT sessions', () => {
	let clock: { now: number };
	function setup() {
		clock = { now: Date.now() };
		const log = quietLogger();
		const client = testClient(oauthConfig([refreshingProvider()], { now: () => clock.now, logger: log.logger }));
		return { client, log };
	}
	async function upstreamOf(client: ReturnType<typeof testClient>): Promise<UpstreamTokens> {
		const token = await decodeJwt({ token: client.jar.get('kitgate.session-token'), secret: TEST_SECRET, salt: 'kitgate.session-token', now: clock.now });
		return token?.[UPSTREAM_TOKEN_KEY] as UpstreamTokens;
	}

	test('keeps the access token fresh, persists the rotated refresh token, refreshes once for concurrent reads', async () => {
		const { client } = setup();
		expect(setsSession(await signInThroughIdp(client, 'refresh'))).toBe(true);
		const first = await upstreamOf(client);
		expect(first).toMatchObject({ provider: 'refresh', providerAccountId: 'demo', token_type: 'bearer' });
		expect(first.refresh_token).toEqual(expect.any(String));
		expect(first.expires_at).toBe(Math.floor(clock.now / 1000) + 3600);

		// not due yet: nothing happens
		await readSession(client);
		expect(refreshRequests()).toHaveLength(0);

		// within the 60 s skew: refreshed with the engine clock
		clock.now += HOUR - 30_000;
		const { session, response } = await readSession(client);
		expect(session?.error).toBeUndefined();
		expect(setsSession(response)).toBe(true);
		const second = await upstreamOf(client);
		expect(refreshRequests()).toHaveLength(1);
		expect(second.access_token).not.toBe(first.access_token);
		expect(second.refresh_token).not.toBe(first.refresh_token);
		expect(second.expires_at).toBe(Math.floor(clock.now / 1000) + 3600);

		// two requests with the same (expiring) cookie at once: one refresh, the same new tokens
		clock.now += HOUR;
		const [a, b] = await Promise.all([client.request('/auth/session'), client.request('/auth/session')]);
		expect(refreshRequests()).toHaveLength(2);
		const tokensOf = async (r: Response) => {
			const cookie = r.headers.getSetCookie().find((c) => c.startsWith('kitgate.session-token='))!;
			const value = cookie.split(';')[0].slice('kitgate.session-token='.length);
			const token = await decodeJwt({ token: value, secret: TEST_SECRET, salt: 'kitgate.session-token', now: clock.now });
			return token?.[UPSTREAM_TOKEN_KEY] as UpstreamTokens;
		};
		const [ta, tb] = await Promise.all([tokensOf(a), tokensOf(b)]);
		expect(ta.access_token).toBe(tb.access_token);
		expect(ta.access_token).not.toBe(second.access_token);
		expect(((await a.json()) as Session).error).toBeUndefined();
		expect(((await b.json()) as Session).error).toBeUndefined();
	});

	test('a refused refresh token: session.error = "RefreshTokenError", and it is not retried', async () => {
		const { client, log } = setup();
		await signInThroughIdp(client, 'refresh');
		const token = await decodeJwt({ token: client.jar.get('kitgate.session-token'), secret: TEST_SECRET, salt: 'kitgate.session-token' });
		const revoked = {
			...token,
			[UPSTREAM_TOKEN_KEY]: { ...(token?.[UPSTREAM_TOKEN_KEY] as UpstreamTokens), refresh_token: 'revoked-refresh-token' }
		};
		client.jar.set(
			'kitgate.session-token',
			await encodeJwt({ token: revoked, secret: TEST_SECRET, salt: 'kitgate.session-token', maxAge: 3600 * 24, now: clock.now })
		);
		clock.now += 2 * HOUR;
		const { session } = await readSession(client);
		expect(session?.error).toBe('RefreshTokenError');
		expect(session?.user?.email).toBe('demo@kitgate.dev');
		expect(log.warnings.join('\n')).toMatch(/refresh-token-refused.*invalid_grant/);
		expect(log.warnings.join('\n')).not.toContain('revoked-refresh-token');
		const again = await readSession(client);
		expect(again.session?.error).toBe('RefreshTokenError');
		expect(refreshRequests()).toHaveLength(1);
	});

	test('providers without `refresh` keep no upstream tokens in the cookie', async () => {
		clock = { now: Date.now() };
		const client = testClient(oauthConfig([idpProvider(world.idp.issuer, { id: 'refresh' })]));
		await signInThroughIdp(client, 'refresh');
		expect(await upstreamOf(client)).toBeUndefined();
	});
});

const adapters = memoryAndSqliteAdapters('refresh');

describe.each(adapters)('database sessions (%s)', (_name, makeAdapter) => {
	let adapter: Required<Adapter> & { close?: () => Promise<void> };
	let clock: { now: number };
	let log: ReturnType<typeof quietLogger>;
	let client: ReturnType<typeof testClient>;
	beforeEach(() => {
		adapter = makeAdapter();
		clock = { now: Date.now() };
		log = quietLogger();
		client = testClient(oauthConfig([refreshingProvider()], { adapter, now: () => clock.now, logger: log.logger }));
	});
	afterEach(() => adapter.close?.());

	test('refreshes the stored account (updateAccount) when due, rotation kept', async () => {
		await signInThroughIdp(client, 'refresh');
		const before = await adapter.getAccount('demo', 'refresh');
		expect(before?.refresh_token).toEqual(expect.any(String));
		expect(client.jar.has('kitgate.session-token-upstream')).toBe(true);

		await readSession(client);
		expect(refreshRequests()).toHaveLength(0);

		clock.now += HOUR;
		const [a, b] = await Promise.all([readSession(client), readSession(client)]);
		expect(a.session?.error).toBeUndefined();
		expect(b.session?.error).toBeUndefined();
		expect(refreshRequests()).toHaveLength(1);
		const after = await adapter.getAccount('demo', 'refresh');
		expect(after?.access_token).not.toBe(before?.access_token);
		expect(after?.refresh_token).not.toBe(before?.refresh_token);
		expect(after?.expires_at).toBe(Math.floor(clock.now / 1000) + 3600);
		expect(after?.userId).toBe(before?.userId);
	});

	test('a refused refresh token: session.error = "RefreshTokenError"', async () => {
		await signInThroughIdp(client, 'refresh');
		await adapter.updateAccount({ provider: 'refresh', providerAccountId: 'demo', refresh_token: `revoked-${crypto.randomUUID()}` });
		clock.now += 2 * HOUR;
		expect((await readSession(client)).session?.error).toBe('RefreshTokenError');
		expect((await readSession(client)).session?.error).toBe('RefreshTokenError');
		expect(refreshRequests()).toHaveLength(1);
	});
});
