// Attack review of what the components render from the configuration (issue 30): the page data
// `kitgateData(event)` hands over carries no secret of any provider; hostile provider names,
// styles, field configs, error types and callback URLs reach the HTML only as escaped text or not
// at all; the engine's own routes still ask for a CSRF token; and the data is the same, with no
// query, while prerendering. Through SvelteKitAuth's real `handle`, as a request would reach it.

import type { RequestEvent } from '@sveltejs/kit';
import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import Credentials from '../providers/credentials.js';
import Email from '../providers/email.js';
import GitHub from '../providers/github.js';
import Passkey from '../providers/passkey.js';
import SignIn from '../../components/SignIn.svelte';
import UserButton from '../../components/UserButton.svelte';
import type { KitgateData } from '../../components/types.js';
import { publicProviders } from '../core/response/component-data.js';
import { kitgateData, SvelteKitAuth, type SvelteKitAuthConfig } from './index.js';
import { kitEvent } from './test/events.js';

const SECRET = 'component-data-secret-component-data-secret';
const LEAKS = ['client-secret-value', 'client-id-value', 'smtp-password', 'issuer.example', 'token-url-secret', 'authorize-source', SECRET];

/** A config whose providers carry every kind of secret a provider has. */
function hostileConfig(): SvelteKitAuthConfig {
	return {
		secret: SECRET,
		trustHost: true,
		adapter: MemoryAdapter(),
		experimental: { enableWebAuthn: true },
		providers: [
			GitHub({ clientId: 'client-id-value', clientSecret: 'client-secret-value' }),
			{
				id: 'corp',
				name: '<img src=x onerror=alert(1)>Corp',
				type: 'oidc',
				issuer: 'https://issuer.example',
				clientId: 'client-id-value',
				clientSecret: 'client-secret-value',
				token: 'https://issuer.example/token?key=token-url-secret',
				style: { brandColor: 'red;}body{display:none', logo: 'javascript:alert(1)' }
			},
			Credentials({
				name: "$' \" onmouseover=\"alert(1)",
				credentials: {
					'user"name': { label: '<script>alert(1)</script>', type: 'text" autofocus onfocus="alert(1)', placeholder: '"><svg onload=alert(1)>' },
					password: { label: 'Password', type: 'password' }
				},
				authorize: async () => {
					// authorize-source: a credentials provider's code must not reach the page
					return null;
				}
			}),
			Email({ server: 'smtp://user:smtp-password@127.0.0.1:2525', from: 'App <app@example.com>' }),
			Passkey({ relyingParty: { name: 'App' } })
		]
	};
}

/** Runs SvelteKitAuth's handle for a page request, as SvelteKit would, and returns the event the page's loads get. */
async function pageEvent(config: SvelteKitAuthConfig, path = '/signin'): Promise<RequestEvent> {
	const { handle } = SvelteKitAuth(config);
	const event = kitEvent(`http://localhost${path}`);
	await handle({ event, resolve: async () => new Response('page') });
	return event;
}

describe('kitgateData: what the page gets', () => {
	test('every provider in config order, with public facts only: no client id or secret, issuer, endpoint, mail server or code', async () => {
		const data = await kitgateData(await pageEvent(hostileConfig()));
		expect(data.providers.map((provider) => [provider.id, provider.type])).toEqual([
			['github', 'oauth'],
			['corp', 'oauth'],
			['credentials', 'credentials'],
			['email', 'email'],
			['passkey', 'webauthn']
		]);
		const serialised = JSON.stringify(data);
		for (const leak of LEAKS) expect(serialised, leak).not.toContain(leak);
		// only the keys the components read
		for (const provider of data.providers) {
			expect(Object.keys(provider).every((key) => ['id', 'name', 'type', 'style', 'credentials'].includes(key)), provider.id).toBe(true);
		}
		expect(Object.keys(data).sort()).toEqual(['accountUrl', 'basePath', 'providers']);
	});

	test('a style that is not a colour or a safe image URL is dropped on the server', async () => {
		const data = await kitgateData(await pageEvent(hostileConfig()));
		expect(data.providers.find((provider) => provider.id === 'corp')?.style).toBeUndefined();
		// a colour the pages accept reaches the components as #rrggbb, the only form they take
		expect(publicProviders([{ id: 'x', type: 'oauth', style: { brandColor: 'rgb(15, 118, 110)', logo: '/x.svg' } }])[0].style).toEqual({
			brandColor: '#0f766e',
			logo: '/x.svg'
		});
	});

	test('?error= becomes a known error type (anything else is Default); ?callbackUrl= is passed on as text', async () => {
		for (const [query, error] of [
			['OAuthAccountNotLinked', 'OAuthAccountNotLinked'],
			['<script>alert(1)</script>', 'Default'],
			['__proto__', 'Default'],
			['constructor', 'Default']
		]) {
			const data = await kitgateData(await pageEvent(hostileConfig(), `/signin?error=${encodeURIComponent(query)}`));
			expect(data.error, query).toBe(error);
		}
		const linked = await kitgateData(await pageEvent(hostileConfig(), '/signin?error=OAuthAccountNotLinked'));
		// the alert's text comes with it (the components ship only their own few English texts)
		expect(linked.messages?.['signin.error.OAuthAccountNotLinked']).toMatch(/same account/);
		const back = await kitgateData(await pageEvent(hostileConfig(), '/signin?callbackUrl=%2Fdashboard'));
		expect(back.callbackUrl).toBe('/dashboard');
	});

	test('without kitgate\'s handle it says what to do', async () => {
		await expect(kitgateData({ locals: {}, url: new URL('http://localhost/') })).rejects.toThrow(/hooks\.server/);
	});
});

describe('SignIn and UserButton render hostile data as text', () => {
	test('names, labels, field types, placeholders, styles and errors never become markup', async () => {
		const data = await kitgateData(await pageEvent(hostileConfig(), '/signin?error=%3Cimg%20src%3Dx%3E'));
		const { body } = render(SignIn, { props: { data } });
		// the tags the HTML has: only kitgate's own, with no handler, script URL or injected attribute
		const tags = [...body.matchAll(/<([a-z]+)\b([^>]*)>/g)];
		expect(new Set(tags.map((tag) => tag[1]))).toEqual(new Set(['div', 'form', 'input', 'label', 'span', 'button', 'img', 'p', 'noscript']));
		// the one image is GitHub's own logo
		expect(tags.filter((tag) => tag[1] === 'img').map((tag) => tag[2])).toEqual([expect.stringMatching(/^ src="data:image\/svg\+xml,[^"]+" alt=""\/$/)]);
		for (const [tag] of tags) expect(tag).not.toMatch(/\son\w+=|javascript:|autofocus|display:none|<svg|<script/);
		expect(body).toContain('&lt;img src=x onerror=alert(1)>Corp');
		expect(body).toContain('&lt;script>alert(1)&lt;/script>');
		// a field type that is not a plain word falls back to text
		expect(body).toContain('name="user&quot;name" type="text"');
		expect(body).toContain('role="alert">Unable to sign in. Please try again.</p>');
	});

	test('a provider name with $-patterns is written as it is (a string replacement would expand them)', () => {
		const data: KitgateData = { basePath: '/auth', providers: [{ id: 'x', name: "A$'B$`C$&", type: 'oauth' }] };
		expect(render(SignIn, { props: { data } }).body).toContain("<span>Sign in with A$'B$`C$&amp;</span>");
		expect(render(SignIn, { props: { provider: 'y', providerName: '$`' } }).body).toContain('<span>Sign in with $`</span>');
	});

	test('UserButton writes the user as text, and a script URL never becomes the avatar', () => {
		const session = { user: { name: '<b>Ada</b>', email: 'ada@example.com', image: 'javascript:alert(1)' } };
		const { body } = render(UserButton, { props: { session } });
		expect(body).not.toContain('<b>');
		expect(body).not.toContain('javascript:');
		expect(body).toContain('&lt;b>Ada&lt;/b>');
	});
});

describe('CSRF: the components carry no token, the engine still asks for one', () => {
	test('kitgateData has no token (a prerendered page must not bake one in)', async () => {
		expect(JSON.stringify(await kitgateData(await pageEvent(hostileConfig())))).not.toMatch(/csrf/i);
	});

	test('a sign-in posted to the engine without the CSRF token is refused', async () => {
		const { handle } = SvelteKitAuth(hostileConfig());
		for (const path of ['/auth/signin/github', '/auth/callback/credentials', '/auth/signin/email', '/auth/signout']) {
			const url = new URL(`http://localhost${path}`);
			const request = new Request(url, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
				body: 'email=a%40b.c&username=a&password=b'
			});
			const event = { url, request, locals: {}, getClientAddress: () => '127.0.0.1' } as unknown as RequestEvent;
			const response = await handle({ event, resolve: async () => new Response('page') });
			const location = response.headers.get('location') ?? '';
			expect(`${response.status} ${location}`, path).toMatch(/MissingCSRF|^4\d\d/);
			expect(location, path).not.toMatch(/github\.com|verify-request/);
		}
	});
});
