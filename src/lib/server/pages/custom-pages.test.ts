// `pages.*`: each built-in page can be replaced by an app route, which then receives what the page
// would have shown in its query (`callbackUrl`, `error`, `code`, `provider`). See docs/components.md.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import Credentials from '../providers/credentials.js';
import Email from '../providers/email.js';
import { TEST_SECRET, testClient } from '../core/test/client.js';
import type { AuthConfig } from '../core/types.js';

const ORIGIN = 'http://localhost:3000';
const pages = { signIn: '/login', signOut: '/logout', error: '/oops', verifyRequest: '/check-email', newUser: '/welcome' };

function setup(overrides: Partial<AuthConfig> = {}) {
	const links: string[] = [];
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter: MemoryAdapter(),
		session: { strategy: 'jwt' },
		pages,
		providers: [
			Credentials({
				credentials: { username: {}, password: { type: 'password' } },
				authorize: ({ username, password }) => (username === 'ada' && password === 'lovelace' ? { id: 'u1', name: 'Ada' } : null)
			}),
			Email({ sendVerificationRequest: async ({ url }) => void links.push(url) })
		],
		...overrides
	};
	return { client: testClient(config), links };
}

/** The Location of a response, relative to the origin, with its query decoded into an object. */
function target(response: Response): { path: string; query: Record<string, string> } {
	const location = response.headers.get('location');
	expect(location, 'a redirect').toBeTruthy();
	const url = new URL(location as string);
	expect(url.origin).toBe(ORIGIN);
	return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
}

describe('pages.signIn', () => {
	test('the built-in sign-in route redirects there with callbackUrl, error and code', async () => {
		const { client } = setup();
		const response = await client.request('/auth/signin?callbackUrl=%2Fafter&error=CredentialsSignin&code=locked');
		expect(response.status).toBe(302);
		expect(target(response)).toEqual({ path: '/login', query: { callbackUrl: '/after', error: 'CredentialsSignin', code: 'locked' } });
	});

	test('an unknown error type arrives as Default, and code only comes with CredentialsSignin', async () => {
		const { client } = setup();
		expect(target(await client.request('/auth/signin?error=<script>')).query).toEqual({ error: 'Default' });
		expect(target(await client.request('/auth/signin?error=OAuthSignin&code=x')).query).toEqual({ error: 'OAuthSignin' });
	});

	test('a failed credentials sign-in lands there with error=CredentialsSignin and the code', async () => {
		const { client } = setup();
		const csrfToken = await client.csrfToken();
		const response = await client.request('/auth/callback/credentials', {
			form: { csrfToken, username: 'ada', password: 'wrong', callbackUrl: '/after' }
		});
		// the callback URL is kept, so a retry still goes where the user was heading
		expect(target(response)).toEqual({
			path: '/login',
			query: { error: 'CredentialsSignin', code: 'credentials', callbackUrl: 'http://localhost:3000/after' }
		});
	});
});

describe('pages.signOut, pages.error, pages.verifyRequest, pages.newUser', () => {
	test('sign-out keeps the callbackUrl', async () => {
		const { client } = setup();
		expect(target(await client.request('/auth/signout?callbackUrl=%2Fbye'))).toEqual({ path: '/logout', query: { callbackUrl: '/bye' } });
		expect(target(await client.request('/auth/signout'))).toEqual({ path: '/logout', query: {} });
	});

	test('the error page gets the error type (Default for anything unknown)', async () => {
		const { client } = setup();
		expect(target(await client.request('/auth/error?error=AccessDenied'))).toEqual({ path: '/oops', query: { error: 'AccessDenied' } });
		expect(target(await client.request('/auth/error?error=nope'))).toEqual({ path: '/oops', query: { error: 'Default' } });
	});

	test('asking for an email link goes to the verify-request page with the provider', async () => {
		const { client, links } = setup();
		const csrfToken = await client.csrfToken();
		const response = await client.request('/auth/signin/email', { form: { csrfToken, email: 'new@example.com', callbackUrl: '/after' } });
		expect(target(response)).toEqual({ path: '/check-email', query: { provider: 'email', type: 'email' } });
		expect(links).toHaveLength(1);
	});

	test('a new user goes to the new-user page with the callbackUrl; a returning user to the callbackUrl', async () => {
		const { client, links } = setup();
		const signIn = async () => {
			const csrfToken = await client.csrfToken();
			await client.request('/auth/signin/email', { form: { csrfToken, email: 'new@example.com', callbackUrl: '/after' } });
			// the link opens a confirmation page; its form posts the token back
			const html = await (await client.request(links.at(-1) as string)).text();
			const fields = Object.fromEntries(
				[...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')])
			);
			const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] as string;
			return client.request(action.replace(/&amp;/g, '&'), { form: fields });
		};
		expect(target(await signIn())).toEqual({ path: '/welcome', query: { callbackUrl: `${ORIGIN}/after` } });
		expect((await signIn()).headers.get('location')).toBe(`${ORIGIN}/after`);
	});
});
