// Attack review: SvelteKit form actions (`signIn`, `signOut`) in an app whose hook reads
// `locals.auth()` on every request (fixtures/review-hooks-app: the harness app plus
// `sequence(handle, async ({ event, resolve }) => { await event.locals.auth(); return resolve(event); })`).
//
// kitgate's `handle` appends the cookies of that session read AFTER `resolve()` has returned, and
// SvelteKit adds the action's `event.cookies` inside `resolve()`. So when the session read
// re-issues the JWT (once `updateAge` has passed, default one day, or whenever a jwt callback
// changes the token), the OLD session cookie is written after the action's cookie:
// - `signOut`: the clearing `Max-Age=0` is followed by the re-issued token: the user stays signed in;
// - `signIn`: the new user's session is followed by the re-issued token of the session the browser
//   had before: a session planted earlier (cookie tossing, a shared computer) survives the sign-in.
// FAILS today: JWT sign-out and sign-in; database sign-in (the re-extended cookie of the deleted
// old row replaces the new one: the user ends signed out and the new row is never used). Database
// sign-out holds (the old row is deleted) and is kept as a regression test.

import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Credentials from '../../../providers/credentials.js';
import type { AuthConfig } from '../../types.js';
import { TEST_SECRET } from '../client.js';
import { Browser } from '../integrations.js';

const APP = fileURLToPath(new URL('../../../../../../fixtures/review-hooks-app/', import.meta.url));
const BUILD = join(APP, 'build', `run-${process.pid}-${Date.now()}`);

let server: Server;
let origin: string;
const clock = { now: Date.now() };
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
	execFileSync('npx', ['vite', 'build'], { cwd: APP, env: { ...process.env, HARNESS_BUILD_DIR: BUILD }, stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000 });
	server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	process.env.ORIGIN = origin;
	const { handler } = (await import(/* @vite-ignore */ pathToFileURL(join(BUILD, 'handler.js')).href)) as {
		handler: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
	};
	server.on('request', (req, res) => handler(req, res, () => res.writeHead(404).end()));
}, 180_000);

afterAll(async () => {
	server?.closeAllConnections();
	await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
	rmSync(BUILD, { recursive: true, force: true });
});

function use(config: AuthConfig): void {
	(globalThis as { __kitgateHarness?: { config: AuthConfig } }).__kitgateHarness = { config };
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
	const signOutToday = strategy === 'jwt' ? ' (FAILS today: still signed in)' : ' (holds today: the old row is deleted)';
	const signInToday = strategy === 'jwt' ? ' (FAILS today: the old session wins)' : ' (FAILS today: no session at all, the new row is orphaned)';

	test(`the signOut form action signs the user out, also once updateAge has passed${signOutToday}`, async () => {
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

	test(`the signIn form action replaces a session the browser already had${signInToday}`, async () => {
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
