// The session's active organization over HTTP through both integrations (Express `getSession`,
// SvelteKit `locals.auth()`, and `GET /auth/session`), under both session strategies, database
// sessions with their copies in the session cache: switching, switching to an organization by a
// guessed id, a forged organization (from a callback or the token), and a member removed, an
// organization deleted or a role changed, seen on the very next read. On memory, SQLite and a real
// PostgreSQL.

import { beforeAll, describe, expect, test } from 'vitest';
import { startImpersonation } from '../../admin/impersonation.js';
import { resolveConfig } from '../../config/resolve-config.js';
import { createContext } from '../../request/context.js';
import { decodeJwt } from '../../crypto/jwt.js';
import { SESSION_ID_CLAIM } from '../../session/jwt-session-list.js';
import { SIGN_IN_TIME_CLAIM } from '../../session/session.js';
import { TEST_SECRET } from '../client.js';
import type { Adapter, AdapterMember, AdapterOrganization, AdapterUser, AuthConfig, Session } from '../../types.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { attackConfig, attackWorld, STRATEGIES, type Strategy } from './flows.js';
import { passwordOfStoredUsers, storeUser } from './banned-user-fixture.js';
import { memorySqliteAndPostgresAdapters } from '../stored-adapters-with-postgres.js';

/** The adapters organizations are stored by. */
const ORGANIZATION_ADAPTERS: [string, () => Required<Adapter>][] = memorySqliteAndPostgresAdapters('active-organization-integrations');

const world = attackWorld();
const clock = { now: Date.now() };

type AppSession = Session & { user?: Session['user'] & { id?: string } };

/** A real adapter whose session-row reads are counted: a read served by the session cache asks none. */
function countingSessionReads(adapter: Required<Adapter>) {
	const reads = { count: 0 };
	const counted: Required<Adapter> = {
		...adapter,
		getSessionAndUser: async (token: string) => {
			reads.count++;
			return adapter.getSessionAndUser(token);
		}
	};
	return { adapter: counted, reads };
}

describe.each(INTEGRATIONS)('%s', (integration) => {
	describe.each(ORGANIZATION_ADAPTERS)('%s adapter', (_adapterName, makeAdapter) => {
		describe.each(STRATEGIES)('%s sessions', (strategy: Strategy) => {
			const app = (): AppServer => world.apps[integration];
			let raw: Required<Adapter>;
			let adapter: Required<Adapter>;
			let reads: { count: number };
			let config: AuthConfig;

			/** The app's config with `overrides` (callbacks, say). */
			const configWith = (overrides: Partial<AuthConfig> = {}): AuthConfig =>
				attackConfig(adapter, strategy, {
					now: () => clock.now,
					organizations: {},
					// copies of database sessions in an encrypted cookie, used for a minute
					session: { strategy, ...(strategy === 'database' ? { cache: { maxAge: 60 } } : {}) },
					providers: [passwordOfStoredUsers(() => adapter)],
					...overrides
				});

			beforeAll(() => {
				raw = makeAdapter();
				({ adapter, reads } = countingSessionReads(raw));
				config = configWith();
				app().use(config);
			});

			async function organization(name: string): Promise<AdapterOrganization> {
				const slug = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}`;
				return raw.createOrganization({ id: crypto.randomUUID(), name, slug, logo: null, metadata: null, createdAt: new Date(clock.now) });
			}

			async function join(organizationId: string, user: AdapterUser, role: string): Promise<AdapterMember> {
				return raw.createMember({ id: crypto.randomUUID(), organizationId, userId: user.id, role, createdAt: new Date(clock.now) });
			}

			async function signedIn(name: string): Promise<{ user: AdapterUser; browser: Browser }> {
				const user = await storeUser(raw, name, clock.now);
				const browser = new Browser();
				const csrfToken = await browser.csrfToken(app().origin);
				const response = await browser.request(`${app().origin}/auth/callback/credentials`, { form: { csrfToken, email: user.email, password: 'right', callbackUrl: '/' } });
				expect(response.status).toBe(302);
				expect(response.headers.get('location')).not.toContain('error');
				return { user, browser };
			}

			/** The session the app's own page sees (`getSession` / `locals.auth()`). */
			async function pageSession(browser: Browser): Promise<AppSession | null> {
				return (await browser.session(app().origin)) as AppSession | null;
			}

			/** The session `GET /auth/session` answers. */
			async function routeSession(browser: Browser): Promise<AppSession | null> {
				const response = await browser.request(`${app().origin}/auth/session`);
				expect(response.status).toBe(200);
				return (await response.json()) as AppSession | null;
			}

			/** Both reads agree; the organization they show. */
			async function organizationOf(browser: Browser): Promise<Session['organization'] | undefined> {
				const [page, route] = [await pageSession(browser), await routeSession(browser)];
				expect(page?.user).toBeDefined();
				expect(route?.organization).toEqual(page?.organization);
				return page?.organization;
			}

			/** The decoded JWT session cookie of `browser` (JWT sessions). */
			async function sessionToken(browser: Browser) {
				const value = browser.cookie(app().origin, 'kitgate.session-token');
				return value ? decodeJwt({ token: value, secret: TEST_SECRET, salt: 'kitgate.session-token', now: clock.now }) : null;
			}

			async function setActive(browser: Browser, organizationId: string, json = false): Promise<Response> {
				const csrfToken = await browser.csrfToken(app().origin);
				const url = `${app().origin}/auth/organizations/set-active`;
				return json ? browser.request(url, { json: { csrfToken, organizationId } }) : browser.request(url, { form: { csrfToken, organizationId } });
			}

			/**
			 * Reads the session twice: under database sessions the second read is served by its copy.
			 * Two seconds on first: a copy made within a second of a change to its session counts as stale.
			 */
			async function readTwiceFromCopy(browser: Browser): Promise<void> {
				clock.now += 2000;
				await pageSession(browser);
				const before = reads.count;
				await pageSession(browser);
				if (strategy === 'database') {
					expect(browser.cookie(app().origin, 'kitgate.session-cache')).toBeDefined();
					expect(reads.count, 'the second read came from the copy').toBe(before);
				}
			}

			test('a new session has no organization; switching shows it with the role, on every read; "" clears it', async () => {
				const { user, browser } = await signedIn('ada');
				const acme = await organization('Acme');
				const globex = await organization('Globex');
				await join(acme.id, user, 'owner');
				await join(globex.id, user, 'member');
				expect(await organizationOf(browser)).toBeUndefined();
				const tokenBefore = await sessionToken(browser);

				clock.now += 5000;
				const switched = await setActive(browser, acme.id);
				expect(switched.status).toBe(302);
				const location = new URL(switched.headers.get('location')!);
				expect(location.pathname).toBe('/auth/organizations/settings');
				expect(location.searchParams.get('id')).toBe(acme.id);
				expect(location.searchParams.get('organization')).toBe('switched');
				expect(await organizationOf(browser)).toEqual({ id: acme.id, name: 'Acme', slug: acme.slug, logo: null, role: 'owner' });
				if (strategy === 'jwt') {
					// re-issued as every re-issue: the same user, session id and sign-in time, issued now
					const tokenAfter = await sessionToken(browser);
					expect(tokenAfter?.activeOrganizationId).toBe(acme.id);
					for (const claim of ['sub', SESSION_ID_CLAIM, SIGN_IN_TIME_CLAIM]) expect(tokenAfter?.[claim], claim).toEqual(tokenBefore?.[claim]);
					expect(tokenAfter?.iat).toBe(Math.floor(clock.now / 1000));
				}

				const script = await setActive(browser, globex.id, true);
				expect(script.status).toBe(200);
				expect(await script.json()).toMatchObject({ result: 'switched' });
				expect(await organizationOf(browser)).toEqual({ id: globex.id, name: 'Globex', slug: globex.slug, logo: null, role: 'member' });

				const cleared = await setActive(browser, '');
				expect(cleared.status).toBe(302);
				const back = new URL(cleared.headers.get('location')!);
				expect(back.pathname).toBe('/auth/organizations');
				expect(back.searchParams.get('organization')).toBe('switched');
				expect(await organizationOf(browser)).toBeUndefined();
			});

			test("switching to an organization by a guessed id (another's, or none) is OrganizationNotFound and changes nothing", async () => {
				const { user, browser } = await signedIn('eve');
				const { user: victim } = await signedIn('victor');
				const own = await organization('Own');
				const theirs = await organization('Theirs');
				await join(own.id, user, 'member');
				await join(theirs.id, victim, 'owner');
				await setActive(browser, own.id);

				for (const guess of [theirs.id, crypto.randomUUID()]) {
					const script = await setActive(browser, guess, true);
					expect(script.status).toBe(404);
					expect(await script.json()).toEqual({ error: 'OrganizationNotFound' });
					const form = await setActive(browser, guess);
					expect(form.status).toBe(302);
					expect(new URL(form.headers.get('location')!).searchParams.get('organizationError')).toBe('OrganizationNotFound');
					expect((await organizationOf(browser))?.id).toBe(own.id);
				}
			});

			test('set-active refuses a post without its CSRF token, a signed-out caller and hostile ids, never a 500', async () => {
				const { user, browser } = await signedIn('mallory');
				const acme = await organization('Acme');
				await join(acme.id, user, 'owner');
				const url = `${app().origin}/auth/organizations/set-active`;

				const forged = await browser.request(url, { json: { organizationId: acme.id } });
				expect(forged.status).toBe(403);
				expect(await forged.json()).toEqual({ error: 'MissingCSRF' });
				expect(await organizationOf(browser)).toBeUndefined();

				const stranger = new Browser();
				const csrfToken = await stranger.csrfToken(app().origin);
				const signedOut = await stranger.request(url, { json: { csrfToken, organizationId: acme.id } });
				expect(signedOut.status).toBe(401);
				expect(await signedOut.json()).toEqual({ error: 'SessionRequired' });

				for (const hostile of [7, ['a'], 'a\u0000b', '\ud800', 'x'.repeat(300)]) {
					const token = await browser.csrfToken(app().origin);
					const response = await browser.request(url, { json: { csrfToken: token, organizationId: hostile } });
					expect(response.status, JSON.stringify(hostile)).toBe(400);
					expect(await response.json()).toEqual({ error: 'InvalidRequest' });
				}
				expect(await organizationOf(browser)).toBeUndefined();
			});

			test('a removed member loses the organization on the next read, the session copy notwithstanding', async () => {
				const { user, browser } = await signedIn('bob');
				const acme = await organization('Acme');
				const member = await join(acme.id, user, 'member');
				await setActive(browser, acme.id);
				await readTwiceFromCopy(browser);
				expect((await pageSession(browser))?.organization?.id).toBe(acme.id);

				expect(await raw.deleteMember(member.id, { keepOne: 'owner' })).toBe('deleted');
				const before = reads.count;
				const page = await pageSession(browser);
				expect(page?.user?.email).toBe(user.email);
				expect(page?.organization).toBeUndefined();
				// the read that dropped it was served by the copy: membership is never copied
				if (strategy === 'database') expect(reads.count).toBe(before);
				expect((await routeSession(browser))?.organization).toBeUndefined();
			});

			test('an organization deleted is none on the next read; a changed role shows on the next read', async () => {
				const { user, browser } = await signedIn('carol');
				const acme = await organization('Acme');
				const globex = await organization('Globex');
				const { user: owner } = await signedIn('olga');
				await join(globex.id, owner, 'owner');
				const membership = await join(globex.id, user, 'member');
				await join(acme.id, user, 'owner');

				await setActive(browser, globex.id);
				await readTwiceFromCopy(browser);
				expect((await organizationOf(browser))?.role).toBe('member');
				const promoted = await raw.updateMemberRole(membership.id, 'admin', { keepOne: 'owner' });
				expect(promoted).toMatchObject({ role: 'admin' });
				expect((await organizationOf(browser))?.role).toBe('admin');

				await setActive(browser, acme.id);
				await readTwiceFromCopy(browser);
				await raw.deleteOrganization(acme.id);
				expect(await organizationOf(browser)).toBeUndefined();
			});

			test('an organization forged by the session callback, or a foreign id put in the token by the jwt callback, is never shown', async () => {
				const { user, browser } = await signedIn('dave');
				const { user: other } = await signedIn('frank');
				const own = await organization('Own');
				const foreign = await organization('Foreign');
				await join(own.id, user, 'member');
				await join(foreign.id, other, 'owner');
				const fake = { id: foreign.id, name: 'Foreign', slug: foreign.slug, logo: null, role: 'owner' };
				try {
					// a callback that merges what it finds (client data, the token) into the session
					app().use(
						configWith({
							callbacks: {
								session: ({ session }) => ({ ...session, organization: fake }),
								...(strategy === 'jwt' ? { jwt: ({ token }) => ({ ...token, activeOrganizationId: foreign.id }) } : {})
							}
						})
					);
					expect(await organizationOf(browser)).toBeUndefined();
					// switched to their own: the callback neither hides nor replaces the checked one
					// (under JWT the jwt callback puts the foreign id back on every read: still nothing foreign)
					await setActive(browser, own.id);
					const shown = await organizationOf(browser);
					if (strategy === 'jwt') expect(shown).toBeUndefined();
					else expect(shown).toEqual({ id: own.id, name: 'Own', slug: own.slug, logo: null, role: 'member' });
				} finally {
					app().use(config);
				}
				if (strategy === 'database') {
					// a foreign id written into the session row itself (a database someone else can write to) shows nothing either
					const sessionToken = browser.cookie(app().origin, 'kitgate.session-token')!;
					await raw.updateSession({ sessionToken, activeOrganizationId: foreign.id });
					clock.now += 2000;
					expect(await organizationOf(browser)).toBeUndefined();
				}
			});

			test('the session callback sees session.organization', async () => {
				const { user, browser } = await signedIn('grace');
				const acme = await organization('Acme');
				await join(acme.id, user, 'admin');
				await setActive(browser, acme.id);
				try {
					app().use(configWith({ callbacks: { session: ({ session }) => ({ ...session, seen: session.organization?.role ?? 'none' }) } }));
					const page = (await pageSession(browser)) as AppSession & { seen?: string };
					expect(page?.seen).toBe('admin');
					expect(page?.organization?.id).toBe(acme.id);
				} finally {
					app().use(config);
				}
			});

			test('an impersonated session may switch: the organization shows beside the impersonation mark', async () => {
				const { user: admin, browser } = await signedIn('admin');
				const user = await storeUser(raw, 'helen', clock.now);
				const acme = await organization('Acme');
				await join(acme.id, user, 'member');
				const withAdmins = configWith({ admin: { admins: [admin.id] } });
				try {
					app().use(withAdmins);
					// started as the admin route starts it, in the admin's browser
					const host = new URL(app().origin).host;
					const jar = browser.jar.get(host)!;
					const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
					clock.now += 1000;
					const ctx = createContext(new Request(`${app().origin}/auth/admin/impersonate`, { method: 'POST', headers: { cookie } }), resolveConfig(withAdmins));
					expect((await startImpersonation(ctx, admin, user)).type).toBe('redirect');
					for (const set of ctx.setCookies) {
						if (set.value === '' || set.options.maxAge === 0) jar.delete(set.name);
						else jar.set(set.name, set.value);
					}
					expect((await pageSession(browser))?.impersonation?.admin.id).toBe(admin.id);

					const switched = await setActive(browser, acme.id, true);
					expect(switched.status).toBe(200);
					const page = await pageSession(browser);
					expect(page?.user?.email).toBe(user.email);
					expect(page?.impersonation?.admin.id).toBe(admin.id);
					expect(page?.organization).toEqual({ id: acme.id, name: 'Acme', slug: acme.slug, logo: null, role: 'member' });
				} finally {
					app().use(config);
				}
			});
		});
	});
});
