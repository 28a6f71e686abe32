// Attack: an impersonated session escalates or outlives its limits. Over HTTP through both
// integrations, on memory and SQLite, under both session strategies. An admin impersonates a
// user (startImpersonation, as the admin route calls it); the app then sees the user with the
// `impersonation` mark. The impersonation ends by itself, when the admin's own session is revoked
// or the admin is no longer one, and on stop or sign-out (the admin's session comes back); a copy
// of its cookie after that is no session, and dropping the kept admin cookie leaves no session at
// all. It cannot change the user's account, passkeys or second factor. Its changes are audited.

import { expect, test } from 'vitest';
import { startImpersonation, stopImpersonation } from '../../admin/impersonation.js';
import { resolveConfig } from '../../config/resolve-config.js';
import { createContext } from '../../request/context.js';
import { revokeSessions } from '../../session/revocation.js';
import Passkey from '../../../providers/passkey.js';
import type { AuthConfig, Session } from '../../types.js';
import { Browser } from '../integrations.js';
import { address, attackWorld, sessionOf } from './flows.js';
import { describeEachStoredUserWorld, storedUserConfig, type StoredUserWorld } from './stored-user-world.js';

const world = attackWorld();
const MAX_AGE = 900;

type ImpersonatedSession = Session & { user?: Session['user'] & { id?: string } };

// the admin routes' events, emptied by the test that reads them
const events: unknown[] = [];

const configOf = (w: StoredUserWorld) =>
	storedUserConfig(w, {
		admin: { impersonationMaxAge: MAX_AGE },
		account: { deleteAccount: true },
		// the admin routes' event (EventCallbacks.adminAction)
		events: { adminAction: (message: unknown) => void events.push(message) } as AuthConfig['events'],
		experimental: { enableWebAuthn: true },
		providers: [Passkey()]
	});

describeEachStoredUserWorld(world, 'impersonation', configOf, (w) => {
	const { app, clock, admins, storedUser: stored, signedIn } = w;

	const host = () => new URL(app().origin).host;
	const cookiesOf = (browser: Browser) => browser.jar.get(host()) ?? new Map<string, string>();
	const sessionCookie = (browser: Browser) => cookiesOf(browser).get('kitgate.session-token');

	/** Runs `act` on a request from `browser` to `path` (as the admin route would) and keeps the cookies it sets. */
	async function asRoute<T>(browser: Browser, path: string, act: (ctx: ReturnType<typeof createContext>) => Promise<T>): Promise<T> {
		const cookie = [...cookiesOf(browser)].map(([name, value]) => `${name}=${value}`).join('; ');
		const ctx = createContext(new Request(`${app().origin}${path}`, { method: 'POST', headers: { cookie } }), resolveConfig(w.config));
		const result = await act(ctx);
		const jar = cookiesOf(browser);
		browser.jar.set(host(), jar);
		for (const set of ctx.setCookies) {
			if (set.value === '' || set.options.maxAge === 0) jar.delete(set.name);
			else jar.set(set.name, set.value);
		}
		return result;
	}

	/** An admin signed in, impersonating a fresh user in the same browser. */
	async function impersonating() {
		const admin = await stored('admin');
		admins.push(admin.id);
		const user = await stored('user');
		const browser = await signedIn(admin);
		const adminCookie = sessionCookie(browser);
		clock.now += 1000;
		const outcome = await asRoute(browser, '/auth/admin/impersonate', (ctx) => startImpersonation(ctx, admin, user));
		expect(outcome.type).toBe('redirect');
		return { admin, user, browser, adminCookie };
	}

	async function appSession(browser: Browser): Promise<ImpersonatedSession | null> {
		return (await sessionOf(browser, app())) as ImpersonatedSession | null;
	}

	test('the app sees the user, marked with the admin and the end (its page and /auth/session); the kept admin cookie is httpOnly', async () => {
		const { admin, user, browser, adminCookie } = await impersonating();
		expect(cookiesOf(browser).get('kitgate.admin-session')).toBe(adminCookie);
		const session = await appSession(browser);
		expect(session?.user?.id).toBe(user.id);
		expect(session?.impersonation?.admin).toEqual({ id: admin.id, name: admin.name, email: admin.email });
		// the end as marked (database tokens keep whole seconds)
		expect(Math.abs(new Date(session!.impersonation!.expires).getTime() - (clock.now + MAX_AGE * 1000))).toBeLessThan(1000);
		const route = (await (await browser.request(`${app().origin}/auth/session`)).json()) as ImpersonatedSession;
		expect(route.impersonation?.admin.id).toBe(admin.id);
	});

	test('it ends by itself after impersonationMaxAge: no session, both cookies cleared', async () => {
		const { browser } = await impersonating();
		clock.now += MAX_AGE * 1000 + 1000;
		expect(await appSession(browser)).toBeNull();
		expect(cookiesOf(browser).has('kitgate.admin-session')).toBe(false);
		expect(sessionCookie(browser)).toBeUndefined();
	});

	test('it ends when the admin’s own sessions are revoked (signed out everywhere)', async () => {
		const { admin, browser } = await impersonating();
		expect(await appSession(browser)).not.toBeNull();
		clock.now += 1000;
		await revokeSessions(admin.id, w.config);
		clock.now += 1000;
		expect(await appSession(browser)).toBeNull();
	});

	test('it ends when the admin is no longer an admin', async () => {
		const { admin, browser } = await impersonating();
		expect(await appSession(browser)).not.toBeNull();
		admins.splice(admins.indexOf(admin.id), 1);
		expect(await appSession(browser)).toBeNull();
	});

	test('dropping the kept admin cookie does not leave a session of the user', async () => {
		const { browser } = await impersonating();
		cookiesOf(browser).delete('kitgate.admin-session');
		expect(await appSession(browser)).toBeNull();
		// nor does putting it back afterwards: the impersonation is over
		expect(sessionCookie(browser)).toBeUndefined();
	});

	test('stop gives the admin their session back; a copy of the impersonation cookie is then no session', async () => {
		const { admin, browser, adminCookie } = await impersonating();
		const copy = new Browser();
		copy.jar.set(host(), new Map(cookiesOf(browser)));
		const csrfToken = await browser.csrfToken(app().origin);
		await asRoute(browser, '/auth/admin/stop-impersonating', (ctx) => stopImpersonation(ctx, { csrfToken }));
		expect(sessionCookie(browser)).toBe(adminCookie);
		expect(cookiesOf(browser).has('kitgate.admin-session')).toBe(false);
		const back = await appSession(browser);
		expect(back?.user?.id).toBe(admin.id);
		expect(back?.impersonation).toBeUndefined();
		// the copy still has both cookies: the impersonation it names has ended
		expect(await appSession(copy)).toBeNull();
	});

	test('signing out while impersonating stops it: the admin is signed in again', async () => {
		const { admin, browser } = await impersonating();
		const csrfToken = await browser.csrfToken(app().origin);
		const out = await browser.request(`${app().origin}/auth/signout`, { form: { csrfToken, callbackUrl: '/' } });
		expect(out.status).toBe(302);
		const back = await appSession(browser);
		expect(back?.user?.id).toBe(admin.id);
		expect(back?.impersonation).toBeUndefined();
	});

	test('account changes, passkey registration and removal, second factor and deletion are refused with ImpersonationForbidden', async () => {
		const { user, browser } = await impersonating();
		for (const operation of ['delete', 'two-factor-start', 'two-factor-remove', 'remove-passkey', 'end-other-sessions', 'unlink', 'link']) {
			const csrfToken = await browser.csrfToken(app().origin);
			const refused = await browser.request(`${app().origin}/auth/account/${operation}`, { json: { csrfToken, email: address('new'), provider: 'x', credentialID: 'x' } });
			expect(refused.status, operation).toBe(403);
			expect(((await refused.json()) as { error?: string }).error, operation).toBe('ImpersonationForbidden');
		}
		const register = await browser.request(`${app().origin}/auth/webauthn-options/passkey?action=register`);
		expect(register.status).toBe(403);
		expect(((await register.json()) as { error?: string }).error).toBe('ImpersonationForbidden');
		const csrfToken = await browser.csrfToken(app().origin);
		const removal = await browser.request(`${app().origin}/auth/webauthn-authenticators/passkey`, { json: { csrfToken, credentialID: 'x' } });
		expect(removal.status).toBe(403);
		// the user is untouched, and the impersonation goes on
		expect(await w.adapter.getUser(user.id)).not.toBeNull();
		expect((await appSession(browser))?.user?.id).toBe(user.id);
	});

	test('the built-in account page shows the banner with a Stop form', async () => {
		const { admin, user, browser } = await impersonating();
		const page = await browser.request(`${app().origin}/auth/account`, { headers: { accept: 'text/html' } });
		expect(page.status).toBe(200);
		const html = await page.text();
		expect(html).toContain(`Signed in as ${user.name} by ${admin.name}`);
		expect(html).toMatch(/action="[^"]*\/auth\/admin\/stop-impersonating"/);
	});

	test('every built-in page shows the banner: the refusal an impersonated change ends on, the sign-in, sign-out and verify-request pages', async () => {
		const { admin, user, browser } = await impersonating();
		for (const path of ['/auth/error?error=ImpersonationForbidden', '/auth/signin', '/auth/signout', '/auth/verify-request']) {
			const page = await browser.request(`${app().origin}${path}`, { headers: { accept: 'text/html' } });
			const html = await page.text();
			expect(html, path).toContain(`Signed in as ${user.name} by ${admin.name}`);
			expect(html, path).toMatch(/action="[^"]*\/auth\/admin\/stop-impersonating"/);
		}
		// without an impersonation, the same pages have no banner
		const plain = await signedIn(user);
		expect(await (await plain.request(`${app().origin}/auth/error?error=ImpersonationForbidden`, { headers: { accept: 'text/html' } })).text()).not.toContain('stop-impersonating');
	});

	test('an update of the session cannot change who it shows or drop the mark', async () => {
		const { user, browser } = await impersonating();
		const csrfToken = await browser.csrfToken(app().origin);
		const updated = await browser.request(`${app().origin}/auth/session`, { json: { csrfToken, data: { name: 'someone else', impersonation: null } } });
		const session = (await updated.json()) as ImpersonatedSession;
		expect(session.user?.email).toBe(user.email);
		expect(session.impersonation).toBeDefined();
		expect((await appSession(browser))?.impersonation).toBeDefined();
	});

	test('every impersonated change is an audit row (admin, user, method and path) and an adminAction event', async () => {
		events.length = 0;
		const { admin, user, browser } = await impersonating();
		const csrfToken = await browser.csrfToken(app().origin);
		await browser.request(`${app().origin}/auth/account/end-other-sessions`, { form: { csrfToken } });
		const rows = (await w.adapter.listAuditEntries(user.id, { limit: 50 })).filter((row) => row.action === 'impersonated:request');
		expect(rows.map((row) => ({ actorId: row.actorId, subjectId: row.subjectId, detail: JSON.parse(row.detail!) }))).toEqual([
			{ actorId: admin.id, subjectId: user.id, detail: { method: 'POST', path: '/auth/account/end-other-sessions' } }
		]);
		expect(events).toEqual([{ action: 'impersonated:request', actorId: admin.id, subjectId: user.id, detail: { method: 'POST', path: '/auth/account/end-other-sessions' }, impersonated: true }]);
		// a read is not a change
		await appSession(browser);
		expect((await w.adapter.listAuditEntries(user.id, { limit: 50 })).filter((row) => row.action === 'impersonated:request')).toHaveLength(1);
	});
});
