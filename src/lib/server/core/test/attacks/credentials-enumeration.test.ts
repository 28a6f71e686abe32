// "Check the other routes for the same leak" (security issue), for the credentials sign-in over
// HTTP on both integrations: an unknown user and a known user with a wrong password get the same
// answer (status, redirect URL, body, cookies), neither sooner than `minFailureMs`, and the same
// RateLimited answer once limited. Timing is asserted only as a lower bound with a margin.

import { describe, expect, test } from 'vitest';
import Credentials from '../../../providers/credentials.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import type { AuthConfig } from '../../types.js';
import { TEST_SECRET } from '../client.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { quietLogger } from '../oauth-fixtures.js';
import { attackWorld } from './flows.js';

const world = attackWorld();

const FLOOR_MS = 250;

/**
 * ada is the only known user. As a careless app might, `authorize` answers an unknown user at once
 * and a known one only after a (simulated) slow password hash: the floor must hide the difference.
 */
function serve(app: AppServer, minFailureMs = FLOOR_MS) {
	const clock = { now: Date.UTC(2030, 5, 1) };
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		now: () => clock.now,
		logger: quietLogger().logger,
		rateLimit: { store: MemoryRateLimitStore(), credentials: { perIdentifier: 2, perAddress: 0, windowSeconds: 600 } },
		providers: [
			Credentials({
				minFailureMs,
				credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
				authorize: async ({ username, password }) => {
					if (username !== 'ada') return null;
					await new Promise((resolve) => setTimeout(resolve, 60));
					return password === 'lovelace' ? { id: 'u-ada', name: 'Ada' } : null;
				}
			})
		]
	};
	app.use(config);
	return { clock };
}

/** Everything a client can see of an answer but the values of cookies (CSRF tokens are random), and how long it took. */
async function answerTo(app: AppServer, username: string, headers: Record<string, string> = {}) {
	const browser = new Browser();
	const csrfToken = await browser.csrfToken(app.origin);
	const started = performance.now();
	const response = await browser.request(`${app.origin}/auth/callback/credentials`, {
		form: { csrfToken, username, password: 'wrong', callbackUrl: '/account' },
		headers
	});
	const body = await response.text();
	const elapsed = performance.now() - started;
	const cookies = response.headers.getSetCookie().map((line) => line.replace(/^([^=]+)=[^;]*/, '$1=…'));
	const shown = { status: response.status, location: response.headers.get('location'), retryAfter: response.headers.get('retry-after'), body, cookies };
	return { shown, elapsed };
}

describe.each(INTEGRATIONS)('%s', (integration) => {
	const app = () => world.apps[integration];

	test('an unknown user and a wrong password: the same answer, neither sooner than minFailureMs', async () => {
		serve(app());
		const unknown = await answerTo(app(), 'nobody');
		const wrong = await answerTo(app(), 'ada');
		expect(unknown.shown).toEqual(wrong.shown);
		expect(unknown.shown.status).toBe(302);
		expect(new URL(unknown.shown.location!).searchParams.get('error')).toBe('CredentialsSignin');
		// setTimeout may fire a millisecond early; the measured time also includes the request itself
		expect(unknown.elapsed).toBeGreaterThanOrEqual(FLOOR_MS - 5);
		expect(wrong.elapsed).toBeGreaterThanOrEqual(FLOOR_MS - 5);
	});

	test('script callers (X-Auth-Return-Redirect) get the same answer too', async () => {
		serve(app(), 0);
		const headers = { 'x-auth-return-redirect': '1' };
		expect((await answerTo(app(), 'nobody', headers)).shown).toEqual((await answerTo(app(), 'ada', headers)).shown);
	});

	test.each([
		['form posts', {}],
		['script callers', { 'x-auth-return-redirect': '1' }]
	])('once limited, an unknown and a known user get the same RateLimited answer (%s)', async (_name, headers: Record<string, string>) => {
		serve(app(), 0);
		const limited = [];
		for (const username of ['nobody', 'ada']) {
			for (let i = 0; i < 2; i++) await answerTo(app(), username, headers);
			limited.push((await answerTo(app(), username, headers)).shown);
		}
		expect(limited[0]).toEqual(limited[1]);
		expect(JSON.stringify(limited[0])).toContain('RateLimited');
	});
});
