// Attacks: SvelteKit form actions (`signIn`, `signOut`) in an app whose hook reads
// `locals.auth()` on every request (the harness app with `readSessionInHook`: a `sequence` after
// kitgate's handle that awaits `event.locals.auth()`).
//
// kitgate's `handle` appends the cookies of that session read AFTER `resolve()` has returned, and
// SvelteKit adds the action's `event.cookies` inside `resolve()`. So when the session read
// re-issues the JWT (once `updateAge` has passed, default one day, or whenever a jwt callback
// changes the token), the OLD session cookie is written after the action's cookie:
// - `signOut`: the clearing `Max-Age=0` is followed by the re-issued token: the user stays signed in;
// - `signIn`: the new user's session is followed by the re-issued token of the session the browser
//   had before: a session planted earlier (cookie tossing, a shared computer) survives the sign-in.
// Failed before the session read wrote its cookies through `event.cookies` (a later write of the
// action now replaces them): JWT sign-out and sign-in; database sign-in (the re-extended cookie of
// the deleted old row replaced the new one). Database sign-out held (the old row is deleted).

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Credentials from '../../../providers/credentials.js';
import type { AuthConfig } from '../../types.js';
import { TEST_SECRET } from '../client.js';
import { Browser, startApp, type AppServer } from '../integrations.js';

let app: AppServer;
let origin: string;
const clock = { now: Date.now() };
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
	app = await startApp('sveltekit');
	origin = app.origin;
});
afterAll(() => app.close());

function use(config: AuthConfig): void {
	app.use(config, { readSessionInHook: true });
}

function configFor(strategy: 'jwt' | 'database'): AuthConfig {
	return {
		secret: TEST_SECRET,
		trustHost: true,
		now: () => clock.now,
		logger: { error: () => {}, warn: () => {}, debug: () => {} },
		...(strategy === 'database' ? { adapter: MemoryAdapter(), session: { strategy: 'database' as const } } : {}),
		providers: [
			Credentials({
				credentials: { username: {} },
				authorize: ({ username }) => ({ id: `user-${String(username)}`, name: String(username), email: `${String(username)}@example.com` })
			})
		]
	};
}

async function signInThroughRoute(browser: Browser, username: string): Promise<void> {
	const csrfToken = await browser.csrfToken(origin);
	const response = await browser.request(`${origin}/auth/callback/credentials`, { form: { csrfToken, username } });
	expect(response.status).toBe(302);
}

describe.each(['jwt', 'database'] as const)('%s sessions, a hook that reads locals.auth() on every request', (strategy) => {

	test('the signOut form action signs the user out, also once updateAge has passed', async () => {
		use(configFor(strategy));
		clock.now = Date.now();
		const browser = new Browser();
		await signInThroughRoute(browser, 'ada');
		expect((await browser.session(origin))?.user?.email).toBe('ada@example.com');

		clock.now += 2 * DAY; // past the default updateAge (one day), well within maxAge (30 days)
		const signedOut = await browser.request(`${origin}/signout`, { form: { callbackUrl: '/' }, headers: { accept: 'text/html' } });
		console.log(`[${strategy}] POST /signout (form action) -> ${signedOut.status}, Set-Cookie:\n  ${signedOut.headers.getSetCookie().map((c) => c.slice(0, 70)).join('\n  ')}`);
		expect(signedOut.status).toBe(303);

		const after = await browser.session(origin);
		console.log(`[${strategy}] session after signing out: ${JSON.stringify(after)}`);
		expect(after, 'still signed in after the signOut action').toBeNull();
	});

	test('the signIn form action replaces a session the browser already had', async () => {
		use(configFor(strategy));
		clock.now = Date.now();
		const browser = new Browser();
		// a session planted in the victim's browser (cookie tossing from a sibling host, a shared computer, a login CSRF)
		await signInThroughRoute(browser, 'mallory');

		clock.now += 2 * DAY;
		const signedIn = await browser.request(`${origin}/signin`, { form: { providerId: 'credentials', username: 'ada', redirectTo: '/' }, headers: { accept: 'text/html' } });
		console.log(`[${strategy}] POST /signin (form action) as ada -> ${signedIn.status}, Set-Cookie:\n  ${signedIn.headers.getSetCookie().map((c) => c.slice(0, 70)).join('\n  ')}`);
		expect(signedIn.status).toBe(303);

		const after = await browser.session(origin);
		console.log(`[${strategy}] session after ada signed in: ${JSON.stringify(after?.user)}`);
		expect(after?.user?.email, 'the browser must hold ada\'s new session, not the one it had').toBe('ada@example.com');
	});
});
