// A signed-in non-admin (and a cross-site page riding an admin's cookies) against the admin routes
// over real HTTP, through the SvelteKit handle and the Express middleware, under both session
// strategies: method tricks (HEAD, OPTIONS, PUT, override headers and fields), raw path tricks
// (case, doubled or encoded slashes, dot segments, trailing dots, parameters), CSRF tricks (another
// user's token, text/plain and JSON bodies from another site), open redirects through
// `callbackUrl`, and a flood meant to lock the admin out. No trick may change a user or answer 5xx.

import { request as httpRequest } from 'node:http';
import { beforeAll, expect, test } from 'vitest';
import { memoryAndSqliteAdapters } from '../test/stored-adapters.js';
import type { Adapter } from '../types.js';
import { sinkProvider } from '../test/email-fixtures.js';
import { address, attackConfig, attackWorld, sessionOf } from '../test/attacks/flows.js';
import { cookieHeader } from '../test/attacks/cookie-header.js';
import { describeEachApp } from '../test/attacks/each-app.js';
import { signedInByEmail, type SignedInPerson } from '../test/attacks/signed-in-person.js';

const world = attackWorld({ sink: true });
const adapters = memoryAndSqliteAdapters('admin-routes-refuse');

/** One request sent with its path exactly as written (no URL normalization of dots or slashes). */
function raw(origin: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; location: string | null; text: string }> {
	const { hostname, port } = new URL(origin);
	return new Promise((resolve, reject) => {
		const request = httpRequest({ hostname, port, method, path, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } }, (response) => {
			let text = '';
			response.setEncoding('utf8');
			response.on('data', (chunk: string) => (text += chunk));
			response.on('end', () => resolve({ status: response.statusCode ?? 0, location: (response.headers.location as string | undefined) ?? null, text }));
		});
		request.on('error', reject);
		request.end(body);
	});
}

describeEachApp(world, ({ app, strategy, makeAdapter }) => {
	let adapter: Required<Adapter>;
	let admin: SignedInPerson, victim: SignedInPerson, eve: SignedInPerson;
	const signedIn = (name: string) => signedInByEmail(app(), world.sink, adapter, address(name));
	beforeAll(async () => {
		adapter = makeAdapter();
		const config = attackConfig(adapter, strategy, { providers: [sinkProvider(world.sink)], admin: {} });
		// every client of these tests comes from 127.0.0.1: one address, as behind an office's NAT
		app().use({ ...config, rateLimit: { ...config.rateLimit, account: { perIdentifier: 30, perAddress: 40 } } });
		admin = await signedIn('admin');
		await adapter.setUserAdmin({ userId: admin.user.id, role: 'admin' });
		victim = await signedIn('victim');
		eve = await signedIn('eve');
	});

	async function expectUntouched() {
		expect((await sessionOf(victim.browser, app()))?.user?.email).toBe(victim.user.email);
		// sign-ins record their times; nothing an admin sets is there
		for (const user of [victim.user, eve.user]) {
			expect(await adapter.getUserAdmin(user.id)).toMatchObject({ role: null, bannedAt: null, banReason: null, banExpires: null });
		}
		expect(await adapter.listAuditEntries(victim.user.id, { limit: 10 })).toEqual([]);
		expect(await adapter.listAuditEntries(eve.user.id, { limit: 10 })).toEqual([]);
	}

	test('a non-admin\'s methods and raw path tricks never reach a change or a list of users', async () => {
		const origin = app().origin;
		const csrfToken = await eve.browser.csrfToken(origin);
		const cookie = cookieHeader(eve.browser, origin);
		const form = new URLSearchParams({ csrfToken, userId: victim.user.id, role: 'admin', _method: 'POST' }).toString();
		const ownForm = new URLSearchParams({ csrfToken, userId: eve.user.id, role: 'admin' }).toString();
		const paths = [
			'/auth/admin/ban',
			'/auth/admin/ban/',
			'/auth/admin/ban.',
			'/auth/admin/ban%2e',
			'/auth/admin/%62an',
			'/auth/admin%2fban',
			'/auth/admin%2Fset-role',
			'/auth//admin/ban',
			'/auth/admin//ban',
			'//auth/admin/ban',
			'/auth/ADMIN/ban',
			'/AUTH/admin/ban',
			'/auth/Admin/Ban',
			'/auth/admin/user/../ban',
			'/auth/admin/user/..%2fban',
			'/auth/./admin/ban',
			'/auth/admin/./set-role',
			'/auth/admin;x=1/ban',
			'/auth/admin/ban;x=1',
			'/auth/admin/ban%00',
			'/auth/admin/ban?userId=x',
			'/x/../auth/admin/set-role'
		];
		const headers = { cookie, origin, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
		for (const path of paths) {
			for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
				const got = await raw(origin, method, path, headers, form);
				expect(got.status, `${method} ${path}: ${got.text.slice(0, 200)}`).toBeGreaterThanOrEqual(300);
				expect(got.status, `${method} ${path}`).toBeLessThan(500);
			}
			const promote = await raw(origin, 'POST', path.replace('/ban', '/set-role'), headers, ownForm);
			expect(promote.status, `set-role by ${path}`).toBeLessThan(500);
			expect(promote.status, `set-role by ${path}`).not.toBe(200);
		}
		for (const [name, value] of [
			['x-http-method-override', 'POST'],
			['x-http-method', 'POST'],
			['x-method-override', 'POST']
		]) {
			const got = await raw(origin, 'GET', `/auth/admin/ban?csrfToken=${csrfToken}&userId=${victim.user.id}`, { cookie, accept: 'application/json', [name]: value });
			expect(got.status, name).toBeGreaterThanOrEqual(400);
			expect(got.status, name).toBeLessThan(500);
		}
		for (const method of ['HEAD', 'OPTIONS', 'GET']) {
			for (const path of ['/auth/admin', '/auth/admin/', '/auth/admin/user?id=' + victim.user.id, '/auth/ADMIN', '/auth//admin', '/auth/admin/ban']) {
				const got = await raw(origin, method, path, { cookie, accept: 'application/json' });
				expect(got.status, `${method} ${path}`).toBeGreaterThanOrEqual(300);
				expect(got.status, `${method} ${path}`).toBeLessThan(500);
				expect(got.text, `${method} ${path}`).not.toContain(victim.user.email);
			}
		}
		await expectUntouched();
	});

	test('an admin\'s browser is not ridden by another site: no token, another user\'s token, text/plain, JSON, null origin', async () => {
		const origin = app().origin;
		const adminCookie = cookieHeader(admin.browser, origin);
		// eve's own token, valid for her cookie, planted in a form aimed at the admin
		const evesToken = await eve.browser.csrfToken(origin);
		const attempts: [string, Record<string, string>, string][] = [
			['no token, form', { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, `userId=${victim.user.id}`],
			['eve\'s token', { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, `csrfToken=${evesToken}&userId=${victim.user.id}`],
			['eve\'s token, same origin', { 'content-type': 'application/x-www-form-urlencoded', origin }, `csrfToken=${evesToken}&userId=${victim.user.id}`],
			['text/plain', { 'content-type': 'text/plain', origin: 'https://evil.example' }, `csrfToken=${evesToken}&userId=${victim.user.id}`],
			['text/plain same origin', { 'content-type': 'text/plain', origin }, `userId=${victim.user.id}`],
			['JSON', { 'content-type': 'application/json', origin: 'https://evil.example' }, JSON.stringify({ userId: victim.user.id })],
			['JSON as text/plain', { 'content-type': 'text/plain', origin: 'https://evil.example' }, JSON.stringify({ userId: victim.user.id })],
			['null origin', { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' }, `userId=${victim.user.id}`],
			['no origin, same-site fetch', { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-site' }, `userId=${victim.user.id}`],
			['no origin at all', { 'content-type': 'application/x-www-form-urlencoded' }, `userId=${victim.user.id}`],
			['multipart', { 'content-type': 'multipart/form-data; boundary=x', origin: 'https://evil.example' }, `--x\r\nContent-Disposition: form-data; name="userId"\r\n\r\n${victim.user.id}\r\n--x--\r\n`]
		];
		for (const [name, headers, body] of attempts) {
			for (const op of ['ban', 'delete-user', 'set-role', 'end-sessions']) {
				const got = await raw(origin, 'POST', `/auth/admin/${op}`, { cookie: adminCookie, accept: 'text/html', ...headers }, body);
				expect(got.status, `${name} ${op}: ${got.text.slice(0, 200)}`).toBeLessThan(500);
				if (got.status < 400) {
					const to = new URL(got.location!, origin);
					expect([to.searchParams.get('error'), to.searchParams.get('adminError')], `${name} ${op}`).toContain('MissingCSRF');
				}
			}
		}
		await expectUntouched();
		expect((await sessionOf(admin.browser, app()))?.user?.email).toBe(admin.user.email);
	});

	test('callbackUrl of an admin change never leads off the site', async () => {
		const origin = app().origin;
		const targets = ['https://evil.example/', '//evil.example/', '/\\evil.example', '\\\\evil.example', '/%5Cevil.example', 'javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' https://evil.example', 'http:evil.example', `${origin}@evil.example`, 'data:text/html,x'];
		for (const callbackUrl of targets) {
			const csrfToken = await admin.browser.csrfToken(origin);
			// a refused change: the answer still goes back to the site
			const refused = await admin.browser.request(`${origin}/auth/admin/ban`, { form: { csrfToken, userId: admin.user.id, callbackUrl }, headers: { accept: 'text/html' } });
			expect(refused.status, callbackUrl).toBeLessThan(500);
			const location = refused.headers.get('location');
			if (location) expect(new URL(location, origin).origin, `${callbackUrl} → ${location}`).toBe(origin);
			const json = await admin.browser.request(`${origin}/auth/admin/ban`, { json: { csrfToken, userId: admin.user.id, callbackUrl } });
			expect(json.status, callbackUrl).toBeLessThan(500);
		}
		// notices in the query are codes: attacker text does not reach the page
		const page = await admin.browser.request(`${origin}/auth/admin?adminError=${encodeURIComponent('Your account is hacked, call +1 555')}&admin=${encodeURIComponent('<b>x</b>')}`, { headers: { accept: 'text/html' } });
		expect(page.status).toBe(200);
		const html = await page.text();
		expect(html).not.toContain('call +1 555');
		expect(html).not.toContain('<b>x</b>');
	});

	test('the admin pages reach the browser with their script policy, no framing and no caching', async () => {
		const origin = app().origin;
		for (const path of ['/auth/admin', `/auth/admin/user?id=${victim.user.id}`]) {
			const response = await admin.browser.request(`${origin}${path}`, { headers: { accept: 'text/html' } });
			expect(response.status, path).toBe(200);
			const policy = response.headers.get('content-security-policy') ?? '';
			expect(policy, path).toContain("frame-ancestors 'none'");
			expect(policy, path).not.toContain("'unsafe-inline'");
			expect(response.headers.get('cache-control'), path).toMatch(/no-store/);
			expect(await response.text(), path).toContain(victim.user.email);
		}
		const json = await admin.browser.request(`${origin}/auth/admin`, { headers: { accept: 'application/json', origin: 'https://evil.example' } });
		expect(json.headers.get('access-control-allow-origin')).toBeNull();
		expect(json.headers.get('cache-control')).toMatch(/no-store/);
	});

	test('a non-admin\'s flood of admin posts does not use up the admin\'s limit', async () => {
		const origin = app().origin;
		const csrfToken = await eve.browser.csrfToken(origin);
		for (let i = 0; i < 40; i++) {
			const got = await eve.browser.request(`${origin}/auth/admin/end-sessions`, { json: { csrfToken, userId: victim.user.id } });
			expect([403, 429]).toContain(got.status);
			await got.arrayBuffer();
		}
		const adminToken = await admin.browser.csrfToken(origin);
		const done = await admin.browser.request(`${origin}/auth/admin/create-user`, { json: { csrfToken: adminToken, email: address('created') } });
		expect(done.status).toBe(200);
		await expectUntouched();
	});

	test('a non-admin on the admin\'s address cannot lock the admin out with their own account changes', async () => {
		const origin = app().origin;
		const csrfToken = await eve.browser.csrfToken(origin);
		let refused = 0;
		for (let i = 0; i < 45; i++) {
			const got = await eve.browser.request(`${origin}/auth/account/end-session`, { json: { csrfToken, sessionId: `none-${i}` } });
			if (got.status === 429) refused++;
			await got.arrayBuffer();
		}
		// eve herself is limited
		expect(refused).toBeGreaterThan(0);
		const adminToken = await admin.browser.csrfToken(origin);
		const done = await admin.browser.request(`${origin}/auth/admin/create-user`, { json: { csrfToken: adminToken, email: address('after-flood') } });
		expect(await done.json()).toMatchObject({ result: 'user-created' });
	});
}, adapters);
