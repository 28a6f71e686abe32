// getSession() and requireSession() read the session of the request SvelteKit is handling (through
// getRequestEvent(), as inside a remote function), answer a 401 with a stable code or a 303 to the
// sign-in page without one, and say to add kitgate's handle when it did not run.
// Also the remote sign-in and sign-out forms: the same action, the same CSRF rules.

import { describe, expect, expectTypeOf, test } from 'vitest';
import Credentials from '../providers/credentials.js';
import { getSession, requireSession, SESSION_REQUIRED, signInRemote, signOutRemote, SvelteKitAuth, type SvelteKitAuthConfig } from './index.js';
import { signInLocation } from './session-helpers.js';
import type { Session } from '../core/types.js';
import { failures } from '../../failures.js';
import { handled, kitEvent, thrownBy } from './test/events.js';

// the type test: an app's augmentation of Session reaches what the helpers return
declare module '../core/types.js' {
	interface Session {
		/** Set by the app's session callback (this test's augmentation). */
		remoteTestRole?: 'admin' | 'member';
	}
}

const ORIGIN = 'http://localhost:5173';
const config = (pages?: SvelteKitAuthConfig['pages']): SvelteKitAuthConfig => ({
	secret: 'session-helpers-secret-session-helpers-secret',
	trustHost: true,
	session: { strategy: 'jwt' },
	pages,
	providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: ({ username, password }) => (password === 'right' ? { id: String(username), name: String(username) } : null) })]
});

/** The Cookie header of a signed-in user, from a remote sign-in. */
async function signedInCookie(handle = SvelteKitAuth(config()).handle, username = 'ada'): Promise<string> {
	const event = kitEvent(`${ORIGIN}/_app/remote/abc/signIn`, { method: 'POST', headers: { origin: ORIGIN }, isRemoteRequest: true });
	const thrown = await handled(handle, event, () => thrownBy(() => signInRemote({ providerId: 'credentials', username, password: 'right', callbackUrl: `${ORIGIN}/notes` })));
	expect(thrown).toMatchObject({ status: 303, location: `${ORIGIN}/notes` });
	return [...event.setCookies].filter(([, value]) => value).map(([name, value]) => `${name}=${value}`).join('; ');
}

describe('getSession()', () => {
	test('reads the session of the current request, through getRequestEvent()', async () => {
		const { handle } = SvelteKitAuth(config());
		const cookie = await signedInCookie(handle);
		const session = await handled(handle, kitEvent(`${ORIGIN}/notes`, { headers: { cookie } }), () => getSession());
		expect(session?.user.name).toBe('ada');
		expect(await handled(handle, kitEvent(`${ORIGIN}/notes`), () => getSession())).toBeNull();
	});

	test('outside a request, says where it can be called', async () => {
		expect(() => getSession()).toThrow(/inside a remote function, a server load, a form action or an endpoint/);
	});

	test("without kitgate's handle, says to add it", async () => {
		const event = kitEvent(`${ORIGIN}/notes`);
		await expect(handled(async ({ event, resolve }) => resolve(event), event, () => getSession())).rejects.toThrow(/kitgate's handle.*src\/hooks\.server\.ts/);
	});
});

describe('requireSession()', () => {
	test('returns the signed-in session', async () => {
		const { handle } = SvelteKitAuth(config());
		const cookie = await signedInCookie(handle);
		const session = await handled(handle, kitEvent(`${ORIGIN}/notes`, { headers: { cookie } }), () => requireSession());
		expect(session.user.name).toBe('ada');
	});

	test("without a session: SvelteKit's 401 with the stable code (query, command)", async () => {
		const { handle } = SvelteKitAuth(config());
		const thrown = await handled(handle, kitEvent(`${ORIGIN}/notes`, { isRemoteRequest: true }), () => thrownBy(() => requireSession()));
		expect(thrown).toMatchObject({ status: 401, body: { code: SESSION_REQUIRED } });
	});

	test("the 401 is the failure table's SessionRequired row", async () => {
		const { handle } = SvelteKitAuth(config());
		const thrown = await handled(handle, kitEvent(`${ORIGIN}/notes`), () => thrownBy(() => requireSession()));
		expect(SESSION_REQUIRED).toBe('SessionRequired');
		expect(thrown).toMatchObject({ status: failures.SessionRequired.status, body: { message: failures.SessionRequired.defaultMessage, code: 'SessionRequired' } });
	});

	test('without a session, redirectToSignIn: a 303 to the sign-in page coming back here (form, load, action)', async () => {
		const { handle } = SvelteKitAuth(config());
		const event = kitEvent(`${ORIGIN}/notes?tab=2&/remote=abc%2Frename`, { form: { name: 'x' }, headers: { origin: ORIGIN } });
		const thrown = await handled(handle, event, () => thrownBy(() => requireSession({ redirectToSignIn: true })));
		expect(thrown?.status).toBe(303);
		const location = new URL(thrown?.location as string, ORIGIN);
		expect(location.pathname).toBe('/auth/signin');
		expect(location.searchParams.get('callbackUrl')).toBe(`${ORIGIN}/notes?tab=2`);
	});

	test("the sign-in page is the config's pages.signIn", async () => {
		const { handle } = SvelteKitAuth(config({ signIn: '/login' }));
		const thrown = await handled(handle, kitEvent(`${ORIGIN}/notes`), () => thrownBy(() => requireSession({ redirectToSignIn: true })));
		expect(thrown?.location).toBe(`/login?callbackUrl=${encodeURIComponent(`${ORIGIN}/notes`)}`);
	});

	test('on the sign-in page itself, a 401 instead of a redirect to itself (no redirect loop)', async () => {
		const { handle } = SvelteKitAuth(config({ signIn: '/login' }));
		for (const url of [`${ORIGIN}/login`, `${ORIGIN}/login/?callbackUrl=%2Fx`]) {
			const thrown = await handled(handle, kitEvent(url), () => thrownBy(() => requireSession({ redirectToSignIn: true })));
			expect(thrown, url).toMatchObject({ status: 401, body: { code: SESSION_REQUIRED } });
		}
	});

	test('concurrent requests each read their own session (getRequestEvent under load)', async () => {
		const { handle } = SvelteKitAuth(config());
		const cookies = await Promise.all(['ada', 'bo', 'cy'].map((name) => signedInCookie(handle, name)));
		const reads = Array.from({ length: 60 }, (_, index) => {
			const cookie = index % 4 === 3 ? undefined : cookies[index % 4];
			const event = kitEvent(`${ORIGIN}/notes`, { headers: cookie ? { cookie } : {} });
			return handled(handle, event, async () => {
				await new Promise((resolve) => setTimeout(resolve, (index * 7) % 5));
				return (await getSession())?.user.name ?? null;
			});
		});
		expect(await Promise.all(reads)).toEqual(Array.from({ length: 60 }, (_, index) => [...['ada', 'bo', 'cy'], null][index % 4]));
	});

	test('an explicit event works in a load without getRequestEvent', async () => {
		const { handle } = SvelteKitAuth(config());
		const event = kitEvent(`${ORIGIN}/notes`);
		await handle({ event, resolve: async () => new Response() });
		expect(await thrownBy(() => requireSession({ event }))).toMatchObject({ status: 401 });
	});

	test("the app's Session augmentation is what the helpers return (type test)", () => {
		expectTypeOf(requireSession).returns.resolves.toEqualTypeOf<Session>();
		expectTypeOf(getSession).returns.resolves.toEqualTypeOf<Session | null>();
		expectTypeOf<Awaited<ReturnType<typeof requireSession>>['remoteTestRole']>().toEqualTypeOf<'admin' | 'member' | undefined>();
		expectTypeOf<Awaited<ReturnType<App.Locals['auth']>>>().toEqualTypeOf<Session | null>();
	});
});

describe('signInLocation()', () => {
	test('the callback URL is on this site whatever the path says', () => {
		const location = signInLocation(new URL(`${ORIGIN}//evil.example/x`), '/auth/signin');
		const callbackUrl = new URL(new URL(location, ORIGIN).searchParams.get('callbackUrl') as string);
		expect(callbackUrl.origin).toBe(ORIGIN);
	});
	test('an off-site sign-in page stays absolute', () => {
		expect(signInLocation(new URL(`${ORIGIN}/a`), 'https://login.example/start')).toBe(`https://login.example/start?callbackUrl=${encodeURIComponent(`${ORIGIN}/a`)}`);
	});
});

describe('the remote sign-in and sign-out forms', () => {
	test('a credentials refusal is the form’s result, not an error', async () => {
		const { handle } = SvelteKitAuth(config());
		const event = kitEvent(`${ORIGIN}/_app/remote/abc/signIn`, { method: 'POST', headers: { origin: ORIGIN }, isRemoteRequest: true });
		const result = await handled(handle, event, () => signInRemote({ providerId: 'credentials', username: 'ada', password: 'wrong' }));
		expect(result).toEqual({ error: 'CredentialsSignin', code: 'credentials' });
	});

	test("a cross-site post without kitgate's CSRF token signs nobody in (the action's CSRF rule)", async () => {
		const { handle } = SvelteKitAuth(config());
		const event = kitEvent(`${ORIGIN}/_app/remote/abc/signIn`, { method: 'POST', headers: { origin: 'https://evil.example' }, isRemoteRequest: true });
		const thrown = await handled(handle, event, () => thrownBy(() => signInRemote({ providerId: 'credentials', username: 'ada', password: 'right' })));
		expect(thrown?.status).toBe(303);
		expect(thrown?.location).toMatch(/error=MissingCSRF/);
		expect([...event.setCookies.keys()].filter((name) => name.includes('session-token'))).toEqual([]);
	});

	test('sign-out clears the session and goes to the callback URL', async () => {
		const { handle } = SvelteKitAuth(config());
		const cookie = await signedInCookie(handle);
		const event = kitEvent(`${ORIGIN}/_app/remote/abc/signOut`, { method: 'POST', headers: { origin: ORIGIN, cookie }, isRemoteRequest: true });
		const thrown = await handled(handle, event, () => thrownBy(() => signOutRemote({ callbackUrl: `${ORIGIN}/bye` })));
		expect(thrown).toMatchObject({ status: 303, location: `${ORIGIN}/bye` });
		const sessionCookie = [...event.setCookies].find(([name]) => name.includes('session-token'));
		expect(sessionCookie?.[1]).toBe('');
	});

	const remotePost = (headers: Record<string, string>) => kitEvent(`${ORIGIN}/_app/remote/abc/signIn`, { method: 'POST', headers, isRemoteRequest: true });
	const sessionCookies = (event: ReturnType<typeof kitEvent>) => [...event.setCookies].filter(([name, value]) => name.includes('session-token') && value);

	test.each([
		['another site', { origin: 'https://evil.example' }],
		['a same-site subdomain', { origin: 'http://evil.localhost:5173' }],
		['another port', { origin: 'http://localhost:5174' }],
		['an opaque origin (Referrer-Policy: no-referrer)', { origin: 'null' }],
		['no Origin, sec-fetch-site: same-site', { 'sec-fetch-site': 'same-site' }],
		['no Origin, no sec-fetch-site', {}]
	])("login CSRF from %s, even with a csrfToken of the attacker's own in the body: nobody signed in", async (_, headers) => {
		const { handle } = SvelteKitAuth(config());
		const event = remotePost(headers);
		const fields = { providerId: 'credentials', username: 'mallory', password: 'right', csrfToken: 'a'.repeat(64) };
		const thrown = await handled(handle, event, () => thrownBy(() => signInRemote(fields)));
		expect(thrown?.location).toMatch(/error=MissingCSRF/);
		expect(sessionCookies(event)).toEqual([]);
	});

	test('a cross-site sign-out of a signed-in victim clears nothing', async () => {
		const { handle } = SvelteKitAuth(config());
		const cookie = await signedInCookie(handle);
		const event = kitEvent(`${ORIGIN}/_app/remote/abc/signOut`, { method: 'POST', headers: { origin: 'https://evil.example', cookie }, isRemoteRequest: true });
		const thrown = await handled(handle, event, () => thrownBy(() => signOutRemote({ callbackUrl: 'https://evil.example/' })));
		expect(thrown?.location).toMatch(/error=MissingCSRF/);
		expect([...event.setCookies].filter(([name]) => name.includes('session-token'))).toEqual([]);
	});

	test.each(['https://evil.example/x', '//evil.example/x', '/\\evil.example/x', '\\\\evil.example', '/%2F%2Fevil.example', 'https:evil.example', 'javascript:alert(document.domain)', 'http://localhost:5173@evil.example/', ' //evil.example'])(
		'callbackUrl %s: the sign-in stays on this site',
		async (callbackUrl) => {
			const { handle } = SvelteKitAuth(config());
			for (const field of ['callbackUrl', 'redirectTo']) {
				const event = remotePost({ origin: ORIGIN });
				const thrown = await handled(handle, event, () => thrownBy(() => signInRemote({ providerId: 'credentials', username: 'ada', password: 'right', [field]: callbackUrl })));
				expect(thrown?.status).toBe(303);
				expect(new URL(thrown?.location as string, ORIGIN).origin, field).toBe(ORIGIN);
			}
		}
	);

	test.each([
		['repeated fields', { providerId: 'credentials', username: ['ada', 'bo'], password: 'wrong' }],
		['nested fields', { providerId: 'credentials', username: { first: 'ada' }, password: 'wrong' }],
		['an unknown provider', { providerId: 'nope', username: 'ada', password: 'right' }],
		['two providers', { providerId: ['credentials', 'nope'], username: 'ada', password: 'right' }],
		['numbers and booleans', { providerId: 'credentials', username: 7, password: true }],
		['no fields at all', {}]
	])('hostile form data (%s) is a result or a redirect, never a 500', async (_, fields) => {
		const { handle } = SvelteKitAuth(config());
		const thrown = await handled(handle, remotePost({ origin: ORIGIN }), async () => {
			try {
				return { result: await signInRemote(fields as never) };
			} catch (error) {
				return error as { status?: number };
			}
		});
		if ('result' in thrown) {
			expect(thrown.result).toEqual({ error: 'CredentialsSignin', code: 'credentials' });
		} else {
			expect(thrown.status).toBeGreaterThanOrEqual(300);
			expect(thrown.status).toBeLessThan(500);
		}
	});

	// SvelteKit's enhanced remote forms post devalue, which can encode shared and cyclic references
	test.each([
		['a cycle', () => {
			const data: Record<string, unknown> = { providerId: 'credentials', username: 'ada', password: 'right' };
			data.self = data;
			return data;
		}],
		['shared references (2^40 leaves)', () => {
			let level: unknown = 'x';
			for (let depth = 0; depth < 40; depth++) level = [level, level];
			return { providerId: 'credentials', username: 'ada', password: 'right', bomb: level };
		}],
		['a deep chain', () => {
			let level: unknown = 'x';
			for (let depth = 0; depth < 5000; depth++) level = { a: level };
			return { providerId: 'credentials', username: 'ada', password: 'right', deep: level };
		}]
	])('form data with %s: 400 InvalidRequest, at once, not a crash or a hang', async (_, make) => {
		const { handle } = SvelteKitAuth(config());
		for (const [name, run] of [['signInRemote', signInRemote], ['signOutRemote', signOutRemote]] as const) {
			const event = remotePost({ origin: ORIGIN });
			const started = performance.now();
			const thrown = await handled(handle, event, () => thrownBy(() => run(make() as never)));
			expect(performance.now() - started, name).toBeLessThan(1000);
			expect(thrown, name).toMatchObject({ status: failures.InvalidRequest.status, body: { code: 'InvalidRequest' } });
			expect(sessionCookies(event), name).toEqual([]);
		}
	});

	test('a refusal result carries no cookie, token or secret', async () => {
		const { handle } = SvelteKitAuth(config());
		const result = await handled(handle, remotePost({ origin: ORIGIN }), () => signInRemote({ providerId: 'credentials', username: 'ada', password: 'wrong', csrfToken: 'x' }));
		expect(Object.keys(result).sort()).toEqual(['code', 'error']);
	});

	test('outside a remote form, says how to wire them', async () => {
		await expect(signInRemote({})).rejects.toThrow(/form\('unchecked', signInRemote\)/);
	});
});
