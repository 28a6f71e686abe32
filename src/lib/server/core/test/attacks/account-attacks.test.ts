// Attacks on the account routes (issue 18), over HTTP through both integrations, on memory,
// SQLite, PostgreSQL and the Auth.js table presets, under both session strategies: CSRF on every
// change, another user's ids, a stale sign-in, login CSRF into the link flow and a link that
// another user would finish, replay of an email-change link by another user, and what deleting
// an account leaves behind. Each test turns a success of the attacker into a refusal.

import { beforeAll, describe, expect, test } from 'vitest';
import { everyAdapter } from '../../../adapters/test/every-adapter.js';
import Passkey from '../../../providers/passkey.js';
import type { AccountOverview } from '../../account-types.js';
import type { Adapter, AuthConfig } from '../../types.js';
import { confirmationForm, sinkProvider } from '../email-fixtures.js';
import { loginAtIdp } from '../idp-browser.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { address, attackConfig, attackWorld, type IdpAccount, sessionOf, signInByEmail, STRATEGIES } from './flows.js';

const world = attackWorld({ sink: true, idp: ['idp'] });

const adapters = everyAdapter('account-attacks', { authjsTables: 'all' });
const clock = { now: Date.now() };

/** The account config of one test: email over the SMTP sink, passkeys, the IdP, a clock the test moves. */
function accountConfig(adapter: Adapter, strategy: 'jwt' | 'database', passkeys: boolean): AuthConfig {
	return attackConfig(adapter, strategy, {
		now: () => clock.now,
		experimental: { enableWebAuthn: true },
		// an app on a schema without a passkey table offers no passkeys
		providers: [sinkProvider(world.sink), ...(passkeys ? [Passkey()] : []), world.idp.provider('idp')]
	});
}

async function post(browser: Browser, app: AppServer, operation: string, fields: Record<string, string>, origin?: string | null): Promise<Response> {
	const csrfToken = fields.csrfToken ?? (await browser.csrfToken(app.origin));
	return browser.request(`${app.origin}/auth/account/${operation}`, { form: { callbackUrl: '/settings', ...fields, csrfToken }, origin });
}

async function overview(browser: Browser, app: AppServer): Promise<AccountOverview> {
	const response = await browser.request(`${app.origin}/auth/account`, { headers: { accept: 'application/json' } });
	expect(response.status).toBe(200);
	return (await response.json()) as AccountOverview;
}

function query(response: Response): URLSearchParams {
	const location = response.headers.get('location');
	return location ? new URL(location, 'http://x').searchParams : new URLSearchParams();
}

describe.each(INTEGRATIONS)('%s', (integration) => {
	describe.each(adapters)('%s adapter', (adapterName, makeAdapter) => {
		describe.each(STRATEGIES)('%s sessions', (strategy) => {
			let adapter: Required<Adapter>;
			const app = () => world.apps[integration];
			const passkeys = !adapterName.includes('authjsPgAdapterTables');
			beforeAll(() => {
				adapter = makeAdapter();
			});

			/** A signed-in user with an email account, an IdP account and (where the schema stores them) a passkey. */
			async function victimWithEverything() {
				const email = address('victim');
				const browser = new Browser();
				await signInByEmail(browser, app(), world.sink, email);
				const user = (await adapter.getUserByEmail(email))!;
				await adapter.linkAccount({ userId: user.id, provider: 'idp', type: 'oidc', providerAccountId: `idp-${user.id}` });
				let credentialID: string | undefined;
				if (passkeys) {
					credentialID = Buffer.from(crypto.randomUUID()).toString('base64url');
					await adapter.linkAccount({ userId: user.id, provider: 'passkey', type: 'webauthn', providerAccountId: credentialID });
					await adapter.createAuthenticator({
						credentialID,
						userId: user.id,
						providerAccountId: credentialID,
						credentialPublicKey: 'cHVibGlj',
						counter: 0,
						credentialDeviceType: 'multiDevice',
						credentialBackedUp: true,
						transports: 'internal'
					});
				}
				return { browser, email, user, credentialID };
			}

			test('CSRF: every change posted cross-site or without its token is refused and changes nothing', async () => {
				clock.now = Date.now();
				app().use(accountConfig(adapter, strategy, passkeys));
				const victim = await victimWithEverything();
				const sessionId = (await overview(victim.browser, app())).sessions[0]!.id;
				const changes: [string, Record<string, string>][] = [
					['unlink', { provider: 'idp', providerAccountId: `idp-${victim.user.id}` }],
					['link', { provider: 'idp' }],
					['end-session', { sessionId }],
					['end-other-sessions', {}],
					['change-email', { email: address('attacker', 'evil.test') }],
					['delete', {}],
					...(victim.credentialID
						? ([
								['rename-passkey', { credentialID: victim.credentialID, name: 'pwned' }],
								['remove-passkey', { credentialID: victim.credentialID }]
							] as [string, Record<string, string>][])
						: [])
				];
				for (const [operation, fields] of changes) {
					// a page of another site auto-submits the form: no token, a foreign Origin
					const crossSite = await post(victim.browser, app(), operation, { ...fields, csrfToken: '' }, 'https://evil.test');
					expect(crossSite.status, `${operation} cross-site`).not.toBe(200);
					expect(query(crossSite).get('account'), `${operation} cross-site`).toBeNull();
					// same-site but without the token (an old form, or a script on a sibling page)
					const noToken = await post(victim.browser, app(), operation, { ...fields, csrfToken: '' });
					expect(query(noToken).get('accountError'), `${operation} without a token`).toBe('MissingCSRF');
				}
				const after = await overview(victim.browser, app());
				expect(after.user.email).toBe(victim.email);
				expect(after.accounts.map((a) => a.provider).sort()).toEqual(['email', 'idp']);
				if (victim.credentialID) expect(after.passkeys.map((p) => [p.credentialID, p.name])).toEqual([[victim.credentialID, null]]);
				expect(world.sink.messages().filter((m) => m.envelope.to.some((to) => to.endsWith('@evil.test')))).toEqual([]);
			});

			test("another user's passkey, session and account ids are refused like missing ones", async () => {
				clock.now = Date.now();
				app().use(accountConfig(adapter, strategy, passkeys));
				const victim = await victimWithEverything();
				const victimSession = (await overview(victim.browser, app())).sessions[0]!.id;
				const attacker = new Browser();
				await signInByEmail(attacker, app(), world.sink, address('attacker', 'evil.test'));
				const attempts: [string, Record<string, string>][] = [
					['unlink', { provider: 'idp', providerAccountId: `idp-${victim.user.id}` }],
					['unlink', { provider: 'email', providerAccountId: victim.email }],
					...(strategy === 'database' ? ([['end-session', { sessionId: victimSession }]] as [string, Record<string, string>][]) : []),
					...(victim.credentialID
						? ([
								['rename-passkey', { credentialID: victim.credentialID, name: 'pwned' }],
								['remove-passkey', { credentialID: victim.credentialID }]
							] as [string, Record<string, string>][])
						: [])
				];
				for (const [operation, fields] of attempts) {
					expect(query(await post(attacker, app(), operation, fields)).get('accountError'), operation).toBe('InvalidRequest');
				}
				const after = await overview(victim.browser, app());
				expect(after.accounts.map((a) => a.provider).sort()).toEqual(['email', 'idp']);
				if (victim.credentialID) expect(after.passkeys[0]?.name).toBeNull();
				expect((await sessionOf(victim.browser, app()))?.user?.email).toBe(victim.email);
			});

			test('a stale sign-in is sent to sign in again and comes back; the fresh one goes through', async () => {
				clock.now = Date.now();
				app().use(accountConfig(adapter, strategy, passkeys));
				const victim = await victimWithEverything();
				clock.now += 11 * 60 * 1000;
				const stale = await post(victim.browser, app(), 'unlink', { provider: 'idp', providerAccountId: `idp-${victim.user.id}` });
				const location = new URL(stale.headers.get('location')!);
				expect(location.pathname).toBe('/auth/signin');
				expect(location.searchParams.get('error')).toBe('FreshSignInRequired');
				expect(location.searchParams.get('callbackUrl')).toBe(`${app().origin}/settings`);
				expect(await adapter.getUserByAccount({ provider: 'idp', providerAccountId: `idp-${victim.user.id}` })).not.toBeNull();
				world.sink.clear();
				await signInByEmail(victim.browser, app(), world.sink, victim.email);
				const fresh = await post(victim.browser, app(), 'unlink', { provider: 'idp', providerAccountId: `idp-${victim.user.id}` });
				expect(query(fresh).get('account')).toBe('unlinked');
				expect(await adapter.getUserByAccount({ provider: 'idp', providerAccountId: `idp-${victim.user.id}` })).toBeNull();
			});

			test('the explicit link connects the IdP account to the signed-in user; a plain sign-in with it does not', async () => {
				clock.now = Date.now();
				app().use(accountConfig(adapter, strategy, passkeys));
				const email = address('linker');
				const browser = new Browser();
				await signInByEmail(browser, app(), world.sink, email);
				const user = (await adapter.getUserByEmail(email))!;
				const mine: IdpAccount = world.idp.addAccount({ id: `mine-${user.id}`, email: address('mine-at-idp'), name: 'Mine' });
				const started = await post(browser, app(), 'link', { provider: 'idp' });
				expect(started.status).toBe(302);
				const back = await browser.request(await loginAtIdp(started.headers.get('location')!, { login: mine.id }));
				expect(query(back).get('account')).toBe('linked');
				expect((await adapter.getUserByAccount({ provider: 'idp', providerAccountId: mine.id }))?.id).toBe(user.id);
				expect((await sessionOf(browser, app()))?.user?.id).toBe(user.id);

				// another user of the app, signed in, signs in (plain) with a new IdP account: it is not theirs
				const other = new Browser();
				const otherEmail = address('other');
				await signInByEmail(other, app(), world.sink, otherEmail);
				const otherUser = (await adapter.getUserByEmail(otherEmail))!;
				const plain: IdpAccount = world.idp.addAccount({ id: `plain-${otherUser.id}`, email: address('plain-at-idp'), name: 'Plain' });
				const csrfToken = await other.csrfToken(app().origin);
				const signIn = await other.request(`${app().origin}/auth/signin/idp`, { form: { csrfToken, callbackUrl: '/' } });
				await other.request(await loginAtIdp(signIn.headers.get('location')!, { login: plain.id }));
				expect((await adapter.getUserByAccount({ provider: 'idp', providerAccountId: plain.id }))?.id).not.toBe(otherUser.id);
			});

			test("login CSRF into the link flow: the attacker's IdP callback, opened in the victim's browser, links nothing to the victim", async () => {
				clock.now = Date.now();
				app().use(accountConfig(adapter, strategy, passkeys));
				const victim = new Browser();
				const victimEmail = address('victim');
				await signInByEmail(victim, app(), world.sink, victimEmail);
				const victimUser = (await adapter.getUserByEmail(victimEmail))!;
				const attacker = new Browser();
				await signInByEmail(attacker, app(), world.sink, address('attacker', 'evil.test'));
				const attackersIdp: IdpAccount = world.idp.addAccount({ id: `evil-${crypto.randomUUID()}`, email: address('evil-at-idp', 'evil.test'), name: 'Evil' });
				// the attacker starts a link in their own browser and logs in at the IdP as themselves
				const started = await post(attacker, app(), 'link', { provider: 'idp' });
				const callback = await loginAtIdp(started.headers.get('location')!, { login: attackersIdp.id });
				// ... then gets the victim's browser to open the callback
				const opened = await victim.request(callback);
				expect(query(opened).get('error')).toBe('InvalidCheck');
				expect(await adapter.getUserByAccount({ provider: 'idp', providerAccountId: attackersIdp.id })).toBeNull();
				expect((await sessionOf(victim, app()))?.user?.id).toBe(victimUser.id);

				// a link the victim's browser started, finished after someone else signed in there: not linked to either
				const started2 = await post(victim, app(), 'link', { provider: 'idp' });
				const intruderEmail = address('intruder', 'evil.test');
				world.sink.clear();
				await signInByEmail(victim, app(), world.sink, intruderEmail);
				const intruder = (await adapter.getUserByEmail(intruderEmail))!;
				const theirs: IdpAccount = world.idp.addAccount({ id: `late-${crypto.randomUUID()}`, email: address('late-at-idp'), name: 'Late' });
				await victim.request(await loginAtIdp(started2.headers.get('location')!, { login: theirs.id }));
				const owner = await adapter.getUserByAccount({ provider: 'idp', providerAccountId: theirs.id });
				expect(owner?.id).not.toBe(victimUser.id);
				expect(owner?.id).not.toBe(intruder.id);
			});

			test('an email-change link used by another signed-in user is refused and stays usable by its owner', async () => {
				clock.now = Date.now();
				app().use(accountConfig(adapter, strategy, passkeys));
				const ada = new Browser();
				const adaEmail = address('ada');
				await signInByEmail(ada, app(), world.sink, adaEmail);
				const newEmail = address('ada-new');
				world.sink.clear();
				expect(query(await post(ada, app(), 'change-email', { email: newEmail })).get('account')).toBe('email-change-requested');
				const mailToNew = world.sink.messages().find((m) => m.envelope.to.includes(newEmail));
				const notice = world.sink.messages().find((m) => m.envelope.to.includes(adaEmail));
				expect(notice?.links.some((link) => link.includes('token='))).toBe(false);
				const link = mailToNew!.links.find((l) => l.includes('/auth/account/confirm-email'))!;
				expect(new URL(link).origin).toBe(app().origin);

				const eve = new Browser();
				await signInByEmail(eve, app(), world.sink, address('eve', 'evil.test'));
				const evePage = await eve.request(link);
				const eveForm = confirmationForm(await evePage.text());
				const eveTry = await eve.request(eveForm.action, { form: eveForm.fields });
				expect(query(eveTry).get('accountError')).toBe('Verification');
				expect(await adapter.getUserByEmail(newEmail)).toBeNull();

				const page = await ada.request(link);
				const form = confirmationForm(await page.text());
				const done = await ada.request(form.action, { form: form.fields });
				expect(query(done).get('account')).toBe('email-changed');
				expect((await adapter.getUserByEmail(newEmail))?.emailVerified).toBeInstanceOf(Date);
				expect((await sessionOf(ada, app()))?.user?.email).toBe(newEmail);
			});

			test('ending the other sessions signs the other browser out on its next request', async () => {
				clock.now = Date.now();
				app().use(accountConfig(adapter, strategy, passkeys));
				const email = address('two-browsers');
				const laptop = new Browser();
				await signInByEmail(laptop, app(), world.sink, email);
				const phone = new Browser();
				world.sink.clear();
				await signInByEmail(phone, app(), world.sink, email);
				const listed = (await overview(laptop, app())).sessions;
				expect(listed.filter((s) => s.current)).toHaveLength(1);
				if (strategy === 'database') {
					expect(listed).toHaveLength(2);
					const other = listed.find((s) => !s.current)!;
					expect(query(await post(laptop, app(), 'end-session', { sessionId: other.id })).get('account')).toBe('session-ended');
				} else {
					expect(query(await post(laptop, app(), 'end-other-sessions', {})).get('account')).toBe('other-sessions-ended');
				}
				expect(await sessionOf(phone, app())).toBeNull();
				expect((await sessionOf(laptop, app()))?.user?.email).toBe(email);
			});

			test('deleting the account removes every row, ends every session and clears the cookie', async () => {
				clock.now = Date.now();
				app().use(accountConfig(adapter, strategy, passkeys));
				const victim = await victimWithEverything();
				const phone = new Browser();
				world.sink.clear();
				await signInByEmail(phone, app(), world.sink, victim.email);
				const deleted = await post(victim.browser, app(), 'delete', { callbackUrl: '/' });
				expect(query(deleted).get('account')).toBe('account-deleted');
				expect(deleted.headers.getSetCookie().some((line) => /session-token=;|session-token=[^;]*;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i.test(line))).toBe(true);
				expect(await adapter.getUser(victim.user.id)).toBeNull();
				expect(await adapter.listAccountsByUserId(victim.user.id)).toEqual([]);
				expect(await adapter.listSessionsByUserId(victim.user.id)).toEqual([]);
				if (victim.credentialID) expect(await adapter.getAuthenticator(victim.credentialID)).toBeNull();
				expect(await sessionOf(victim.browser, app())).toBeNull();
				expect(await sessionOf(phone, app())).toBeNull();
			});
		});
	});
});
