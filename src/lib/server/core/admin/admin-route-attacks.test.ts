// Attacks on the admin routes (issue 32) over HTTP, through both integrations, under both session
// strategies: a non-admin (no session, signed in) reaching any admin route or change, by CSRF,
// method, path or id tricks; enumeration through the search or the ids; an admin acting on
// another admin or on themselves. Each attack must leave the victim signed in and no audit row.

import { beforeAll, expect, test } from 'vitest';
import { memoryAndSqliteAdapters } from '../test/stored-adapters.js';
import type { Adapter } from '../types.js';
import type { AdminUserList } from '../admin-types.js';
import { sinkProvider } from '../test/email-fixtures.js';
import { Browser, type AppServer } from '../test/integrations.js';
import { address, attackConfig, attackWorld, sessionOf } from '../test/attacks/flows.js';
import { cookieHeader } from '../test/attacks/cookie-header.js';
import { describeEachApp } from '../test/attacks/each-app.js';
import { signedInByEmail, type SignedInPerson } from '../test/attacks/signed-in-person.js';

const world = attackWorld({ sink: true });
// SQLite joins as soon as its adapter stores admin records (the storage branch of issue 32)
const adapters = memoryAndSqliteAdapters('admin-route-attacks').filter(([, make]) => typeof (make() as Adapter).listUsers === 'function');

const JSON_ACCEPT = { accept: 'application/json' };

const signedIn = (app: AppServer, adapter: Adapter, name: string) => signedInByEmail(app, world.sink, adapter, address(name));

async function post(browser: Browser, app: AppServer, operation: string, fields: Record<string, string>, options: { origin?: string | null; json?: boolean } = {}) {
	const csrfToken = fields.csrfToken ?? (await browser.csrfToken(app.origin));
	const body = { ...fields, csrfToken };
	return options.json
		? browser.request(`${app.origin}/auth/admin/${operation}`, { json: body, origin: options.origin })
		: browser.request(`${app.origin}/auth/admin/${operation}`, { form: body, origin: options.origin, headers: { accept: 'text/html' } });
}

async function answer(response: Response): Promise<{ status: number; body: unknown }> {
	const text = await response.text();
	return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

describeEachApp(world, ({ app, strategy, makeAdapter }) => {
	let adapter: Required<Adapter>;
	let admin: SignedInPerson, otherAdmin: SignedInPerson, victim: SignedInPerson, eve: SignedInPerson;

	beforeAll(async () => {
		adapter = makeAdapter();
		app().use(attackConfig(adapter, strategy, { providers: [sinkProvider(world.sink)], admin: { pageSize: 5 } }));
		admin = await signedIn(app(), adapter, 'admin');
		otherAdmin = await signedIn(app(), adapter, 'admin2');
		await adapter.setUserAdmin({ userId: admin.user.id, role: 'admin' });
		await adapter.setUserAdmin({ userId: otherAdmin.user.id, role: 'admin' });
		victim = await signedIn(app(), adapter, 'victim');
		eve = await signedIn(app(), adapter, 'eve');
	});

	async function expectUntouched() {
		expect((await sessionOf(victim.browser, app()))?.user?.email).toBe(victim.user.email);
		// sign-ins record their times; nothing an admin sets is there
		expect(await adapter.getUserAdmin(victim.user.id)).toMatchObject({ role: null, bannedAt: null, banReason: null, banExpires: null });
		expect(await adapter.listAuditEntries(victim.user.id, { limit: 10 })).toEqual([]);
	}

	test('a signed-in non-admin gets the same 403 AdminRequired on every route, whatever the id or search', async () => {
		const base = app().origin;
		const reads = [
			'/auth/admin',
			'/auth/admin?q=victim',
			'/auth/admin?q=nobody-at-all',
			`/auth/admin/user?id=${victim.user.id}`,
			'/auth/admin/user?id=no-such-user',
			`/auth/admin/user?id=${admin.user.id}`
		];
		const answers = await Promise.all(reads.map(async (path) => answer(await eve.browser.request(`${base}${path}`, { headers: JSON_ACCEPT }))));
		for (const got of answers) expect(got).toEqual({ status: 403, body: { error: 'AdminRequired' } });
		for (const op of ['ban', 'delete-user', 'end-sessions', 'set-role', 'reset-two-factor', 'impersonate', 'create-user']) {
			for (const userId of [victim.user.id, 'no-such-user']) {
				const refused = await answer(await post(eve.browser, app(), op, { userId, role: 'admin', email: address('x') }, { json: true }));
				expect(refused, `${op} ${userId}`).toEqual({ status: 403, body: { error: 'AdminRequired' } });
			}
		}
		// a browser is shown the error page, not the data
		const page = await eve.browser.request(`${base}/auth/admin/user?id=${victim.user.id}`, { headers: { accept: 'text/html' } });
		expect(page.status).toBe(302);
		expect(new URL(page.headers.get('location')!).searchParams.get('error')).toBe('AdminRequired');
		const form = await post(eve.browser, app(), 'ban', { userId: victim.user.id });
		expect(new URL(form.headers.get('location')!, base).searchParams.get('error')).toBe('AdminRequired');
		await expectUntouched();
		expect(await adapter.getUserAdmin(eve.user.id)).toMatchObject({ role: null, bannedAt: null });
	});

	test('without a session: scripts get AdminRequired, a browser is sent to sign in', async () => {
		const stranger = new Browser();
		const base = app().origin;
		expect(await answer(await stranger.request(`${base}/auth/admin?q=victim`, { headers: JSON_ACCEPT }))).toEqual({ status: 403, body: { error: 'AdminRequired' } });
		expect(await answer(await post(stranger, app(), 'ban', { userId: victim.user.id }, { json: true }))).toEqual({ status: 403, body: { error: 'AdminRequired' } });
		const page = await stranger.request(`${base}/auth/admin`, { headers: { accept: 'text/html' } });
		expect(page.status).toBe(302);
		const signIn = new URL(page.headers.get('location')!);
		expect(signIn.pathname).toBe('/auth/signin');
		expect(new URL(signIn.searchParams.get('callbackUrl')!).pathname).toBe('/auth/admin');
		await expectUntouched();
	});

	test('an admin\'s change without the CSRF token, with a wrong one, or from another site is refused', async () => {
		const missing = await admin.browser.request(`${app().origin}/auth/admin/ban`, { json: { userId: victim.user.id } });
		expect(await answer(missing)).toEqual({ status: 403, body: { error: 'MissingCSRF' } });
		const wrong = await post(admin.browser, app(), 'ban', { userId: victim.user.id, csrfToken: 'x'.repeat(64) }, { json: true });
		expect(await answer(wrong)).toEqual({ status: 403, body: { error: 'MissingCSRF' } });
		const crossSite = await admin.browser.request(`${app().origin}/auth/admin/ban`, {
			form: { userId: victim.user.id },
			origin: 'https://evil.example',
			headers: { accept: 'text/html' }
		});
		expect([302, 403]).toContain(crossSite.status);
		if (crossSite.status === 302) expect(new URL(crossSite.headers.get('location')!, app().origin).searchParams.get('error')).toBe('MissingCSRF');
		await expectUntouched();
	});

	test('a GET of a change is 405 (Allow: POST); unknown or extra path segments are 404', async () => {
		const base = app().origin;
		const get = await admin.browser.request(`${base}/auth/admin/ban?userId=${victim.user.id}`, { headers: JSON_ACCEPT });
		expect(get.status).toBe(405);
		expect(get.headers.get('allow')).toBe('POST');
		for (const path of ['/auth/admin/frobnicate', '/auth/admin/ban/extra', '/auth/admin/%2e%2e', '/auth/admin/user/..%2fsession']) {
			const got = await admin.browser.request(`${base}${path}`, { headers: JSON_ACCEPT });
			expect(got.status, path).toBe(404);
		}
		const unknownChange = await post(admin.browser, app(), 'frobnicate', { userId: victim.user.id }, { json: true });
		expect(unknownChange.status).toBe(404);
		await expectUntouched();
	});

	test('id tricks get a 4xx with a stable code, never a 500 or another user', async () => {
		const base = app().origin;
		const tricks: [string, Record<string, unknown>, number, string][] = [
			['an array', { userId: [victim.user.id] }, 400, 'InvalidRequest'],
			['an object', { userId: { id: victim.user.id } }, 400, 'InvalidRequest'],
			['a huge id', { userId: 'x'.repeat(100_000 / 2) }, 400, 'InvalidRequest'],
			['no id', {}, 400, 'InvalidRequest'],
			['a path', { userId: `../${victim.user.id}` }, 404, 'UserNotFound'],
			['a wildcard', { userId: '%' }, 404, 'UserNotFound']
		];
		for (const [name, fields, status, error] of tricks) {
			const got = await answer(await post(admin.browser, app(), 'ban', fields as Record<string, string>, { json: true }));
			expect(got, name).toEqual({ status, body: { error } });
		}
		// a form repeating userId: kitgate and an app reading the form must not disagree on the user
		const csrfToken = await admin.browser.csrfToken(base);
		const twice = await fetch(`${base}/auth/admin/ban`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(admin.browser, base), origin: base, 'x-auth-return-redirect': '1' },
			body: `csrfToken=${csrfToken}&userId=no-such-user&userId=${victim.user.id}`
		});
		expect(await answer(twice)).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
		for (const query of ['?id=a&id=b', '', `?id=${'y'.repeat(300)}`]) {
			const got = await answer(await admin.browser.request(`${base}/auth/admin/user${query}`, { headers: JSON_ACCEPT }));
			expect(got, query).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
		}
		await expectUntouched();
	});

	test('the search is literal (% and _ are no wildcards) and paged', async () => {
		const base = app().origin;
		const search = async (query: string) => {
			const response = await admin.browser.request(`${base}/auth/admin${query}`, { headers: JSON_ACCEPT });
			expect(response.status).toBe(200);
			return (await response.json()) as AdminUserList;
		};
		expect((await search('?q=%25')).total).toBe(0);
		expect((await search('?q=_')).total).toBe(0);
		expect((await search(`?q=${encodeURIComponent(victim.user.email.toUpperCase())}`)).users.map((u) => u.id)).toEqual([victim.user.id]);
		const all = await search('');
		expect(all.total).toBe(4);
		expect(all.pageSize).toBe(5);
		expect(all.viewer.id).toBe(admin.user.id);
		expect(all.users.find((u) => u.id === otherAdmin.user.id)).toMatchObject({ isAdmin: true, role: 'admin' });
		expect((await answer(await admin.browser.request(`${base}/auth/admin?q=${'q'.repeat(201)}`, { headers: JSON_ACCEPT }))).body).toEqual({ error: 'InvalidRequest' });
		expect((await answer(await admin.browser.request(`${base}/auth/admin?page=0`, { headers: JSON_ACCEPT }))).body).toEqual({ error: 'InvalidRequest' });
		expect((await answer(await admin.browser.request(`${base}/auth/admin?page=1e3`, { headers: JSON_ACCEPT }))).body).toEqual({ error: 'InvalidRequest' });
	});

	test('an admin cannot change another admin or themselves; they stay signed in', async () => {
		for (const target of [otherAdmin, admin]) {
			for (const op of ['ban', 'end-sessions', 'delete-user', 'set-role', 'impersonate']) {
				const got = await answer(await post(admin.browser, app(), op, { userId: target.user.id, role: '' }, { json: true }));
				expect(got, `${op} on ${target === admin ? 'self' : 'another admin'}`).toEqual({ status: 403, body: { error: 'AdminTargetForbidden' } });
			}
			expect((await sessionOf(target.browser, app()))?.user?.email).toBe(target.user.email);
			expect((await adapter.getUserAdmin(target.user.id))?.role).toBe('admin');
		}
		expect(await adapter.listAuditEntries(otherAdmin.user.id, { limit: 10 })).toEqual([]);
		// the form answer goes back to the page with the code
		const form = await post(admin.browser, app(), 'ban', { userId: otherAdmin.user.id });
		const back = new URL(form.headers.get('location')!);
		expect(back.pathname).toBe('/auth/admin/user');
		expect(back.searchParams.get('adminError')).toBe('AdminTargetForbidden');
	});

	test('a ban ends the user\'s session in the app at once, and the ban is audited', async () => {
		const target = await signedIn(app(), adapter, 'banned');
		expect((await sessionOf(target.browser, app()))?.user?.email).toBe(target.user.email);
		const banned = await post(admin.browser, app(), 'ban', { userId: target.user.id, reason: 'abuse' }, { json: true });
		expect(await banned.json()).toMatchObject({ result: 'banned' });
		expect(await sessionOf(target.browser, app())).toBeNull();
		const [row] = await adapter.listAuditEntries(target.user.id, { limit: 10 });
		expect(row).toMatchObject({ action: 'ban', actorId: admin.user.id, subjectId: target.user.id });
	});
}, adapters);
