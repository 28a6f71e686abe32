// A sign-in over a JWT session ends the session it replaces (ASVS 7.2.4): `establishSession` revokes
// the replaced token's session id, so a copy of the old cookie taken before (a stolen or fixated
// one) is no session once the browser signs in again, as that user or as another. On the default
// revocation store (this process's memory), through `Auth()`; unit: no socket.

import { describe, expect, test } from 'vitest';
import type { AuthConfig, Session } from '../types.js';
import { testClient } from './client.js';
import { anyUserWorld } from './credentials-fixture.js';
import { setsSession } from './oauth-fixtures.js';

const COOKIE = 'kitgate.session-token';
const HOUR = 3600_000;

/** The any-username world (credentials-fixture.ts) with `session` over its defaults; JWT sessions, the default revocation store. */
function setup(session: AuthConfig['session'] = {}) {
	const world = anyUserWorld({ session: { updateAge: 3600, ...session } });
	const browser = () => testClient(world.config);
	/** Signs `client` in as `username`; answers its new session cookie. */
	const signIn = async (client: ReturnType<typeof testClient>, username: string) => (await world.signedIn(username, client.jar)).jar.get(COOKIE) as string;
	/** Who the session cookie `value` is, sent alone from a browser of its own (null: no session). */
	const whoIs = async (value: string) => {
		const copy = browser();
		copy.jar.set(COOKIE, value);
		return (await world.sessionOf(copy)).session?.user?.name ?? null;
	};
	return { config: world.config, clock: world.clock, browser, signIn, whoIs };
}

describe('signing in again ends the JWT session it replaces', () => {
	test('JWT: a copy of the cookie taken before signing in again in the same browser is no session; the new cookie is', async () => {
		const { browser, signIn, whoIs } = setup();
		const laptop = browser();
		const first = await signIn(laptop, 'ada');
		expect(await whoIs(first)).toBe('ada');

		const second = await signIn(laptop, 'ada');
		expect(second).not.toBe(first);
		expect(await whoIs(first)).toBeNull();
		expect(await whoIs(second)).toBe('ada');
		// the browser itself goes on with the new session
		expect(((await (await laptop.request('/auth/session')).json()) as Session | null)?.user?.name).toBe('ada');
	});

	test('JWT: signing in as another user in the same browser ends the first user’s session too; that user’s other browsers keep theirs', async () => {
		const { browser, signIn, whoIs } = setup();
		const shared = browser();
		const adaHere = await signIn(shared, 'ada');
		const adaElsewhere = await signIn(browser(), 'ada');

		const bob = await signIn(shared, 'bob');
		expect(await whoIs(adaHere)).toBeNull();
		expect(await whoIs(bob)).toBe('bob');
		// only the replaced session ends: not every session of its user
		expect(await whoIs(adaElsewhere)).toBe('ada');
	});

	test('JWT: the old copy stays ended later on, also when the new session is re-issued', async () => {
		const { clock, browser, signIn, whoIs } = setup();
		const laptop = browser();
		const first = await signIn(laptop, 'ada');
		await signIn(laptop, 'ada');
		clock.now += 2 * HOUR;
		// a read past updateAge re-issues the browser's session
		expect(setsSession(await laptop.request('/auth/session'))).toBe(true);
		expect(await whoIs(first)).toBeNull();
		expect(await whoIs(laptop.jar.get(COOKIE) as string)).toBe('ada');
	});

	test('revocationCheck "refresh": the old copy ends when it is next re-issued, at most updateAge after the new sign-in', async () => {
		const { clock, browser, signIn, whoIs } = setup({ revocationCheck: 'refresh' });
		const laptop = browser();
		const first = await signIn(laptop, 'ada');
		await signIn(laptop, 'ada');
		// not checked on a read that does not re-issue it: the documented limit of "refresh"
		expect(await whoIs(first)).toBe('ada');
		clock.now += HOUR;
		expect(await whoIs(first)).toBeNull();
	});
});
