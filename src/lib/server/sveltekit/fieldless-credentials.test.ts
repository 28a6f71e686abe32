// A credentials form with no fields (issue 31, item 9): `<SignIn provider="credentials" />` renders
// the provider's own fields from `kitgateData`, so the form is empty when the provider declares
// none (`Credentials({ authorize })`), or when SignIn has no data. In development the form says so
// and how to give the fields (the provider's `credentials`, or SignIn's prop, snippet or slot),
// and a failed sign-in from it answers 400 naming the missing fields instead of the generic
// "Invalid request" page or a "wrong password". In production nothing of that is shown or changed.

import type { RequestEvent } from '@sveltejs/kit';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { KitgateData } from '../../components/types.js';
import Credentials from '../providers/credentials.js';
import type { SvelteKitAuthConfig } from './index.js';

const SECRET = 'fieldless-credentials-secret-fieldless-credentials';

/** The page data `kitgateData` gives for one credentials provider with these fields. */
const data = (credentials: Record<string, { label?: string; type?: string }>): KitgateData =>
	({ basePath: '/auth', providers: [{ id: 'credentials', name: 'Credentials', type: 'credentials', credentials }], accountRoutes: false }) as unknown as KitgateData;

/** A sign-in form post to the SvelteKit action with `fields`. */
function formPost(fields: Record<string, string>): RequestEvent {
	const url = new URL('http://localhost:5173/signin');
	return {
		url,
		request: new Request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin }, body: new URLSearchParams(fields) }),
		locals: {},
		cookies: { get: () => undefined, getAll: () => [], set: () => {}, delete: () => {}, serialize: () => '' },
		getClientAddress: () => '127.0.0.1',
		params: {},
		route: { id: '/signin' },
		setHeaders: () => {},
		isDataRequest: false,
		isSubRequest: false,
		fetch
	} as unknown as RequestEvent;
}

/** What the action threw: SvelteKit's redirect or error. */
async function thrownBy(action: () => unknown): Promise<{ status: number; location?: string; body?: { message: string } }> {
	try {
		await action();
	} catch (thrown) {
		return thrown as { status: number; location?: string; body?: { message: string } };
	}
	throw new Error('the action threw nothing');
}

const declared = { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } };
const configs = {
	/** `Credentials({ authorize })`: no field declared. */
	none: (): SvelteKitAuthConfig => ({ secret: SECRET, trustHost: true, providers: [Credentials({ authorize: () => null })] }),
	/** The guide's provider. */
	declared: (): SvelteKitAuthConfig => ({ secret: SECRET, trustHost: true, providers: [Credentials({ credentials: declared, authorize: () => null })] })
};

/** SignIn rendered on the server, with the modules of this test's environment (svelte's too: one runtime for both). */
async function renderSignIn(props: Record<string, unknown>): Promise<string> {
	const [{ render }, { default: SignIn }] = await Promise.all([import('svelte/server'), import('../../components/SignIn.svelte')]);
	return render(SignIn, { props }).body;
}

afterEach(() => {
	vi.doUnmock('$app/environment');
	vi.resetModules();
});

async function production() {
	vi.resetModules();
	vi.doMock('$app/environment', () => ({ dev: false, building: false, browser: false, version: 'test' }));
}

describe('in development', () => {
	test('SignIn for a provider that declares no fields says how to give them', async () => {
		const body = await renderSignIn({ provider: 'credentials', data: data({}) });
		expect(body).toContain('role="alert"');
		expect(body).toContain('declares no fields');
		expect(body).toContain('credentials: {');
		for (const way of ['credentials prop', 'credentials snippet', 'slot="credentials"']) expect(body).toContain(way);
	});

	test('SignIn without data says where the provider’s fields come from', async () => {
		const body = await renderSignIn({ provider: 'credentials', data: null });
		expect(body).toContain('role="alert"');
		expect(body).toContain('kitgateData(event)');
		expect(body).toContain('slot="credentials"');
	});

	test('a form with fields (the provider’s, or given to SignIn) says nothing more', async () => {
		for (const props of [
			{ provider: 'credentials', data: data(declared) },
			{ provider: 'credentials', data: data({}), credentials: { code: { label: 'Code' } } },
			{ provider: 'github', data: null }
		]) {
			expect(await renderSignIn(props)).not.toContain('role="alert"');
		}
	});

	test('the action answers 400 naming the fields the form did not send, and how to give them', async () => {
		const { SvelteKitAuth } = await import('./index.js');
		const { signIn } = SvelteKitAuth(configs.declared());
		const thrown = await thrownBy(() => signIn(formPost({ providerId: 'credentials' })));
		expect(thrown.status).toBe(400);
		expect(thrown.body?.message).toContain('username, password');
		expect(thrown.body?.message).toContain('kitgateData');
		expect(thrown.body?.message).toContain('slot="credentials"');
	});

	test('the action answers 400 when the provider declares no fields and the form sent none', async () => {
		const { SvelteKitAuth } = await import('./index.js');
		const { signIn } = SvelteKitAuth(configs.none());
		const thrown = await thrownBy(() => signIn(formPost({ providerId: 'credentials', callbackUrl: '/' })));
		expect(thrown.status).toBe(400);
		expect(thrown.body?.message).toContain('declares no fields');
		expect(thrown.body?.message).toContain('credentials: {');
	});

	test('a wrong password from a whole form is still the credentials failure (401)', async () => {
		const { SvelteKitAuth } = await import('./index.js');
		const { signIn } = SvelteKitAuth(configs.declared());
		const thrown = await thrownBy(() => signIn(formPost({ providerId: 'credentials', username: 'ada', password: 'wrong' })));
		expect(thrown.status).toBe(401);
	});
});

describe('in production', () => {
	test('SignIn shows no development hint', async () => {
		await production();
		expect(await renderSignIn({ provider: 'credentials', data: data({}) })).not.toContain('role="alert"');
		expect(await renderSignIn({ provider: 'credentials', data: null })).not.toContain('role="alert"');
	});

	test('the action answers as before: the error page for missing declared fields, the credentials failure without fields', async () => {
		await production();
		const { SvelteKitAuth } = await import('./index.js');
		const missing = await thrownBy(() => SvelteKitAuth(configs.declared()).signIn(formPost({ providerId: 'credentials' })));
		expect(missing.status).toBe(303);
		expect(missing.location).toContain('error=InvalidRequest');
		const none = await thrownBy(() => SvelteKitAuth(configs.none()).signIn(formPost({ providerId: 'credentials' })));
		expect(none.status).toBe(401);
	});
});
