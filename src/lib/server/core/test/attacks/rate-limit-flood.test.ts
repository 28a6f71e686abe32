// Attack 7 of the security issue, over HTTP on both integrations: flooding the memory rate-limit
// store with new keys (a fresh username per request) made it drop its oldest live counters, and
// with them an active lockout. The store now drops expired counters only; when it is still full
// it refuses new keys (those attempts are RateLimited) and never forgets a live one.
// The store is made small (maxKeys 20) so the flood takes 40 requests instead of 50,000: the same
// code path as the default size.

import { describe, expect, test } from 'vitest';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { adaCredentialsWorld } from '../credentials-fixture.js';
import { attackWorld } from './flows.js';

const world = attackWorld();

const MAX_KEYS = 20;
const WINDOW_SECONDS = 900;

/** ada/lovelace is the only valid pair (credentials-fixture.ts); three failures lock an identifier; the clock is the test's. */
function serve(app: AppServer, rateLimit: { perAddress?: number } = {}) {
	// both apps see 127.0.0.1: the test names the client address in a header of its own
	const world = adaCredentialsWorld({
		store: MemoryRateLimitStore({ maxKeys: MAX_KEYS }),
		credentials: { perIdentifier: 3, perAddress: 0, windowSeconds: WINDOW_SECONDS, ...rateLimit },
		clientAddress: (request) => request.headers.get('x-test-client') ?? undefined
	});
	app.use(world.config);
	return world;
}

/** One credentials POST; the error type of the answer (null: signed in). */
async function attempt(app: AppServer, browser: Browser, username: string, password: string, headers: Record<string, string> = {}) {
	const csrfToken = await browser.csrfToken(app.origin);
	const response = await browser.request(`${app.origin}/auth/callback/credentials`, { form: { csrfToken, username, password }, headers });
	if (headers['x-auth-return-redirect'] === '1') {
		const body = (await response.json()) as { error?: string; url?: string };
		return { error: body.error ?? (body.url ? new URL(body.url).searchParams.get('error') : null), status: response.status, retryAfter: response.headers.get('retry-after') };
	}
	return { error: new URL(response.headers.get('location')!).searchParams.get('error'), status: response.status, retryAfter: null };
}

async function lockAda(app: AppServer, browser: Browser) {
	for (let i = 0; i < 3; i++) expect((await attempt(app, browser, 'ada', `wrong-${i}`)).error).toBe('CredentialsSignin');
	expect((await attempt(app, browser, 'ada', 'lovelace')).error).toBe('RateLimited');
}

describe.each(INTEGRATIONS)('%s', (integration) => {
	const app = () => world.apps[integration];

	test('a flood of new usernames does not unlock a locked account', async () => {
		const { calls } = serve(app());
		const browser = new Browser();
		await lockAda(app(), browser);
		for (let i = 0; i < 2 * MAX_KEYS; i++) await attempt(app(), browser, `flood-${i}`, 'guess');
		const answer = await attempt(app(), browser, 'ada', 'lovelace');
		expect(answer.error).toBe('RateLimited');
		expect(calls.filter((name) => name === 'ada')).toHaveLength(3);
		expect(await browser.session(app().origin)).toBeNull();
	});

	test('a flood that fills the store is refused itself, with a Retry-After, and never reaches authorize', async () => {
		const { calls, log } = serve(app());
		const browser = new Browser();
		for (let i = 0; i < MAX_KEYS; i++) expect((await attempt(app(), browser, `flood-${i}`, 'guess')).error).toBe('CredentialsSignin');
		const refused = await attempt(app(), browser, 'grace', 'guess', { 'x-auth-return-redirect': '1' });
		expect(refused).toMatchObject({ status: 429, error: 'RateLimited' });
		expect(Number(refused.retryAfter)).toBeGreaterThan(0);
		expect(Number(refused.retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS);
		expect(calls).not.toContain('grace');
		expect(log.warnings.join('\n')).toMatch(/rate-limit store is full/);
	});

	test('expired counters make room first: after the window the store takes new keys again, and the lockout has ended as it should', async () => {
		const { clock } = serve(app());
		const browser = new Browser();
		await lockAda(app(), browser);
		for (let i = 0; i < MAX_KEYS; i++) await attempt(app(), browser, `flood-${i}`, 'guess');
		expect((await attempt(app(), browser, 'grace', 'guess')).error).toBe('RateLimited');
		clock.now += WINDOW_SECONDS * 1000;
		expect((await attempt(app(), browser, 'grace', 'guess')).error).toBe('CredentialsSignin');
		expect((await attempt(app(), browser, 'ada', 'lovelace')).error).toBeNull();
	});

	test('a client address over its limit adds no keys: one address cannot fill the store', async () => {
		const { calls } = serve(app(), { perAddress: 5 });
		const browser = new Browser();
		const from = (address: string) => ({ 'x-test-client': address });
		for (let i = 0; i < 2 * MAX_KEYS; i++) await attempt(app(), browser, `flood-${i}`, 'guess', from('198.51.100.1'));
		expect(calls).toHaveLength(5);
		// another client, another identifier: counted as usual, not refused for want of room
		expect((await attempt(app(), browser, 'grace', 'guess', from('203.0.113.7'))).error).toBe('CredentialsSignin');
		expect(calls).toContain('grace');
	});
});
