// Attack 3 of the security issue, over HTTP on both integrations: the per-account lockout of the
// credentials sign-in counted the `email`/`username` field only when it was a string, so a JSON
// array, an extra field or a renamed field tried passwords against a locked account. The counted
// identifier now comes from the provider's declared fields (or `rateLimit.credentials.identifier`),
// normalised; a declared field that is not exactly one string is a 400 before `authorize` runs.

import { describe, expect, test } from 'vitest';
import Credentials from '../../../providers/credentials.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import type { AuthConfig, CredentialInput, RateLimitOptions } from '../../types.js';
import { TEST_SECRET } from '../client.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { quietLogger } from '../oauth-fixtures.js';
import { attackWorld } from './flows.js';

const world = attackWorld();

const PASSWORD = { label: 'Password', type: 'password' };

interface Setup {
	/** The identifier field `authorize` reads. */
	field?: string;
	credentials?: Record<string, CredentialInput>;
	rateLimit?: RateLimitOptions;
}

/**
 * An app whose `authorize` reads `field` and, as many apps do, coerces it (`String(x)`, template
 * strings, query builders that turn an array into an IN list): `["ada"]` finds ada. ada/lovelace
 * is the only valid pair. Three failures lock an identifier; the address limit is off (both apps
 * see 127.0.0.1), so only the per-identifier limit is under test.
 */
function serve(app: AppServer, { field = 'username', credentials = { username: { label: 'Username' }, password: PASSWORD }, rateLimit = {} }: Setup = {}) {
	const calls: unknown[] = [];
	const log = quietLogger();
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		logger: log.logger,
		rateLimit: { store: MemoryRateLimitStore(), ...rateLimit, credentials: { perIdentifier: 3, perAddress: 0, ...rateLimit.credentials } },
		providers: [
			Credentials({
				minFailureMs: 0,
				credentials,
				authorize: (fields) => {
					calls.push(fields[field]);
					return String(fields[field]).trim().toLowerCase() === 'ada' && fields.password === 'lovelace'
						? { id: 'u-ada', name: 'Ada', email: 'ada@example.com' }
						: null;
				}
			})
		]
	};
	app.use(config);
	return { calls, log };
}

/** What an answer says: status, error type (from the redirect or the JSON body), and where it points. */
async function read(response: Response): Promise<{ status: number; error: string | null; url: string | null; text: string }> {
	const text = await response.text();
	let url = response.headers.get('location');
	let error: string | null = null;
	if ((response.headers.get('content-type') ?? '').includes('application/json')) {
		const body = JSON.parse(text) as { error?: string; url?: string };
		url = body.url ?? url;
		error = body.error ?? null;
	}
	if (url) error = new URL(url).searchParams.get('error') ?? error;
	return { status: response.status, error, url, text };
}

/** POSTs `body` to the credentials callback with a fresh CSRF token, as a form or as JSON. */
async function attempt(app: AppServer, browser: Browser, body: Record<string, unknown>, as: 'form' | 'json' = 'form') {
	const csrfToken = await browser.csrfToken(app.origin);
	const url = `${app.origin}/auth/callback/credentials`;
	const response =
		as === 'json'
			? await browser.request(url, { json: { csrfToken, ...body } })
			: await browser.request(url, { form: { csrfToken, ...(body as Record<string, string>) } });
	return read(response);
}

/** POSTs a raw body (duplicated fields, multipart) with the browser's cookies and a fresh CSRF token. */
async function rawAttempt(app: AppServer, browser: Browser, build: (csrfToken: string) => { body: BodyInit; type?: string }) {
	const csrfToken = await browser.csrfToken(app.origin);
	const { body, type } = build(csrfToken);
	const headers: Record<string, string> = {
		cookie: [...(browser.jar.get(new URL(app.origin).host) ?? [])].map(([k, v]) => `${k}=${v}`).join('; '),
		origin: app.origin
	};
	if (type) headers['content-type'] = type;
	return read(await fetch(`${app.origin}/auth/callback/credentials`, { method: 'POST', redirect: 'manual', headers, body }));
}

/** Three wrong passwords for `id` in the field the app reads: the account is locked. */
async function lock(app: AppServer, browser: Browser, field = 'username', id = 'ada') {
	for (let i = 0; i < 3; i++) expect((await attempt(app, browser, { [field]: id, password: `wrong-${i}` })).error).toBe('CredentialsSignin');
	expect((await attempt(app, browser, { [field]: id, password: 'lovelace' })).error).toBe('RateLimited');
}

describe.each(INTEGRATIONS)('%s', (integration) => {
	const app = () => world.apps[integration];

	test('a JSON array in the declared field is a 400 InvalidRequest, and a locked account stays locked', async () => {
		const { calls } = serve(app());
		const browser = new Browser();
		await lock(app(), browser);
		const answer = await attempt(app(), browser, { username: ['ada'], password: 'lovelace' }, 'json');
		expect(answer).toMatchObject({ status: 400, error: 'InvalidRequest' });
		expect(new URL(answer.url!).pathname).toBe('/auth/error');
		expect(calls).toHaveLength(3);
		expect(await browser.session(app().origin)).toBeNull();
	});

	test.each([
		['a number', 42],
		['an object', { $ne: null }],
		['null', null],
		['true', true],
		['two strings', ['ada', 'grace']],
		['an empty array', []]
	])('the declared field as %s is refused with 400 before authorize runs', async (_name, value) => {
		const { calls, log } = serve(app());
		const answer = await attempt(app(), new Browser(), { username: value, password: 'lovelace' }, 'json');
		expect(answer).toMatchObject({ status: 400, error: 'InvalidRequest' });
		expect(calls).toHaveLength(0);
		// the log says which field, not what was sent
		expect(log.text()).toMatch(/"username"/);
		expect(log.text()).not.toContain('lovelace');
	});

	test('a non-string password field is refused too, before authorize runs', async () => {
		const { calls } = serve(app());
		const answer = await attempt(app(), new Browser(), { username: 'ada', password: ['lovelace'] }, 'json');
		expect(answer).toMatchObject({ status: 400, error: 'InvalidRequest' });
		expect(calls).toHaveLength(0);
	});

	test('a missing identifier field is refused (an app reading another field would escape the count)', async () => {
		const { calls } = serve(app());
		expect(await attempt(app(), new Browser(), { password: 'lovelace' }, 'json')).toMatchObject({ status: 400, error: 'InvalidRequest' });
		expect(calls).toHaveLength(0);
	});

	test('a form field sent twice is refused: the error page says InvalidRequest (400)', async () => {
		const { calls } = serve(app());
		const browser = new Browser();
		const urlencoded = await rawAttempt(app(), browser, (csrfToken) => ({
			body: `csrfToken=${encodeURIComponent(csrfToken)}&username=ada&username=grace&password=lovelace`,
			type: 'application/x-www-form-urlencoded'
		}));
		// a browser's form post is sent to the error page, as for any InvalidRequest
		expect(urlencoded).toMatchObject({ status: 302, error: 'InvalidRequest' });
		expect(new URL(urlencoded.url!).pathname).toBe('/auth/error');
		const page = await fetch(urlencoded.url!);
		expect(page.status).toBe(400);
		expect(await page.text()).toContain('Invalid request');
		const multipart = await rawAttempt(app(), browser, (csrfToken) => {
			const form = new FormData();
			for (const [key, value] of [['csrfToken', csrfToken], ['username', 'grace'], ['username', 'ada'], ['password', 'lovelace']]) form.append(key, value);
			return { body: form };
		});
		expect(multipart).toMatchObject({ status: 302, error: 'InvalidRequest' });
		expect(calls).toHaveLength(0);
	});

	test('an extra `email` field does not move the count off the declared `username`', async () => {
		const { calls } = serve(app());
		const browser = new Browser();
		for (let i = 0; i < 3; i++) {
			const answer = await attempt(app(), browser, { username: 'ada', password: `wrong-${i}`, email: `decoy-${i}@example.com` });
			expect(answer.error).toBe('CredentialsSignin');
		}
		const answer = await attempt(app(), browser, { username: 'ada', password: 'lovelace', email: 'decoy-3@example.com' });
		expect(answer.error).toBe('RateLimited');
		expect(calls).toHaveLength(3);
		expect(await browser.session(app().origin)).toBeNull();
	});

	test('a declared field of another name counts, whatever conventional names are sent beside it', async () => {
		const { calls } = serve(app(), { field: 'login', credentials: { login: { label: 'Login' }, password: PASSWORD } });
		const browser = new Browser();
		for (let i = 0; i < 3; i++) {
			const answer = await attempt(app(), browser, { login: 'ada', password: `wrong-${i}`, username: `decoy-${i}`, email: `decoy-${i}@example.com` });
			expect(answer.error).toBe('CredentialsSignin');
		}
		expect((await attempt(app(), browser, { login: 'ada', password: 'lovelace', username: 'decoy-3' })).error).toBe('RateLimited');
		expect(calls).toHaveLength(3);
	});

	test('rateLimit.credentials.identifier names the field of a form that declares none', async () => {
		const { calls } = serve(app(), { field: 'login', credentials: {}, rateLimit: { credentials: { identifier: 'login' } } });
		const browser = new Browser();
		await lock(app(), browser, 'login');
		expect(await attempt(app(), browser, { login: ['ada'], password: 'lovelace' }, 'json')).toMatchObject({ status: 400, error: 'InvalidRequest' });
		expect((await attempt(app(), browser, { login: 'ada', password: 'lovelace', username: 'decoy' })).error).toBe('RateLimited');
		expect(calls).toHaveLength(3);
	});

	test('a provider that declares no identifier field says once, in the log, that only the address is limited', async () => {
		const { log } = serve(app(), { credentials: {} });
		const browser = new Browser();
		for (let i = 0; i < 2; i++) expect((await attempt(app(), browser, { username: 'ada', password: 'wrong' })).error).toBe('CredentialsSignin');
		const warnings = log.warnings.filter((line) => line.startsWith('credentials-identifier'));
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/limited per client address only/);
	});

	test('the identifier is compared trimmed, case-folded and NFKC-normalised', async () => {
		const { calls } = serve(app());
		const browser = new Browser();
		await lock(app(), browser);
		// spaces, capitals, full-width letters and no-break spaces (NFKC)
		for (const spelling of [' ADA ', 'Ａｄａ', '\u00a0ada\u3000']) {
			expect((await attempt(app(), browser, { username: spelling, password: 'lovelace' })).error).toBe('RateLimited');
		}
		// case folding, not just lower case: "STRASSE" folds to "strasse", as "straße" does
		for (let i = 0; i < 3; i++) await attempt(app(), browser, { username: 'straße', password: `wrong-${i}` });
		expect((await attempt(app(), browser, { username: 'STRASSE', password: 'lovelace' })).error).toBe('RateLimited');
		expect(calls).toHaveLength(6);
	});
});

describe('sveltekit form action', () => {
	test('a field sent twice to the signIn action ends on the InvalidRequest error page (400), not in authorize', async () => {
		const app = world.apps.sveltekit;
		const { calls } = serve(app);
		const browser = new Browser();
		const response = await fetch(`${app.origin}/signin`, {
			method: 'POST',
			redirect: 'manual',
			// a browser's plain form submission (fetch's default Accept would get SvelteKit's JSON answer)
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.origin, accept: 'text/html' },
			body: 'providerId=credentials&username=ada&username=grace&password=lovelace'
		});
		expect(response.status).toBe(303);
		const target = new URL(response.headers.get('location')!, app.origin);
		expect(target.pathname).toBe('/auth/error');
		expect(target.searchParams.get('error')).toBe('InvalidRequest');
		const page = await browser.request(target);
		expect(page.status).toBe(400);
		expect(calls).toHaveLength(0);
	});

	test('an extra field does not escape the lockout through the signIn action', async () => {
		const app = world.apps.sveltekit;
		const { calls } = serve(app);
		const browser = new Browser();
		await lock(app, browser);
		const response = await browser.request(`${app.origin}/signin`, {
			form: { providerId: 'credentials', username: 'ada', password: 'lovelace', email: 'decoy@example.com' },
			headers: { accept: 'text/html' }
		});
		expect(response.status).toBe(303);
		expect(new URL(response.headers.get('location')!, app.origin).searchParams.get('error')).toBe('RateLimited');
		expect(calls).toHaveLength(3);
	});
});
