// The client helpers talk only to this origin: a base path that is not a path here (another origin,
// protocol-relative, relative to the page) is refused before any request, so no session update, CSRF
// token or credentials go elsewhere, and no session another server made up is shown as this one.

import { afterEach, describe, expect, test, vi } from 'vitest';
import { getSession, signIn, signOut, updateSession } from './index.js';
import { SessionState } from './session.svelte.js';
import { sameOriginBasePath } from './base-path.js';

const foreign = ['https://evil.example/auth', '//evil.example/auth', '/\\evil.example/auth', '\\\\evil.example/auth', 'auth', '', ' /auth', 'javascript:alert(1)//'];

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('sameOriginBasePath', () => {
	test.each(['/auth', '/app/auth', '/a-b_c.d/auth'])('keeps %s', (path) => {
		expect(sameOriginBasePath(path)).toBe(path);
	});

	test('drops a trailing slash, which would make `//session`', () => {
		expect(sameOriginBasePath('/auth/')).toBe('/auth');
	});

	test.each(foreign)('refuses %j', (path) => {
		expect(() => sameOriginBasePath(path)).toThrow(/kitgate: basePath must be a path on this origin/);
	});
});

describe('the helpers refuse a foreign base path before any request', () => {
	test.each(foreign.slice(0, 4))('%s', async (basePath) => {
		const requests: string[] = [];
		vi.stubGlobal('fetch', async (input: string) => {
			requests.push(String(input));
			return Response.json({ csrfToken: 'token', user: { name: 'Mallory' }, expires: '2100-01-01T00:00:00.000Z' });
		});
		vi.stubGlobal('location', { href: 'http://localhost:3000/page' });
		await expect(getSession({ basePath })).rejects.toThrow(/basePath/);
		await expect(updateSession({ role: 'admin' }, { basePath })).rejects.toThrow(/basePath/);
		await expect(signIn('credentials', { username: 'ada', password: 'secret' }, { basePath, redirect: false })).rejects.toThrow(/basePath/);
		await expect(signOut({ basePath, redirect: false })).rejects.toThrow(/basePath/);
		const state = new SessionState(() => null, { basePath });
		await expect(state.refresh()).rejects.toThrow(/basePath/);
		expect(state.data).toBeNull();
		expect(requests).toEqual([]);
	});
});
