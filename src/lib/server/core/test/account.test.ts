// The account routes through `Auth()` on the memory adapter and a SQLite file, under both session
// strategies: the overview, every change, and the refusals that guard them (CSRF, another user's
// ids, a stale sign-in, the last way in, rate limits). HTTP through both integrations, PostgreSQL
// and the OAuth link flow are in attacks/account-attacks.test.ts.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { resolveConfig } from '../config/resolve-config.js';
import type { Adapter } from '../types.js';
import { accountWorld, IDP, outcomeOf, START, UA_SAFARI } from './account-fixture.js';
import { TEST_SECRET } from './client.js';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from './stored-adapters.js';

const adapters = memoryAndSqliteAdapters('account');
const STRATEGIES = SESSION_STRATEGIES;
const ELEVEN_MINUTES = 11 * 60 * 1000;

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(STRATEGIES)('%s sessions', (strategy) => {
		const world = () => accountWorld(makeAdapter(), strategy);

		test('GET /auth/account without a session is 401 SessionRequired', async () => {
			const response = await world().browser().request('/auth/account');
			expect(response.status).toBe(401);
			expect(await response.json()).toEqual({ error: 'SessionRequired' });
		});

		test('the overview lists the user, the email account, passkeys with their authenticator, and this session with its browser', async () => {
			const w = world();
			const ada = await w.signedIn('ada@example.com', UA_SAFARI);
			const credentialID = await ada.addPasskey();
			const overview = await ada.overview();
			expect(overview.user).toMatchObject({ email: 'ada@example.com', name: null });
			expect(overview.user.emailVerified).toBe(new Date(START).toISOString());
			expect(overview.sessionStrategy).toBe(strategy);
			expect(overview.signedInAt).toBe(new Date(START).toISOString());
			expect(overview.freshUntil).toBe(new Date(START + 600_000).toISOString());
			expect(overview.accounts).toEqual([{ provider: 'email', providerName: 'Email', type: 'email', providerAccountId: 'ada@example.com', canUnlink: false }]);
			expect(overview.linkable).toEqual([{ id: 'idp', name: 'Test IdP' }]);
			expect(overview.passkeys).toEqual([
				expect.objectContaining({ credentialID, name: null, createdAt: new Date(START).toISOString(), lastUsedAt: null, canRemove: false })
			]);
			expect(overview.sessions).toHaveLength(1);
			expect(overview.sessions[0]).toMatchObject({ current: true, createdAt: new Date(START).toISOString(), browser: 'Safari', os: 'iOS' });
			expect(overview.canChangeEmail).toBe(true);
			expect(overview.canDeleteAccount).toBe(true);
			expect(overview.csrfToken).toMatch(/^[0-9a-f]{64}$/);
		});

		test('renaming a passkey: the name shows, updateAuthenticator fires; a passkey sign-in records its use', async () => {
			const w = world();
			const ada = await w.signedIn();
			const credentialID = await ada.addPasskey();
			const renamed = await ada.change('rename-passkey', { credentialID, name: '  Work   laptop ' });
			expect(outcomeOf(renamed)).toMatchObject({ path: '/settings', account: 'passkey-renamed', accountError: null });
			expect((await ada.overview()).passkeys[0]?.name).toBe('Work laptop');
			expect(w.eventNames()).toContain('updateAuthenticator');

			w.clock.now += 60_000;
			const later = w.browser();
			later.device.credentials.push(...ada.device.credentials);
			await later.signInWithPasskey();
			expect((await later.overview()).passkeys[0]?.lastUsedAt).toBe(new Date(START + 60_000).toISOString());

			const tooLong = await ada.changeJson('rename-passkey', { credentialID, name: 'x'.repeat(65) });
			expect(tooLong.status).toBe(400);
			expect(await tooLong.json()).toEqual({ error: 'InvalidRequest' });
		});

		test('removing a passkey, any of them, needs a recent sign-in; after a new one each goes (unlinkAccount fires)', async () => {
			const w = world();
			const ada = await w.signedIn();
			const first = await ada.addPasskey();
			const second = await ada.addPasskey();
			w.clock.now += ELEVEN_MINUTES;
			for (const credentialID of [first, second]) {
				const stale = await ada.change('remove-passkey', { credentialID });
				expect(outcomeOf(stale)).toMatchObject({ path: '/auth/signin', error: 'FreshSignInRequired', callbackUrl: `${'http://localhost:3000'}/settings` });
			}
			expect((await ada.overview()).passkeys.map((p) => p.credentialID).sort()).toEqual([first, second].sort());

			await ada.signInByEmail('ada@example.com');
			expect(outcomeOf(await ada.change('remove-passkey', { credentialID: first })).account).toBe('passkey-removed');
			expect(outcomeOf(await ada.change('remove-passkey', { credentialID: second })).account).toBe('passkey-removed');
			expect((await ada.overview()).passkeys).toEqual([]);
			expect(await w.adapter.getAuthenticator(second)).toBeNull();
			expect(w.events.filter(([name]) => name === 'unlinkAccount')).toHaveLength(2);
		});

		test('the last way in is never removed: a passkey-only user cannot remove the passkey (form and JSON)', async () => {
			const w = world();
			const bea = w.browser();
			const credentialID = await bea.addPasskey('bea@example.com');
			const form = await bea.change('remove-passkey', { credentialID });
			expect(outcomeOf(form)).toMatchObject({ path: '/settings', accountError: 'LastSignInMethod', account: null });
			const json = await bea.changeJson('remove-passkey', { credentialID });
			expect(json.status).toBe(409);
			expect(await json.json()).toEqual({ error: 'LastSignInMethod' });
			expect(await w.adapter.getAuthenticator(credentialID)).not.toBeNull();
			expect((await bea.overview()).passkeys[0]?.canRemove).toBe(false);
		});

		test('unlinking an OAuth account: allowed while another way in remains, refused for the last one, needs a recent sign-in', async () => {
			const w = world();
			const ada = await w.signedIn();
			const user = await w.userOf('ada@example.com');
			await w.adapter.linkAccount({ userId: user.id, provider: IDP.id, type: 'oidc', providerAccountId: 'idp-ada' });
			const overview = await ada.overview();
			expect(overview.accounts.find((a) => a.provider === 'idp')).toMatchObject({ providerName: 'Test IdP', canUnlink: true });

			w.clock.now += ELEVEN_MINUTES;
			expect(outcomeOf(await ada.change('unlink', { provider: 'idp', providerAccountId: 'idp-ada' })).error).toBe('FreshSignInRequired');
			await ada.signInByEmail('ada@example.com');
			expect(outcomeOf(await ada.change('unlink', { provider: 'idp', providerAccountId: 'idp-ada' })).account).toBe('unlinked');
			expect(await w.adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'idp-ada' })).toBeNull();
			expect(w.events.find(([name]) => name === 'unlinkAccount')?.[1]).toMatchObject({ user: { id: user.id }, account: { provider: 'idp', providerAccountId: 'idp-ada' } });

			// an email account is no OAuth account: not unlinked here
			const email = await ada.changeJson('unlink', { provider: 'email', providerAccountId: 'ada@example.com' });
			expect(email.status).toBe(400);
		});

		test('an OAuth account that is the last way in stays (the email provider gone from the config)', async () => {
			const adapter = makeAdapter();
			const first = accountWorld(adapter, strategy);
			const ada = await first.signedIn();
			const user = (await adapter.getUserByEmail!('ada@example.com'))!;
			await adapter.linkAccount!({ userId: user.id, provider: IDP.id, type: 'oidc', providerAccountId: 'idp-ada' });
			// the same browser and session, on a config without the email provider: the IdP is its only way in
			const second = accountWorld(adapter, strategy, { providers: [IDP] });
			const jar = ada.client.jar;
			const again = second.browser();
			for (const [name, value] of jar) again.client.jar.set(name, value);
			const refused = await again.changeJson('unlink', { provider: 'idp', providerAccountId: 'idp-ada' });
			expect(refused.status).toBe(409);
			expect(await adapter.getUserByAccount!({ provider: 'idp', providerAccountId: 'idp-ada' })).not.toBeNull();
		});

		test('every change needs the CSRF token: without it (or with another browser\'s) nothing changes', async () => {
			const w = world();
			const ada = await w.signedIn();
			const credentialID = await ada.addPasskey();
			await ada.addPasskey();
			const user = await w.userOf('ada@example.com');
			await w.adapter.linkAccount({ userId: user.id, provider: IDP.id, type: 'oidc', providerAccountId: 'idp-ada' });
			const sessionId = (await ada.overview()).sessions[0]!.id;
			const other = w.browser();
			const foreignToken = await other.client.csrfToken();
			// the two passkeys added above were told to the user; nothing after
			expect(w.mails.map((m) => m.change)).toEqual(['passkey-added', 'passkey-added']);
			w.mails.length = 0;
			const changes: [string, Record<string, string>][] = [
				['unlink', { provider: 'idp', providerAccountId: 'idp-ada' }],
				['link', { provider: 'idp' }],
				['rename-passkey', { credentialID, name: 'pwned' }],
				['remove-passkey', { credentialID }],
				['end-session', { sessionId }],
				['end-other-sessions', {}],
				['change-email', { email: 'mallory@example.com' }],
				['confirm-email', { token: 'x', email: 'mallory@example.com' }],
				['delete', {}]
			];
			for (const [operation, fields] of changes) {
				for (const csrfToken of ['', foreignToken]) {
					const response = await ada.change(operation, { ...fields, csrfToken });
					expect(outcomeOf(response).accountError, `${operation} with ${csrfToken ? 'a foreign' : 'no'} token`).toBe('MissingCSRF');
				}
			}
			const after = await ada.overview();
			expect(after.passkeys.map((p) => p.name)).toEqual([null, null]);
			expect(after.accounts.map((a) => a.provider).sort()).toEqual(['email', 'idp']);
			expect(await w.adapter.getUser(user.id)).not.toBeNull();
			expect(w.mails).toEqual([]);
			expect(w.eventNames().filter((name) => ['unlinkAccount', 'updateAuthenticator', 'deleteUser', 'signOut'].includes(name))).toEqual([]);
		});

		test('another user\'s passkeys, sessions and accounts look like missing ones, and stay', async () => {
			const w = world();
			const ada = await w.signedIn();
			const adaPasskey = await ada.addPasskey();
			await ada.addPasskey();
			const adaUser = await w.userOf('ada@example.com');
			await w.adapter.linkAccount({ userId: adaUser.id, provider: IDP.id, type: 'oidc', providerAccountId: 'idp-ada' });
			const adaSession = (await ada.overview()).sessions[0]!.id;

			const eve = await w.signedIn('eve@example.com', UA_SAFARI);
			await eve.addPasskey();
			const attempts: [string, Record<string, string>][] = [
				['rename-passkey', { credentialID: adaPasskey, name: 'pwned' }],
				['remove-passkey', { credentialID: adaPasskey }],
				['unlink', { provider: 'idp', providerAccountId: 'idp-ada' }],
				...(strategy === 'database' ? ([['end-session', { sessionId: adaSession }]] as [string, Record<string, string>][]) : [])
			];
			for (const [operation, fields] of attempts) {
				const response = await eve.changeJson(operation, fields);
				expect(response.status, operation).toBe(400);
				expect(await response.json()).toEqual({ error: 'InvalidRequest' });
			}
			const overview = await ada.overview();
			expect(overview.passkeys.find((p) => p.credentialID === adaPasskey)?.name).toBeNull();
			expect(overview.accounts.map((a) => a.provider).sort()).toEqual(['email', 'idp']);
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
		});

		test('a stale sign-in: sensitive changes send the user to sign in and back; a fresh sign-in lets them through', async () => {
			const w = world();
			const ada = await w.signedIn();
			w.clock.now += ELEVEN_MINUTES;
			expect((await ada.overview()).freshUntil).toBeNull();
			for (const [operation, fields] of [
				['delete', {}],
				['change-email', { email: 'new@example.com' }],
				['link', { provider: 'idp' }]
			] as const) {
				const response = await ada.change(operation, fields);
				expect(outcomeOf(response), operation).toMatchObject({ path: '/auth/signin', error: 'FreshSignInRequired', callbackUrl: 'http://localhost:3000/settings' });
				const json = await ada.changeJson(operation, fields);
				expect(json.status).toBe(403);
				expect(await json.json()).toMatchObject({ error: 'FreshSignInRequired', url: expect.stringContaining('/auth/signin?') });
			}
			expect(await w.adapter.getUserByEmail('ada@example.com')).not.toBeNull();
			expect(w.mails).toEqual([]);
		});

		test('a session whose sign-in time is unknown (before kitgate recorded it) is never recent', async () => {
			const w = world();
			const ada = await w.signedIn();
			if (strategy === 'database') {
				const { sessionToken } = (await w.adapter.listSessionsByUserId((await w.userOf('ada@example.com')).id))[0]!;
				// as a row written before migration 0005 or by an adapter that does not keep it
				const raw = w.adapter as Adapter;
				const original = raw.getSessionAndUser!.bind(raw);
				raw.getSessionAndUser = async (token) => {
					const found = await original(token);
					if (found && token === sessionToken) delete found.session.createdAt;
					return found;
				};
			} else {
				w.config.callbacks = { jwt: ({ token }) => token };
				// a token without auth_time: an Auth.js cookie taken over, or one from before this release
				const { encodeJwt } = await import('../crypto/jwt.js');
				const value = await encodeJwt({ token: { sub: (await w.userOf('ada@example.com')).id, email: 'ada@example.com' }, secret: TEST_SECRET, salt: 'kitgate.session-token', maxAge: 3600, now: w.clock.now });
				ada.client.jar.set('kitgate.session-token', value);
			}
			expect(outcomeOf(await ada.change('delete')).error).toBe('FreshSignInRequired');
		});

		test('email change: the link goes to the new address only, the old one is told; only the same user can confirm it', async () => {
			const w = world();
			const ada = await w.signedIn();
			const requested = await ada.change('change-email', { email: ' Ada.New@Example.com ' });
			expect(outcomeOf(requested).account).toBe('email-change-requested');
			expect(w.mails.map((m) => [m.kind, m.identifier, m.newEmail])).toEqual([
				['confirm-email-change', 'ada.new@example.com', 'ada.new@example.com'],
				['email-change-notice', 'ada@example.com', 'ada.new@example.com']
			]);
			const link = new URL(w.mails[0]!.url);
			expect(link.origin + link.pathname).toBe('http://localhost:3000/auth/account/confirm-email');
			expect(w.mails[1]!.url).not.toContain('token');
			expect((await w.adapter.getUserByEmail('ada@example.com'))?.email).toBe('ada@example.com');

			// another signed-in user opens and confirms the link: refused, and the link still works for Ada
			const eve = await w.signedIn('eve@example.com');
			const evePage = await eve.request(link.href);
			expect(evePage.status).toBe(200);
			const { confirmationForm } = await import('./email-fixtures.js');
			const eveForm = confirmationForm(await evePage.text());
			const eveTry = await eve.request(eveForm.action, { form: eveForm.fields });
			expect(outcomeOf(eveTry).accountError).toBe('Verification');
			expect(await w.adapter.getUserByEmail('ada.new@example.com')).toBeNull();

			// signed out, the link sends to the sign-in page and back
			const stranger = w.browser();
			const signedOut = await stranger.request(link.href);
			expect(outcomeOf(signedOut)).toMatchObject({ path: '/auth/signin', callbackUrl: link.href });

			const page = await ada.request(link.href);
			const html = await page.text();
			expect(html).toContain('ada.new@example.com');
			const form = confirmationForm(html);
			expect(form.action).toBe('http://localhost:3000/auth/account/confirm-email');
			const confirmed = await ada.request(form.action, { form: form.fields });
			expect(outcomeOf(confirmed)).toMatchObject({ path: '/settings', account: 'email-changed' });
			const user = await w.userOf('ada.new@example.com');
			expect(user.emailVerified?.getTime()).toBe(w.clock.now);
			expect(await w.adapter.getUserByEmail('ada@example.com')).toBeNull();
			expect((await ada.session())?.user?.email).toBe('ada.new@example.com');
			expect(w.eventNames()).toContain('updateUser');
			// the old address's email account would still sign in as Ada: it is gone
			expect(await w.adapter.getUserByAccount({ provider: 'email', providerAccountId: 'ada@example.com' })).toBeNull();
			// used once
			const replay = await ada.request(form.action, { form: form.fields });
			expect(outcomeOf(replay).accountError).toBe('Verification');
		});

		test('email change to an address another user has: the same answer, a note to that address, no link, the same notice to the old address', async () => {
			const w = world();
			await w.browser().signInByEmail('bob@example.com');
			const ada = await w.signedIn();
			const requested = await ada.change('change-email', { email: 'bob@example.com' });
			expect(outcomeOf(requested).account).toBe('email-change-requested');
			expect(w.mails.map((m) => [m.kind, m.identifier])).toEqual([
				['email-in-use', 'bob@example.com'],
				['email-change-notice', 'ada@example.com']
			]);
			expect(w.mails[0]!.url).not.toContain('token');
		});

		test('ending sessions: one by id, or every other one; the other browser is signed out on its next request', async () => {
			const w = world();
			const laptop = await w.signedIn();
			w.clock.now += 1000;
			const phone = await w.signedIn('ada@example.com', UA_SAFARI);
			// both strategies list both browsers (JWT sessions through their rows, jwt-sessions.ts) and end one by id
			const listed = (await laptop.overview()).sessions;
			expect(listed.map((s) => [s.current, s.browser])).toEqual([
				[true, 'Firefox'],
				[false, 'Safari']
			]);
			const other = listed.find((s) => !s.current)!;
			expect(other.id).not.toContain(phone.client.jar.get('kitgate.session-token')!.slice(0, 8));
			expect(outcomeOf(await laptop.change('end-session', { sessionId: other.id })).account).toBe('session-ended');
			expect(await phone.session()).toBeNull();
			expect(await laptop.session()).not.toBeNull();
			expect((await laptop.overview()).sessions.map((s) => s.current)).toEqual([true]);
			const gone = await laptop.changeJson('end-session', { sessionId: other.id });
			expect(gone.status).toBe(400);
			const tablet = await w.signedIn('ada@example.com', UA_SAFARI);
			// same clock second as the tablet's sign-in: still revoked
			expect(outcomeOf(await laptop.change('end-other-sessions')).account).toBe('other-sessions-ended');
			expect(await tablet.session()).toBeNull();
			expect((await laptop.session())?.user?.email).toBe('ada@example.com');
			w.clock.now += 5000;
			expect((await laptop.session())?.user?.email).toBe('ada@example.com');
			expect(w.eventNames()).toContain('signOut');
		});

		test('ending another session, or all the others, needs a recent sign-in; ending this one does not', async () => {
			const w = world();
			const { laptop, phone } = await w.laptopAndPhone();
			w.clock.now += ELEVEN_MINUTES;
			const other = (await laptop.overview()).sessions.find((s) => !s.current)!;
			expect(outcomeOf(await laptop.change('end-session', { sessionId: other.id })).error).toBe('FreshSignInRequired');
			expect(outcomeOf(await laptop.change('end-other-sessions')).error).toBe('FreshSignInRequired');
			expect((await phone.session())?.user?.email).toBe('ada@example.com');
			const own = (await laptop.overview()).sessions.find((s) => s.current)!;
			expect(outcomeOf(await laptop.change('end-session', { sessionId: own.id })).account).toBe('session-ended');
			expect(await laptop.session()).toBeNull();
		});

		test('ending the current session signs this browser out', async () => {
			const w = world();
			const ada = await w.signedIn();
			const { id } = (await ada.overview()).sessions[0]!;
			expect(outcomeOf(await ada.change('end-session', { sessionId: id })).account).toBe('session-ended');
			expect(await ada.session()).toBeNull();
		});

		test('a stale deletion posted from /settings (callbackUrl home) goes to sign in and back to /settings, not home', async () => {
			const w = world();
			const ada = await w.signedIn();
			w.clock.now += ELEVEN_MINUTES;
			const stale = await ada.change('delete', { callbackUrl: '/', returnTo: '/settings' });
			expect(outcomeOf(stale)).toMatchObject({ path: '/auth/signin', error: 'FreshSignInRequired', callbackUrl: 'http://localhost:3000/settings' });
			// a refusal comes back there too; a foreign returnTo is refused like a foreign callbackUrl
			const foreign = await ada.change('delete', { callbackUrl: '/', returnTo: 'https://evil.example/' });
			expect(outcomeOf(foreign).path).not.toContain('evil');
			expect(await w.adapter.getUserByEmail('ada@example.com')).not.toBeNull();
		});

		test('deleting the account: every row goes, the cookie is cleared, other sessions end; deleteUser and signOut fire', async () => {
			const w = world();
			const ada = await w.signedIn();
			const credentialID = await ada.addPasskey();
			const user = await w.userOf('ada@example.com');
			await w.adapter.linkAccount({ userId: user.id, provider: IDP.id, type: 'oidc', providerAccountId: 'idp-ada' });
			const phone = await w.signedIn('ada@example.com', UA_SAFARI);

			const deleted = await ada.change('delete', { callbackUrl: '/' });
			expect(outcomeOf(deleted)).toMatchObject({ path: '/', account: 'account-deleted' });
			expect(deleted.headers.getSetCookie().some((line) => line.startsWith('kitgate.session-token=;') || /kitgate\.session-token=[^;]*;.*Max-Age=0/i.test(line))).toBe(true);
			expect(await w.adapter.getUser(user.id)).toBeNull();
			expect(await w.adapter.listAccountsByUserId(user.id)).toEqual([]);
			expect(await w.adapter.listSessionsByUserId(user.id)).toEqual([]);
			expect(await w.adapter.listAuthenticatorsByUserId(user.id)).toEqual([]);
			expect(await w.adapter.getAuthenticator(credentialID)).toBeNull();
			expect(await ada.session()).toBeNull();
			expect(await phone.session()).toBeNull();
			expect(w.eventNames().slice(-2)).toEqual(['deleteUser', 'signOut']);
			expect(w.events.find(([name]) => name === 'deleteUser')?.[1]).toMatchObject({ user: { id: user.id, email: 'ada@example.com' } });
		});

		test('changes are rate limited per user (rateLimit.account)', async () => {
			const w = accountWorld(makeAdapter(), strategy);
			w.config.rateLimit = { account: { perIdentifier: 2, perAddress: 0 } };
			const ada = await w.signedIn();
			const credentialID = await ada.addPasskey();
			expect(outcomeOf(await ada.change('rename-passkey', { credentialID, name: 'a' })).account).toBe('passkey-renamed');
			expect(outcomeOf(await ada.change('rename-passkey', { credentialID, name: 'b' })).account).toBe('passkey-renamed');
			expect(outcomeOf(await ada.change('rename-passkey', { credentialID, name: 'c' })).accountError).toBe('RateLimited');
			const json = await ada.changeJson('rename-passkey', { credentialID, name: 'd' });
			expect(json.status).toBe(429);
			expect(json.headers.get('retry-after')).toMatch(/^\d+$/);
			expect((await ada.overview()).passkeys[0]?.name).toBe('b');
		});

		test('last-way-in removal race: what another server removed meanwhile is seen after the write, and the removal is undone', async () => {
			const adapter = makeAdapter() as Required<Adapter>;
			const w = accountWorld(adapter, strategy);
			const bea = w.browser();
			const credentialID = await bea.addPasskey('bea@example.com');
			const user = (await adapter.listAuthenticatorsByUserId((await adapter.getAuthenticator(credentialID))!.userId))[0]!.userId;
			await adapter.linkAccount({ userId: user, provider: IDP.id, type: 'oidc', providerAccountId: 'idp-bea' });
			// this server still reads the IdP account the other server is unlinking at the same moment
			const stale = await adapter.listAccountsByUserId(user);
			const read = adapter.listAccountsByUserId.bind(adapter);
			let reads = 0;
			(adapter as Adapter).listAccountsByUserId = async (id) => (reads++ === 0 ? stale : read(id));
			await adapter.unlinkAccount({ provider: IDP.id, providerAccountId: 'idp-bea' });
			const refused = await bea.changeJson('remove-passkey', { credentialID });
			expect(refused.status).toBe(409);
			expect(await adapter.getAuthenticator(credentialID)).toMatchObject({ credentialID, userId: user });
			(adapter as Adapter).listAccountsByUserId = read;
			expect((await bea.overview()).passkeys.map((p) => p.credentialID)).toEqual([credentialID]);
		});

		test('two concurrent removals of a user\'s only two ways in: one of them stays', async () => {
			const w = world();
			const bea = w.browser();
			const credentialID = await bea.addPasskey('bea@example.com');
			const user = (await w.adapter.getAuthenticator(credentialID))!.userId;
			await w.adapter.linkAccount({ userId: user, provider: IDP.id, type: 'oidc', providerAccountId: 'idp-bea' });
			const [a, b] = await Promise.all([
				bea.changeJson('remove-passkey', { credentialID }),
				bea.changeJson('unlink', { provider: 'idp', providerAccountId: 'idp-bea' })
			]);
			expect([a.status, b.status].sort()).toEqual([200, 409]);
			const overview = await bea.overview();
			expect(overview.passkeys.length + overview.accounts.filter((x) => x.provider === 'idp').length).toBe(1);
		});
	});
});

describe('who is signed in', () => {
	test("a JWT credentials session whose sub is another stored user's id does not act as that user", async () => {
		const adapter = MemoryAdapter();
		const w = accountWorld(adapter, 'jwt');
		await w.signedIn();
		const adaUser = (await adapter.getUserByEmail('ada@example.com'))!;
		// the app's authorize() returns ids of its own user table, which may collide with the adapter's
		const { default: Credentials } = await import('../../providers/credentials.js');
		const withPasswords = accountWorld(adapter, 'jwt', {
			providers: [...w.config.providers, Credentials({ credentials: { username: {} }, authorize: () => ({ id: adaUser.id, email: 'mallory@evil.test' }) })]
		});
		const mallory = withPasswords.browser();
		const csrfToken = await mallory.client.csrfToken();
		await mallory.request('/auth/callback/credentials', { form: { csrfToken, username: 'mallory' } });
		expect((await mallory.session())?.user?.email).toBe('mallory@evil.test');
		expect((await mallory.request('/auth/account')).status).toBe(401);
		expect(outcomeOf(await mallory.change('delete')).error).toBe('SessionRequired');
		expect(await adapter.getUser(adaUser.id)).not.toBeNull();
	});

	test("a JWT credentials session with no address, whose sub is the id of a stored user with no address, does not act as that user", async () => {
		const adapter = MemoryAdapter();
		// a user who signed up with a provider that gives no address (as X does)
		const xUser = await adapter.createUser({ id: 'x-user', name: 'X user', email: null as unknown as string, emailVerified: null });
		await adapter.linkAccount({ userId: xUser.id, type: 'oauth', provider: 'idp', providerAccountId: 'x-1' });
		const { default: Credentials } = await import('../../providers/credentials.js');
		const w = accountWorld(adapter, 'jwt');
		const withPasswords = accountWorld(adapter, 'jwt', {
			providers: [...w.config.providers, Credentials({ credentials: { username: {} }, authorize: () => ({ id: xUser.id, name: 'Mallory' }) })]
		});
		const mallory = withPasswords.browser();
		const csrfToken = await mallory.client.csrfToken();
		await mallory.request('/auth/callback/credentials', { form: { csrfToken, username: 'mallory' } });
		expect((await mallory.session())?.user?.name).toBe('Mallory');
		expect((await mallory.request('/auth/account')).status).toBe(401);
		expect(outcomeOf(await mallory.change('delete')).error).toBe('SessionRequired');
		expect(await adapter.getUser(xUser.id)).not.toBeNull();
	});
});

describe('configuration', () => {
	test('account: false turns the routes off', async () => {
		const w = accountWorld(MemoryAdapter(), 'database', { account: false });
		const response = await w.browser().request('/auth/account');
		expect(response.status).toBe(404);
	});

	test('without an adapter the routes are not there; an explicit `account` without one fails at start-up', async () => {
		const config = { providers: [], secret: TEST_SECRET, trustHost: true };
		const { Auth } = await import('../auth.js');
		const response = await Auth(new Request('http://localhost:3000/auth/account', { headers: { accept: 'application/json' } }), config);
		expect(response.status).toBe(404);
		expect(() => resolveConfig({ ...config, account: {} })).toThrow(/needs an adapter/);
	});

	test('an explicit `account` with an adapter that lacks a method fails at start-up, naming it', () => {
		const { listSessionsByUserId: _dropped, ...partial } = MemoryAdapter();
		expect(() => resolveConfig({ providers: [], secret: TEST_SECRET, trustHost: true, adapter: partial, account: {} })).toThrow(/listSessionsByUserId/);
		// without `account`, the request names it
		const w = accountWorld(partial, 'database');
		return w
			.browser()
			.request('/auth/account')
			.then(async (response) => {
				expect(response.status).toBe(503);
				expect(await response.json()).toEqual({ error: 'MissingAdapterMethod' });
			});
	});

	test('account.freshSignIn.maxAge is checked and used', async () => {
		expect(() => resolveConfig({ providers: [], secret: TEST_SECRET, trustHost: true, adapter: MemoryAdapter(), account: { freshSignIn: { maxAge: 0 } } })).toThrow(/maxAge/);
		const w = accountWorld(MemoryAdapter(), 'jwt', { account: { freshSignIn: { maxAge: 30 } } });
		const ada = await w.signedIn();
		w.clock.now += 31_000;
		expect(outcomeOf(await ada.change('delete')).error).toBe('FreshSignInRequired');
	});

	test('deleteAccount: false and emailChange: false turn those changes off', async () => {
		const w = accountWorld(MemoryAdapter(), 'database', { account: { deleteAccount: false, emailChange: false } });
		const ada = await w.signedIn();
		const overview = await ada.overview();
		expect([overview.canDeleteAccount, overview.canChangeEmail]).toEqual([false, false]);
		expect((await ada.changeJson('delete')).status).toBe(404);
		expect((await ada.changeJson('change-email', { email: 'x@example.com' })).status).toBe(404);
	});

	test('a GET of a change is not a change', async () => {
		const w = accountWorld(MemoryAdapter(), 'database');
		const ada = await w.signedIn();
		const response = await ada.request('/auth/account/delete', { headers: { accept: 'application/json' } });
		expect(response.status).toBe(404);
		expect(await w.adapter.getUserByEmail('ada@example.com')).not.toBeNull();
	});
});
