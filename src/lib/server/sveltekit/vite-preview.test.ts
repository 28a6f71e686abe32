// `vite preview` of the built app starts with the guide's .env alone, as `vite dev` does: kitgate
// trusts the request's host there, but only a loopback one (localhost, 127.x, [::1]), so that no
// link or redirect is ever built for another host from a Host header. A production server (`node
// build`) without ORIGIN or AUTH_URL still stops at start-up (issue 31, item 8).

import type { Handle, RequestEvent } from '@sveltejs/kit';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import Credentials from '../providers/credentials.js';
import type { SvelteKitAuthConfig } from './index.js';

const SECRET = 'vite-preview-secret-vite-preview-secret-vite';
const argv = process.argv;

/** The guide's config: a secret from .env, no ORIGIN, no AUTH_URL. */
const guideConfig = (): SvelteKitAuthConfig => ({
	providers: [Credentials({ credentials: { username: {}, password: { type: 'password' } }, authorize: () => null })]
});

/** Loads the integration as a production build sees itself (not dev, not building), with `env` as its environment. */
async function productionBuild(env: Record<string, string>) {
	vi.doMock('$app/environment', () => ({ dev: false, building: false, browser: false, version: 'test' }));
	vi.doMock('$env/dynamic/private', () => ({ env: { NODE_ENV: 'production', AUTH_SECRET: SECRET, ...env } }));
	return import('./index.js');
}

/** What `handle` answers for `url`. */
async function answer(handle: Handle, href: string) {
	const url = new URL(href);
	const event = {
		url,
		request: new Request(url, { headers: { accept: 'text/html' } }),
		locals: {},
		cookies: { get: () => undefined, getAll: () => [], set: () => {}, delete: () => {}, serialize: () => '' },
		getClientAddress: () => '127.0.0.1',
		params: {},
		route: { id: url.pathname },
		setHeaders: () => {},
		isDataRequest: false,
		isSubRequest: false,
		fetch
	} as unknown as RequestEvent;
	const response = await handle({ event, resolve: async () => new Response('the page') });
	return { status: response.status, body: await response.text() };
}

beforeEach(() => {
	vi.resetModules();
});
afterEach(() => {
	process.argv = argv;
	vi.doUnmock('$app/environment');
	vi.doUnmock('$env/dynamic/private');
	vi.resetModules();
});

describe('`vite preview` (Vite’s command line, command preview)', () => {
	test.each([
		['node_modules/vite/bin/vite.js', ['preview']],
		['node_modules/.bin/vite', ['preview', '--port', '4173']],
		['node_modules/.bin/vite', ['--port', '4173', 'preview']]
	])('%s %j starts with .env alone and serves loopback hosts', async (script, args) => {
		process.argv = ['/usr/bin/node', `/home/me/my-app/${script}`, ...args];
		const { SvelteKitAuth } = await productionBuild({});
		const { handle } = SvelteKitAuth(guideConfig());
		for (const origin of ['http://localhost:4173', 'http://127.0.0.1:4173', 'http://[::1]:4173']) {
			const session = await answer(handle, `${origin}/auth/session`);
			expect(session.status, origin).toBe(200);
			expect(session.body).toBe('null');
			expect((await answer(handle, `${origin}/auth/signin`)).status).toBe(200);
		}
	});

	test('a request for another host is refused, saying why (no link is ever built for it)', async () => {
		process.argv = ['/usr/bin/node', '/home/me/my-app/node_modules/vite/bin/vite.js', 'preview', '--host'];
		const { SvelteKitAuth } = await productionBuild({});
		const { handle } = SvelteKitAuth(guideConfig());
		for (const origin of ['http://192.0.2.7:4173', 'http://my-app.example:4173', 'http://localhost.example.com:4173']) {
			const signin = await answer(handle, `${origin}/auth/signin`);
			expect(signin.status, origin).toBe(503);
			expect(signin.body).toContain('vite preview');
			expect(signin.body).toContain('localhost');
			expect(signin.body).not.toContain(origin.replace('http://', ''));
		}
	});

	test('AUTH_URL, when set, fixes the URL and any host may ask', async () => {
		process.argv = ['/usr/bin/node', '/home/me/my-app/node_modules/vite/bin/vite.js', 'preview'];
		const { SvelteKitAuth } = await productionBuild({ AUTH_URL: 'https://my-app.example' });
		const { handle } = SvelteKitAuth(guideConfig());
		expect((await answer(handle, 'http://192.0.2.7:4173/auth/session')).status).toBe(200);
	});
});

describe('a production server', () => {
	test.each([
		['node build', ['/usr/bin/node', '/srv/my-app/build']],
		['node build/index.js with an argument named preview', ['/usr/bin/node', '/srv/my-app/build/index.js', 'preview']],
		['a script named vite-server.js', ['/usr/bin/node', '/srv/my-app/vite-server.js', 'preview']]
	])('%s without ORIGIN or AUTH_URL still stops at start-up, naming them', async (_, args) => {
		process.argv = args;
		const { SvelteKitAuth } = await productionBuild({});
		expect(() => SvelteKitAuth(guideConfig())).toThrow(/AUTH_URL[\s\S]*ORIGIN/);
	});
});
