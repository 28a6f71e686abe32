// protect(): behind kitgate's handle in sequence(), pages under a prefix need a session (303 to the
// sign-in page, coming back), other requests under it get 401 with a stable code, the rest pass.

import type { Handle } from '@sveltejs/kit';
import { describe, expect, test } from 'vitest';
import Credentials from '../providers/credentials.js';
import { protect, SESSION_REQUIRED, signInRemote, SvelteKitAuth, type SvelteKitAuthConfig } from './index.js';
import { failures } from '../../failures.js';
import { handled, kitEvent, thrownBy, type EventOptions } from './test/events.js';

/** Two handles in series, as `sequence()` runs them (the demo app's hooks use `sequence` itself: e2e/remote-functions.spec.ts). */
const inSeries =
	(first: Handle, second: Handle): Handle =>
	({ event, resolve }) =>
		first({ event, resolve: (passed) => second({ event: passed, resolve }) });

const ORIGIN = 'http://localhost:5173';
const config = (pages?: SvelteKitAuthConfig['pages']): SvelteKitAuthConfig => ({
	secret: 'protect-secret-protect-secret-protect-secret',
	trustHost: true,
	session: { strategy: 'jwt' },
	pages,
	providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: ({ username }) => ({ id: String(username), name: String(username) }) })]
});

/** What the guarded app answers for `path`: its own page ('resolved'), a redirect or a 401. */
async function answer(path: string, options: EventOptions = {}, pages?: SvelteKitAuthConfig['pages']) {
	const { handle } = SvelteKitAuth(config(pages));
	const guarded = inSeries(handle, protect(['/admin', '/app/']));
	const event = kitEvent(`${ORIGIN}${path}`, options);
	let response: Response | undefined;
	const thrown = await thrownBy(async () => {
		response = await guarded({ event, resolve: async () => new Response('resolved') });
	});
	return { thrown, response };
}

const page = { headers: { accept: 'text/html,application/xhtml+xml' } };

describe('without a session', () => {
	test.each(['/admin', '/admin/users', '/%61dmin/', '//admin', '/app/x'])('a page at %s redirects to the sign-in page (303), coming back', async (path) => {
		const { thrown } = await answer(path, page);
		expect(thrown?.status).toBe(303);
		const location = new URL(thrown?.location as string, ORIGIN);
		expect(location.pathname).toBe('/auth/signin');
		expect(new URL(location.searchParams.get('callbackUrl') as string).origin).toBe(ORIGIN);
	});

	test('client-side navigation data (__data.json) redirects too', async () => {
		expect((await answer('/admin', { isDataRequest: true })).thrown?.status).toBe(303);
	});

	test('a fetch for JSON gets 401 with the stable code', async () => {
		const { response } = await answer('/admin/api', { headers: { accept: 'application/json' } });
		expect(response?.status).toBe(401);
		expect(await response?.json()).toEqual({ message: failures.SessionRequired.defaultMessage, code: SESSION_REQUIRED });
	});

	test("a remote function call from a guarded page gets 401 in SvelteKit's remote error envelope", async () => {
		const { response } = await answer('/admin', { isRemoteRequest: true, method: 'POST', headers: { origin: ORIGIN } });
		expect(response?.status).toBe(401);
		expect(await response?.json()).toEqual({ type: 'error', status: 401, error: { message: failures.SessionRequired.defaultMessage, code: SESSION_REQUIRED } });
	});

	test.each(['/', '/administrator', '/public/admin', '/application'])('%s is not guarded', async (path) => {
		expect(await (await answer(path, page)).response?.text()).toBe('resolved');
	});

	// SvelteKit routes these to a page under the prefix with a parameter like "x/../../public"
	test.each(['/admin/x%2f..%2f..%2fpublic', '/admin/x%2F..%2F..%2F', '/app/x%5C..%5C..%5Cx'])('%s: an encoded slash and dots do not climb out of the prefix', async (path) => {
		expect((await answer(path, page)).thrown?.status).toBe(303);
	});

	test('a path that only decodes to the sign-in page is guarded (it is routed elsewhere: /app/[id])', async () => {
		for (const path of ['/app/x%2f..%2flogin', '/app/x%2F..%2Flogin', '/app/%6Cogin', '/app/x%5C..%5Clogin']) {
			expect((await answer(path, page, { signIn: '/app/login' })).thrown?.status, path).toBe(303);
		}
		expect(await (await answer('/app/login/', page, { signIn: '/app/login' })).response?.text()).toBe('resolved');
	});

	test("the error and check-your-email pages a signed-out visitor is sent to stay open under a guarded prefix", async () => {
		const pages = { signIn: '/app/login', error: '/app/oops', verifyRequest: '/app/check-email' };
		for (const path of ['/app/oops', '/app/check-email', '/app/login']) {
			expect(await (await answer(path, page, pages)).response?.text(), path).toBe('resolved');
		}
		expect((await answer('/app/other', page, pages)).thrown?.status).toBe(303);
	});

	test('a sign-in page under a guarded prefix stays open', async () => {
		expect(await (await answer('/app/login', page, { signIn: '/app/login' })).response?.text()).toBe('resolved');
		expect((await answer('/app/other', page, { signIn: '/app/login' })).thrown?.location).toMatch(/^\/app\/login\?callbackUrl=/);
	});
});

test("protect(['/']) guards everything but kitgate's own routes and its open pages", async () => {
	const { handle } = SvelteKitAuth(config({ signIn: '/login' }));
	const guarded = inSeries(handle, protect(['/']));
	const run = async (path: string) => {
		let response: Response | undefined;
		const thrown = await thrownBy(async () => {
			response = await guarded({ event: kitEvent(`${ORIGIN}${path}`, page), resolve: async () => new Response('resolved') });
		});
		return { thrown, response };
	};
	for (const path of ['/auth/csrf', '/auth/session', '/auth/providers']) expect((await run(path)).response?.status, path).toBe(200);
	expect(await (await run('/login')).response?.text()).toBe('resolved');
	expect((await run('/')).thrown?.location).toBe(`/login?callbackUrl=${encodeURIComponent(`${ORIGIN}/`)}`);
});

test('with a session, guarded paths pass', async () => {
	const { handle } = SvelteKitAuth(config());
	const signIn = kitEvent(`${ORIGIN}/_app/remote/a/signIn`, { method: 'POST', headers: { origin: ORIGIN }, isRemoteRequest: true });
	await handled(handle, signIn, () => thrownBy(() => signInRemote({ providerId: 'credentials', username: 'ada', password: 'x' })));
	const cookie = [...signIn.setCookies].map(([name, value]) => `${name}=${value}`).join('; ');
	const event = kitEvent(`${ORIGIN}/admin/users`, { headers: { ...page.headers, cookie } });
	const response = await inSeries(handle, protect(['/admin']))({ event, resolve: async () => new Response('resolved') });
	expect(await response.text()).toBe('resolved');
});

test("before kitgate's handle (or without it), says to put kitgate's handle first", async () => {
	const guard = protect(['/admin']);
	await expect(guard({ event: kitEvent(`${ORIGIN}/admin`), resolve: async () => new Response() })).rejects.toThrow(/kitgate's handle/);
	// unguarded paths do not need it
	expect(await (await guard({ event: kitEvent(`${ORIGIN}/x`), resolve: async () => new Response('ok') })).text()).toBe('ok');
});

test('bad prefixes fail when the guard is made', () => {
	expect(() => protect([])).toThrow(/list of paths/);
	expect(() => protect(['admin'])).toThrow(/start with "\/"/);
});
