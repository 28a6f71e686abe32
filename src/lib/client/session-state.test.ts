// The session state's rules, against the real engine (fetch goes to `Auth()`): the layout's session
// until the browser learns a newer one; a new layout session replaces what was learned; one request
// per refresh however many ask; update runs the `jwt` callback; the client helpers announce each change.
// (Rendering, and one state per request on the server: session-state-ssr.test.ts; the browser: e2e/session-state.spec.ts.)

import { afterEach, describe, expect, expectTypeOf, test, vi } from 'vitest';
import type { Session } from '../server/core/types.js';
import { getSession, signIn, signOut, updateSession } from './index.js';
import { SessionState } from './session.svelte.js';
import { adaApp } from './test/ada-app.js';
import { engineBrowser } from './test/engine-browser.js';

const config = adaApp({
	callbacks: {
		// an update may rename the user (the callback validates what the browser sent)
		jwt: ({ token, trigger, session }) => {
			const name = (session as { name?: unknown } | undefined)?.name;
			return trigger === 'update' && typeof name === 'string' ? { ...token, name } : token;
		}
	}
});

const ada = (): Session => ({ user: { name: 'Ada', email: 'ada@example.com' }, expires: '2100-01-01T00:00:00.000Z' });
const signInAda = () => signIn('credentials', { username: 'ada', password: 'lovelace' }, { redirect: false });

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('SessionState', () => {
	test("is the layout's session, with no request", () => {
		const browser = engineBrowser(config);
		const seeded = new SessionState(() => ada());
		expect(seeded.data?.user.email).toBe('ada@example.com');
		expect(seeded.status).toBe('authenticated');
		const anonymous = new SessionState(() => null);
		expect([anonymous.data, anonymous.status]).toEqual([null, 'unauthenticated']);
		// a layout without `session` at all (undefined) is nobody too
		expect(new SessionState(() => undefined).data).toBeNull();
		expect(browser.requests).toEqual([]);
	});

	test('a session learned in the browser replaces the layout one until the layout loads a different session', () => {
		let layout: Session | null = ada();
		const state = new SessionState(() => layout);
		state.set(null);
		expect(state.status).toBe('unauthenticated');
		// the same layout session again (a navigation that did not run the root load): what was learned stays
		layout = ada();
		expect(state.data).toBeNull();
		// the root load ran again and says something else: it is newer than what was learned
		layout = { ...ada(), user: { name: 'Grace', email: 'grace@example.com' } };
		expect(state.data?.user.name).toBe('Grace');
	});

	test('refresh fetches the session once for callers that ask together, and shows it', async () => {
		const browser = engineBrowser(config);
		const state = new SessionState(() => null);
		await signInAda();
		browser.requests.length = 0;
		const [first, second] = await Promise.all([state.refresh(), state.refresh()]);
		expect(browser.requests).toEqual(['GET /auth/session']);
		expect(first).toBe(second);
		expect(state.data?.user.email).toBe('ada@example.com');
		// a later refresh asks again: a sign-out elsewhere shows
		browser.jar.clear();
		await state.refresh();
		expect(state.data).toBeNull();
		expect(browser.requests).toEqual(['GET /auth/session', 'GET /auth/session']);
	});

	test('a refresh that fails keeps what the state knew, and the next one asks again', async () => {
		engineBrowser(config);
		const state = new SessionState(() => ada());
		vi.stubGlobal('fetch', async () => new Response('{"error":"Configuration"}', { status: 500, headers: { 'content-type': 'application/json' } }));
		await expect(state.refresh()).rejects.toThrow(/session could not be read \(500\)/);
		expect(state.data?.user.email).toBe('ada@example.com');
		vi.stubGlobal('fetch', async () => new Response('null', { headers: { 'content-type': 'application/json' } }));
		await expect(state.refresh()).resolves.toBeNull();
		expect(state.data).toBeNull();
	});

	test("update posts the data with a CSRF token; the jwt callback's answer is the new session", async () => {
		const browser = engineBrowser(config);
		await signInAda();
		const state = new SessionState(() => ada(), { basePath: '/auth' });
		const updated = await state.update({ name: 'Ada Lovelace' });
		expect(updated?.user.name).toBe('Ada Lovelace');
		expect(state.data?.user.name).toBe('Ada Lovelace');
		expect(browser.requests.slice(-2)).toEqual(['GET /auth/csrf', 'POST /auth/session']);
		// what the server now says, too
		expect((await getSession())?.user.name).toBe('Ada Lovelace');
	});

	test('the base path is where it asks', async () => {
		const browser = engineBrowser({ ...config, basePath: '/app/auth' });
		await new SessionState(() => null, { basePath: '/app/auth' }).refresh();
		expect(browser.requests).toEqual(['GET /app/auth/session']);
	});

	test("types: the app's Session by default, or the app's own type", () => {
		expectTypeOf(new SessionState(() => null).data).toEqualTypeOf<Session | null>();
		type Mine = { user: { id: string }; expires: string; plan: 'free' | 'pro' };
		expectTypeOf(new SessionState<Mine>(() => null).data).toEqualTypeOf<Mine | null>();
		expectTypeOf<SessionState['status']>().toEqualTypeOf<'authenticated' | 'unauthenticated'>();
	});
});

describe('the client helpers announce session changes in the page', () => {
	test('signIn staying on the page: ask the server; a failed one, or one that navigates, announces nothing', async () => {
		const browser = engineBrowser(config);
		await signIn('credentials', { username: 'ada', password: 'wrong' }, { redirect: false });
		expect(browser.announced).toEqual([]);
		await signInAda();
		expect(browser.announced).toEqual([{}]);
		await signIn('credentials', { username: 'ada', password: 'lovelace' });
		expect(browser.navigations).toHaveLength(1);
		expect(browser.announced).toEqual([{}]);
	});

	test('signOut staying on the page: nobody; updateSession: the new session', async () => {
		const browser = engineBrowser(config);
		await signInAda();
		const session = await updateSession({ name: 'Countess' });
		expect(browser.announced.at(-1)).toEqual({ session });
		expect(session?.user.name).toBe('Countess');
		await signOut({ redirect: false });
		expect(browser.announced.at(-1)).toEqual({ session: null });
		expect(await getSession()).toBeNull();
	});

	test('updateSession without a session answers null; a refused one throws and announces nothing', async () => {
		const browser = engineBrowser(config);
		await expect(updateSession({ name: 'x' })).resolves.toBeNull();
		vi.stubGlobal('fetch', async (input: string) =>
			String(input).endsWith('/csrf') ? Response.json({ csrfToken: 'forged' }) : Response.json({ error: 'MissingCSRF' }, { status: 403 })
		);
		await expect(updateSession({ name: 'x' })).rejects.toThrow(/\(403\)/);
		expect(browser.announced).toEqual([{ session: null }]);
	});
});
