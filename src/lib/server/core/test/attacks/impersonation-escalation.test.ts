// Attack: the impersonating admin (or whoever gets hold of an impersonation's cookies) tries to do
// more than look. Over HTTP through both integrations, on memory and SQLite, under both session
// strategies, with the real admin routes: a nested impersonation, the admin routes by path
// tricks, the account changes as forms, a session update that merges client data into the token
// (a common app callback), a stop forged from another site, cookies swapped between browsers,
// a forged database token, the session cache; and the audit of every change, whatever the method
// or the length of the path.

import { beforeAll, expect, test } from 'vitest';
import { deleteUser, revokeSessions } from '../../session/revocation.js';
import type { AdapterUser, AuthConfig, Session } from '../../types.js';
import { Browser, type BrowserRequest } from '../integrations.js';
import { sinkProvider } from '../email-fixtures.js';
import { address, attackWorld, sessionOf, type Strategy } from './flows.js';
import { describeEachStoredUserWorld, storedUserConfig, type StoredUserWorld } from './stored-user-world.js';

const world = attackWorld({ sink: true });

type Marked = Session & { user?: Session['user'] & { id?: string } };

function configOf(w: StoredUserWorld): AuthConfig {
	const base = storedUserConfig(w, { account: { deleteAccount: true }, providers: [sinkProvider(world.sink)] });
	const shape = base.callbacks!.session!;
	// what many apps write: an update merges the client's data into the token / the session
	base.callbacks = {
		...base.callbacks,
		jwt: ({ token, trigger, session }) => (trigger === 'update' && session && typeof session === 'object' ? { ...token, ...session } : token),
		session: (params) => {
			const shaped = shape(params) as Session;
			const extra = 'newSession' in params && params.newSession && typeof params.newSession === 'object' ? params.newSession : {};
			return { ...shaped, ...extra };
		}
	};
	return base;
}

/** The config in use, and a variant with the database session cache on. */
function variantsOf(plain: AuthConfig, strategy: Strategy) {
	return {
		plain,
		cached: { ...plain, session: { strategy, ...(strategy === 'database' ? { cache: { maxAge: 60 } } : {}) } },
		// the admin's own session ends (10 minutes) well before impersonationMaxAge (an hour)
		shortSessions: { ...plain, session: { strategy, maxAge: 600, updateAge: 0 } }
	};
}

describeEachStoredUserWorld(world, 'impersonation-escalation', configOf, (w) => {
	const { app, clock, admins, strategy, storedUser: stored, signedIn } = w;
	let configs: ReturnType<typeof variantsOf>;
	beforeAll(() => {
		configs = variantsOf(w.config, strategy);
	});

	const host = () => new URL(app().origin).host;
	const jar = (browser: Browser) => browser.jar.get(host()) ?? new Map<string, string>();

	async function anAdmin(): Promise<{ admin: AdapterUser; browser: Browser }> {
		const admin = await stored('admin');
		admins.push(admin.id);
		return { admin, browser: await signedIn(admin) };
	}

	/** An admin impersonating a fresh user through the admin route. */
	async function impersonating() {
		const { admin, browser } = await anAdmin();
		const adminCookie = jar(browser).get('kitgate.session-token');
		const user = await stored('user');
		clock.now += 1000;
		const csrfToken = await browser.csrfToken(app().origin);
		const started = await browser.request(`${app().origin}/auth/admin/impersonate`, { json: { csrfToken, userId: user.id } });
		expect(started.status).toBe(200);
		expect(((await started.json()) as { result?: string }).result).toBe('impersonating');
		const session = (await sessionOf(browser, app())) as Marked | null;
		expect(session?.user?.id).toBe(user.id);
		expect(session?.impersonation?.admin.id).toBe(admin.id);
		return { admin, user, browser, adminCookie };
	}

	const appSession = async (browser: Browser) => (await sessionOf(browser, app())) as Marked | null;

	/** A browser holding exactly `cookies`. */
	function browserWith(cookies: Record<string, string | undefined>): Browser {
		const browser = new Browser();
		browser.jar.set(host(), new Map(Object.entries(cookies).filter((entry): entry is [string, string] => entry[1] !== undefined)));
		return browser;
	}

	test('an impersonated session cannot start another impersonation', async () => {
		const { admin, user, browser } = await impersonating();
		const other = await stored('other');
		const csrfToken = await browser.csrfToken(app().origin);
		const nested = await browser.request(`${app().origin}/auth/admin/impersonate`, { json: { csrfToken, userId: other.id } });
		expect(nested.status).toBe(403);
		expect(((await nested.json()) as { error?: string }).error).toBe('ImpersonationForbidden');
		const still = await appSession(browser);
		expect(still?.user?.id).toBe(user.id);
		expect(still?.impersonation?.admin.id).toBe(admin.id);
	});

	test('no admin route is reached by path tricks: another user stays unbanned and the admin list unread', async () => {
		const { browser } = await impersonating();
		const victim = await stored('victim');
		const paths = ['/auth/admin/ban', '/auth/admin/ban/', '/auth//admin/ban', '/auth/%61dmin/ban', '/auth/admin/%62an', '/auth/ADMIN/ban', '/auth/admin/./ban', '/auth/account/../admin/ban', '/auth/admin%2Fban'];
		for (const path of paths) {
			const csrfToken = await browser.csrfToken(app().origin);
			const answer = await browser.request(`${app().origin}${path}`, { json: { csrfToken, userId: victim.id } });
			expect(answer.status, path).toBeGreaterThanOrEqual(400);
			expect(answer.status, path).toBeLessThan(500);
		}
		expect((await w.adapter.getUserAdmin(victim.id))?.bannedAt ?? null).toBeNull();
		for (const path of ['/auth/admin', `/auth/admin/user?id=${victim.id}`, '/auth/admin/', '/auth/%61dmin']) {
			const answer = await browser.request(`${app().origin}${path}`, { headers: { accept: 'application/json' } });
			expect(answer.status, path).toBeGreaterThanOrEqual(400);
			expect(JSON.stringify(await answer.json().catch(() => null)), path).not.toContain(victim.email);
		}
	});

	test('every account change posted as a form is refused with ImpersonationForbidden; the user is untouched', async () => {
		const { user, browser } = await impersonating();
		for (const operation of ['change-email', 'confirm-email', 'delete', 'two-factor-start', 'two-factor-confirm', 'two-factor-recovery-codes', 'two-factor-remove', 'rename-passkey', 'remove-passkey', 'end-session', 'end-other-sessions', 'unlink', 'link']) {
			const csrfToken = await browser.csrfToken(app().origin);
			const refused = await browser.request(`${app().origin}/auth/account/${operation}`, {
				form: { csrfToken, email: address('taken'), provider: 'credentials', credentialID: 'x', name: 'x', sessionId: 'x', code: '000000', callbackUrl: '/' }
			});
			expect(refused.status, operation).toBeGreaterThanOrEqual(300);
			const where = refused.headers.get('location') ?? '';
			expect(where + (refused.status >= 400 ? await refused.text() : ''), operation).toContain('ImpersonationForbidden');
		}
		const after = await w.adapter.getUser(user.id);
		expect(after?.email).toBe(user.email);
		expect(await w.adapter.getTwoFactor(user.id)).toBeNull();
		expect((await appSession(browser))?.impersonation).toBeDefined();
	});

	test('a session update whose callbacks merge the client data cannot become the admin, another user, or unmarked', async () => {
		const { admin, user, browser } = await impersonating();
		const csrfToken = await browser.csrfToken(app().origin);
		const forged = { sub: admin.id, name: 'Admin', email: admin.email, 'kitgate.impersonation': null, impersonation: null, user: { id: admin.id, email: admin.email } };
		await browser.request(`${app().origin}/auth/session`, { json: { csrfToken, data: forged } });
		const after = await appSession(browser);
		expect(after?.user?.email).toBe(user.email);
		expect(after?.impersonation?.admin.id).toBe(admin.id);
		// still refused what an impersonation is refused
		const token = await browser.csrfToken(app().origin);
		const refused = await browser.request(`${app().origin}/auth/account/delete`, { json: { csrfToken: token } });
		expect(refused.status).toBe(403);
		expect(await w.adapter.getUser(user.id)).not.toBeNull();
	});

	test('a session that is no impersonation cannot show the mark, whatever an update merges in', async () => {
		const { admin } = await anAdmin();
		const user = await stored('plain');
		const browser = await signedIn(user);
		const csrfToken = await browser.csrfToken(app().origin);
		const mark = { admin: { id: admin.id, name: admin.name, email: admin.email }, expires: new Date(clock.now + 60_000).toISOString() };
		const updated = (await (await browser.request(`${app().origin}/auth/session`, { json: { csrfToken, data: { impersonation: mark, 'kitgate.impersonation': mark } } })).json()) as Marked | null;
		expect(updated?.user?.id).toBe(user.id);
		expect(updated?.impersonation).toBeUndefined();
		expect((await appSession(browser))?.impersonation).toBeUndefined();
	});

	test('a stop forged from another site is refused: the admin stays impersonating, nobody is signed in as anyone else', async () => {
		const { user, browser } = await impersonating();
		const csrfToken = await browser.csrfToken(app().origin);
		// the other site knows no token: none, or a wrong one, with its Origin or none
		const evil = 'https://evil.example';
		const forgeries: BrowserRequest[] = [{ form: { callbackUrl: '/' }, origin: evil }, { form: { csrfToken: `${csrfToken}x`, callbackUrl: '/' }, origin: evil }, { form: { callbackUrl: '/' }, origin: null }];
		for (const init of forgeries) {
			const forged = await browser.request(`${app().origin}/auth/admin/stop-impersonating`, init);
			expect(forged.status).toBeGreaterThanOrEqual(300);
			expect(forged.headers.get('location') ?? '').not.toMatch(/admin=impersonation-stopped/);
			expect((await appSession(browser))?.user?.id).toBe(user.id);
		}
		// the same, through sign-out
		const out = await browser.request(`${app().origin}/auth/signout`, { form: { callbackUrl: '/' }, origin: evil });
		expect(out.status).not.toBe(500);
		expect((await appSession(browser))?.user?.id).toBe(user.id);
	});

	test('a user holding a copy of the impersonation cookie beside their own session gets no session, and stopping does not make them the admin', async () => {
		const { admin, browser } = await impersonating();
		const mallory = await stored('mallory');
		const own = jar(await signedIn(mallory)).get('kitgate.session-token');
		const thief = browserWith({ 'kitgate.session-token': jar(browser).get('kitgate.session-token'), 'kitgate.admin-session': own });
		expect(await appSession(thief)).toBeNull();
		const again = browserWith({ 'kitgate.session-token': jar(browser).get('kitgate.session-token'), 'kitgate.admin-session': own });
		const csrfToken = await again.csrfToken(app().origin);
		await again.request(`${app().origin}/auth/admin/stop-impersonating`, { form: { csrfToken, callbackUrl: '/' } });
		const after = await appSession(again);
		expect(after?.user?.id).not.toBe(admin.id);
		expect(after?.impersonation).toBeUndefined();
	});

	test('another admin’s session kept in place of the impersonating admin’s ends the impersonation', async () => {
		const { browser } = await impersonating();
		const { browser: other } = await anAdmin();
		jar(browser).set('kitgate.admin-session', jar(other).get('kitgate.session-token')!);
		expect(await appSession(browser)).toBeNull();
	});

	test('the impersonation ends when the admin is banned or deleted', async () => {
		const banned = await impersonating();
		await w.adapter.setUserAdmin({ userId: banned.admin.id, bannedAt: new Date(clock.now), banExpires: null });
		await revokeSessions(banned.admin.id, configs.plain);
		clock.now += 1000;
		expect(await appSession(banned.browser)).toBeNull();
		const deleted = await impersonating();
		await deleteUser(deleted.admin.id, configs.plain);
		clock.now += 1000;
		expect(await appSession(deleted.browser)).toBeNull();
	});

	test('the impersonation never outlives the admin’s own session, read or not in between', async () => {
		app().use(configs.shortSessions);
		try {
			const { browser } = await impersonating();
			const session = await appSession(browser);
			expect(new Date(session!.impersonation!.expires).getTime()).toBeLessThanOrEqual(clock.now + 600_000);
			clock.now += 601_000;
			expect(await appSession(browser)).toBeNull();
		} finally {
			app().use(configs.plain);
		}
	});

	test('a database token forged in the impersonation format, or tampered, is no session', async () => {
		const { admin, browser, adminCookie } = await impersonating();
		const real = jar(browser).get('kitgate.session-token')!;
		const adminPart = Buffer.from(admin.id).toString('base64url');
		const far = Math.floor(clock.now / 1000) + 86_400 * 365;
		const forgeries = [
			`imp.${adminPart}.${far}.${'A'.repeat(43)}`,
			strategy === 'database' ? real.replace(/^imp\.([^.]+)\.(\d+)\./, `imp.$1.${far}.`) : `${real}x`,
			strategy === 'database' ? real.replace(/^imp\./, 'IMP.') : real.slice(0, -2)
		];
		for (const forged of forgeries) {
			expect(await appSession(browserWith({ 'kitgate.session-token': forged, 'kitgate.admin-session': adminCookie })), forged).toBeNull();
		}
		expect((await appSession(browser))?.impersonation).toBeDefined();
	});

	test('with the database session cache on, the impersonation is never read from a copy: demoted, it ends at once; stopped, a copy is no session', async () => {
		app().use(configs.cached);
		try {
			const first = await impersonating();
			const copy = browserWith(Object.fromEntries(jar(first.browser)));
			admins.splice(admins.indexOf(first.admin.id), 1);
			expect(await appSession(first.browser)).toBeNull();
			expect(await appSession(copy)).toBeNull();
			const second = await impersonating();
			const copied = browserWith(Object.fromEntries(jar(second.browser)));
			const csrfToken = await second.browser.csrfToken(app().origin);
			await second.browser.request(`${app().origin}/auth/admin/stop-impersonating`, { form: { csrfToken, callbackUrl: '/' } });
			expect((await appSession(second.browser))?.user?.id).toBe(second.admin.id);
			expect(await appSession(copied)).toBeNull();
		} finally {
			app().use(configs.plain);
		}
	});

	// an adapter whose token lookup ignores case (MySQL's default collation) or matches a prefix
	if (strategy === 'database') test('an adapter that finds the row by a lookalike token does not turn the impersonation into an unmarked session', async () => {
		const tokens: string[] = [];
		const lenient = new Proxy(w.adapter, {
			get(target, name) {
				if (name === 'createSession') return (session: { sessionToken: string }) => (tokens.push(session.sessionToken), target.createSession(session as never));
				if (name === 'getSessionAndUser') {
					return (token: string) => target.getSessionAndUser(tokens.find((known) => known.toLowerCase() === token.toLowerCase() || known.startsWith(token)) ?? token);
				}
				const value = Reflect.get(target, name) as unknown;
				return typeof value === 'function' ? value.bind(target) : value;
			}
		});
		app().use({ ...configs.plain, adapter: lenient });
		try {
			const { user, browser, adminCookie } = await impersonating();
			const real = jar(browser).get('kitgate.session-token')!;
			for (const lookalike of [`IMP.${real.slice(4)}`, `Imp.${real.slice(4)}`]) {
				const thief = browserWith({ 'kitgate.session-token': lookalike, 'kitgate.admin-session': adminCookie });
				expect(await appSession(thief), lookalike).toBeNull();
				const csrfToken = await thief.csrfToken(app().origin);
				await thief.request(`${app().origin}/auth/account/delete`, { json: { csrfToken } });
				expect(await w.adapter.getUser(user.id), lookalike).not.toBeNull();
			}
		} finally {
			app().use(configs.plain);
		}
	});

	test('every method but GET and HEAD is audited; a hostile path is kept short and as text', async () => {
		const { user, browser } = await impersonating();
		const rows = async () => (await w.adapter.listAuditEntries(user.id, { limit: 100 })).filter((row) => row.action === 'impersonated:request');
		const before = (await rows()).length;
		await browser.request(`${app().origin}/auth/session`, { method: 'HEAD' });
		await browser.request(`${app().origin}/auth/session`);
		expect(await rows()).toHaveLength(before);
		for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
			clock.now += 1000;
			await browser.request(`${app().origin}/auth/session`, { method });
		}
		const methods = (await rows()).map((row) => (JSON.parse(row.detail!) as { method: string }).method);
		expect(methods.sort()).toEqual(['DELETE', 'OPTIONS', 'PATCH', 'PUT']);
		clock.now += 1000;
		const hostile = `/auth/${'%0d%0a'.repeat(10)}${'x'.repeat(6000)}`;
		await browser.request(`${app().origin}${hostile}`, { method: 'POST', json: {} });
		const [newest] = await rows();
		const detail = JSON.parse(newest.detail!) as { method: string; path: string };
		expect(detail.method).toBe('POST');
		expect(detail.path.length).toBeLessThanOrEqual(512);
		expect(detail.path).not.toMatch(/[\r\n]/);
	});
});
