// Attack 5 of the security issue, over HTTP on both integrations: a client that rotates
// X-Forwarded-For. With the proxy hop count (Express `trust proxy` = 1; adapter-node
// ADDRESS_HEADER=x-forwarded-for with XFF_DEPTH=1) entries the client adds change nothing. Where
// the client chooses its address outright (`trust proxy: true`, or no proxy in front), it gets a
// fresh per-address budget each time, but a locked identifier stays locked: the per-identifier
// count never depends on the address, and new address keys cannot push it out of the store.

import { describe, expect, test } from 'vitest';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import type { RateLimitOptions } from '../../types.js';
import { Browser, INTEGRATIONS, type AppOptions, type AppServer } from '../integrations.js';
import { adaCredentialsWorld } from '../credentials-fixture.js';
import { attackWorld } from './flows.js';

// adapter-node reads these when its handler loads (in startApps): the client address is the
// rightmost X-Forwarded-For entry, the one a single proxy in front appends
process.env.ADDRESS_HEADER = 'x-forwarded-for';
process.env.XFF_DEPTH = '1';

const world = attackWorld();

/** ada/lovelace is the only valid pair (credentials-fixture.ts); real time, as the apps'. */
function serve(app: AppServer, credentials: NonNullable<RateLimitOptions['credentials']>, options: AppOptions, maxKeys?: number) {
	const world = adaCredentialsWorld({ store: MemoryRateLimitStore(maxKeys ? { maxKeys } : {}), credentials }, { now: undefined });
	app.use(world.config, options);
	return world;
}

/** One credentials POST carrying `forwardedFor`; the error type of the answer (null: signed in). */
async function attempt(app: AppServer, browser: Browser, username: string, password: string, forwardedFor: string) {
	const csrfToken = await browser.csrfToken(app.origin);
	const response = await browser.request(`${app.origin}/auth/callback/credentials`, {
		form: { csrfToken, username, password },
		headers: { 'x-forwarded-for': forwardedFor }
	});
	return new URL(response.headers.get('location')!).searchParams.get('error');
}

/** A different documentation address for every call. */
let next = 0;
const freshAddress = () => `198.18.${Math.floor(++next / 250)}.${next % 250}`;

describe.each(INTEGRATIONS)('%s', (integration) => {
	const app = () => world.apps[integration];

	test('with the hop count, entries a client adds to X-Forwarded-For give it no fresh per-address budget', async () => {
		const { calls } = serve(app(), { perIdentifier: 0, perAddress: 3 }, { trustProxy: 1 });
		const browser = new Browser();
		// what reaches the app: the client's own entries, then the address the proxy appended
		const via = (typed: string, client = '203.0.113.9') => `${typed}, ${client}`;
		for (let i = 0; i < 3; i++) expect(await attempt(app(), browser, `user-${i}`, 'guess', via(freshAddress()))).toBe('CredentialsSignin');
		for (let i = 3; i < 8; i++) expect(await attempt(app(), browser, `user-${i}`, 'guess', via(freshAddress()))).toBe('RateLimited');
		expect(calls).toHaveLength(3);
		// another client behind the same proxy is not affected
		expect(await attempt(app(), browser, 'user-x', 'guess', via(freshAddress(), '198.51.100.7'))).toBe('CredentialsSignin');
	});

	test('an address the client chooses outright does not unlock a locked identifier', async () => {
		// Express `trust proxy: true` believes the leftmost entry; the SvelteKit app has no proxy in front
		const { calls } = serve(app(), { perIdentifier: 3, perAddress: 2 }, { trustProxy: true });
		const browser = new Browser();
		for (let i = 0; i < 3; i++) expect(await attempt(app(), browser, 'ada', `wrong-${i}`, freshAddress())).toBe('CredentialsSignin');
		for (let i = 0; i < 20; i++) expect(await attempt(app(), browser, 'ada', 'lovelace', freshAddress())).toBe('RateLimited');
		expect(calls).toHaveLength(3);
		expect(await browser.session(app().origin)).toBeNull();
		// what the rotation does buy: every address is new, so the per-address limit (2) never applies
		for (let i = 0; i < 4; i++) expect(await attempt(app(), browser, `user-${i}`, 'guess', freshAddress())).toBe('CredentialsSignin');
	});

	test('rotating addresses cannot push a lockout out of a bounded store', async () => {
		const maxKeys = 20;
		const { calls } = serve(app(), { perIdentifier: 3, perAddress: 2 }, { trustProxy: true }, maxKeys);
		const browser = new Browser();
		for (let i = 0; i < 3; i++) await attempt(app(), browser, 'ada', `wrong-${i}`, freshAddress());
		// every attempt from a new address adds an address key
		for (let i = 0; i < 2 * maxKeys; i++) await attempt(app(), browser, 'ada', 'guess', freshAddress());
		expect(await attempt(app(), browser, 'ada', 'lovelace', freshAddress())).toBe('RateLimited');
		expect(calls.filter((name) => name === 'ada')).toHaveLength(3);
	});
});
