// Attacks on the account routes (issue 18): what a signed-in attacker (their own account) or a
// thief of a session can learn or change through Auth() on the memory adapter and a SQLite file,
// under both session strategies. Tests named "(fails before the fix)" perform an attack that
// works today; the others are defences that held.

import { describe, expect, test } from 'vitest';
import Credentials from '../../../providers/credentials.js';
import { totpCode, totpStep } from '../../two-factor/totp.js';
import type { Adapter, AdapterUser, JWT } from '../../types.js';
import { accountWorld, outcomeOf } from '../account-fixture.js';
import { TEST_SECRET } from '../client.js';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../stored-adapters.js';

const adapters = memoryAndSqliteAdapters('account-routes-against-a-thief');
const STRATEGIES = SESSION_STRATEGIES;

describe.each(adapters)('review 4, account routes: %s adapter', (_name, makeAdapter) => {
	describe.each(STRATEGIES)('%s sessions', (strategy) => {
		test('enumeration: asking to move one\'s own account to an address tells, through the notice in one\'s own mailbox, whether another user has that address (fails before the fix)', async () => {
			const w = accountWorld(makeAdapter(), strategy);
			await w.browser().signInByEmail('victim@example.com');
			const eve = await w.signedIn('eve@example.com');
			const eveMailbox = () => w.mails.filter((mail) => mail.identifier === 'eve@example.com').map((mail) => mail.kind);

			const taken = await eve.change('change-email', { email: 'victim@example.com' });
			const afterTaken = eveMailbox();
			const free = await eve.change('change-email', { email: 'nobody@example.com' });
			const afterFree = eveMailbox().slice(afterTaken.length);

			// the answers are the same (the defence that holds) …
			expect(outcomeOf(taken).account).toBe('email-change-requested');
			expect(outcomeOf(free).account).toBe('email-change-requested');
			// … but eve's own mailbox tells the two apart: a notice arrives only when the address is free
			expect(afterTaken, 'what eve\'s mailbox got for a taken address vs a free one').toEqual(afterFree);
		});

		test('a stolen session past the fresh-sign-in window adds the thief\'s passkey as a way in (connecting an IdP account is refused for the same session) (fails before the fix)', async () => {
			const w = accountWorld(makeAdapter(), strategy);
			const ada = await w.signedIn();
			w.clock.now += 11 * 60_000;
			const link = await ada.changeJson('link', { provider: 'idp' });
			expect(((await link.json()) as { error: string }).error).toBe('FreshSignInRequired');
			const options = await ada.request('/auth/webauthn-options/passkey?action=register');
			if (options.status === 200) {
				const { options: creation } = (await options.json()) as { options: Parameters<typeof ada.device.register>[0] };
				await ada.request('/auth/callback/passkey', { json: { csrfToken: await ada.client.csrfToken(), action: 'register', data: ada.device.register(creation) } });
			}
			const id = (await w.userOf('ada@example.com')).id;
			expect(await w.adapter.listAuthenticatorsByUserId(id), 'the thief\'s passkey became a way into ada\'s account').toHaveLength(0);
		});

		test('held: a session extended or re-issued long after its sign-in stays stale (the extension moves neither createdAt nor auth_time)', async () => {
			const w = accountWorld(makeAdapter(), strategy);
			const ada = await w.signedIn();
			const signedInAt = (await ada.overview()).signedInAt;
			w.clock.now += 25 * 3600_000; // past updateAge: this read extends / re-issues the session
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
			expect((await ada.overview()).signedInAt).toBe(signedInAt);
			expect(outcomeOf(await ada.change('delete')).error).toBe('FreshSignInRequired');
			// nor does a session update (trigger "update") with the default jwt callback
			await ada.request('/auth/session', { json: { csrfToken: await ada.client.csrfToken(), data: { auth_time: Math.floor(w.clock.now / 1000) } } });
			expect(outcomeOf(await ada.change('delete')).error).toBe('FreshSignInRequired');
			expect(await w.adapter.getUserByEmail('ada@example.com')).not.toBeNull();
		});

		test('held: callbackUrl on account posts never leaves the origin (form success, form failure, JSON, stale sign-in)', async () => {
			const w = accountWorld(makeAdapter(), strategy);
			const ada = await w.signedIn();
			for (const callbackUrl of ['https://evil.example/steal', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
				const ok = await ada.change('end-other-sessions', { callbackUrl });
				expect(new URL(ok.headers.get('location')!).origin, `success with ${callbackUrl}`).toBe('http://localhost:3000');
				const bad = await ada.change('unlink', { callbackUrl, provider: 'idp', providerAccountId: 'nope' });
				expect(new URL(bad.headers.get('location')!).origin, `failure with ${callbackUrl}`).toBe('http://localhost:3000');
				const json = await ada.request('/auth/account/end-other-sessions', { json: { csrfToken: await ada.client.csrfToken(), callbackUrl } });
				const body = (await json.json()) as { url?: string };
				if (body.url) expect(new URL(body.url).origin, `JSON with ${callbackUrl}`).toBe('http://localhost:3000');
			}
			w.clock.now += 11 * 60_000;
			const stale = await ada.change('delete', { callbackUrl: 'https://evil.example/steal' });
			const location = new URL(stale.headers.get('location')!);
			expect(location.origin).toBe('http://localhost:3000');
			const back = location.searchParams.get('callbackUrl');
			if (back) expect(new URL(back, 'http://localhost:3000').origin).toBe('http://localhost:3000');
			expect(await w.adapter.getUserByEmail('ada@example.com')).not.toBeNull();
		});

		test('held: an email-change link is spent by its confirmation and by nothing else; a second request for another address does not make the first one another user\'s', async () => {
			const w = accountWorld(makeAdapter(), strategy);
			const ada = await w.signedIn();
			await ada.change('change-email', { email: 'first@example.com' });
			const first = new URL(w.mails.find((mail) => mail.kind === 'confirm-email-change' && mail.identifier === 'first@example.com')!.url);
			// the link's address swapped for another one: refused (the token is bound to the address)
			const swapped = await ada.change('confirm-email', { token: first.searchParams.get('token')!, email: 'other@example.com' });
			expect(outcomeOf(swapped).accountError).toBe('Verification');
			// eve, signed in, posts ada's token for her own account: refused, and the link stays good for ada
			const eve = await w.signedIn('eve@example.com');
			const stolen = await eve.change('confirm-email', { token: first.searchParams.get('token')!, email: 'first@example.com' });
			expect(outcomeOf(stolen).accountError).toBe('Verification');
			expect(await w.adapter.getUserByEmail('first@example.com')).toBeNull();
			const done = await ada.change('confirm-email', { token: first.searchParams.get('token')!, email: 'first@example.com' });
			expect(outcomeOf(done).account).toBe('email-changed');
			expect((await w.adapter.getUserByEmail('first@example.com'))?.id).toBe((await ada.overview()).user.id);
		});

		test('held: deleting a 2FA user leaves no second-factor rows, and that user\'s pending sign-in dies with it', async () => {
			const adapter = makeAdapter() as Required<Adapter>;
			const w = accountWorld(adapter, strategy);
			w.config.providers = [
				...w.config.providers,
				Credentials({
					credentials: { email: {}, password: { type: 'password' } },
					authorize: async (fields) => {
						const user = await adapter.getUserByEmail(String(fields.email));
						return fields.password === 'pw' && user ? { id: user.id, email: user.email } : null;
					}
				})
			];
			const ada = await w.signedIn();
			const started = (await (await ada.changeJson('two-factor-start')).json()) as { secret: string; pending: string };
			const confirmed = await ada.changeJson('two-factor-confirm', { pending: started.pending, code: totpCode(started.secret, totpStep(w.clock.now)) });
			expect(confirmed.status).toBe(200);
			const id = ((await adapter.getUserByEmail('ada@example.com')) as AdapterUser).id;
			w.clock.now += 2000;
			const thief = w.browser();
			await thief.request('/auth/callback/credentials', { form: { csrfToken: await thief.client.csrfToken(), email: 'ada@example.com', password: 'pw', callbackUrl: '/' } });
			expect([...thief.client.jar.keys()].some((name) => name.includes('second-factor'))).toBe(true);

			expect(outcomeOf(await ada.change('delete')).account).toBe('account-deleted');
			expect(await adapter.getTwoFactor(id)).toBeNull();
			w.clock.now += 30_000;
			const late = await thief.request('/auth/second-factor', { json: { csrfToken: await thief.client.csrfToken(), code: totpCode(started.secret, totpStep(w.clock.now)) } });
			expect(late.status).not.toBe(200);
			expect(await thief.session()).toBeNull();
		});

		test('held: with the public URL configured, a forged X-Forwarded-Host reaches neither the confirmation link nor the note sent to the holder of a taken address', async () => {
			const w = accountWorld(makeAdapter(), strategy, { url: 'http://localhost:3000' });
			await w.browser().signInByEmail('victim@example.com');
			const eve = await w.signedIn('eve@example.com');
			const forged = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
			for (const email of ['victim@example.com', 'eve.new@example.com']) {
				const csrfToken = await eve.client.csrfToken();
				const answer = await eve.request('/auth/account/change-email', { form: { csrfToken, email, callbackUrl: '/settings' }, headers: forged });
				expect(outcomeOf(answer).account).toBe('email-change-requested');
			}
			const urls = w.mails.map((mail) => mail.url);
			expect(urls.length).toBeGreaterThanOrEqual(3);
			for (const url of urls) expect(new URL(url).host, url).toBe('localhost:3000');
		});

		test('held: ending the other sessions ends one signed in earlier in the same second; this browser goes on', async () => {
			const w = accountWorld(makeAdapter(), strategy);
			const ada = await w.signedIn();
			w.clock.now = Math.floor(w.clock.now / 1000) * 1000 + 5000 + 100;
			const thief = await w.signedIn();
			w.clock.now += 700; // same second as the thief's sign-in
			expect(outcomeOf(await ada.change('end-other-sessions')).account).toBe('other-sessions-ended');
			w.clock.now += 50;
			expect((await thief.request('/auth/account', { headers: { accept: 'application/json' } })).status).toBe(401);
			expect(await thief.session()).toBeNull();
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
		});
	});

	test('a session thief turns a stale JWT session without a sign-in time (an adopted Auth.js cookie, or one from before auth_time) into a fresh one through session update, when the app\'s jwt callback merges update data (fails before the fix)', async () => {
		const w = accountWorld(makeAdapter(), 'jwt');
		// the merge Auth.js apps write for `update()`: whatever the client sends lands in the token
		w.config.callbacks = { jwt: ({ token, trigger, session }) => (trigger === 'update' && session && typeof session === 'object' ? { ...token, ...(session as JWT) } : token) };
		const ada = await w.signedIn();
		const user = await w.userOf('ada@example.com');
		const { encodeJwt } = await import('../../crypto/jwt.js');
		const value = await encodeJwt({ token: { sub: user.id, email: 'ada@example.com' }, secret: TEST_SECRET, salt: 'kitgate.session-token', maxAge: 3600, now: w.clock.now });
		ada.client.jar.set('kitgate.session-token', value);
		// stale: deleting the account is refused
		expect(outcomeOf(await ada.change('delete')).error).toBe('FreshSignInRequired');

		// the thief asks the session route to "update" the session with a sign-in time of now
		const updated = await ada.request('/auth/session', { json: { csrfToken: await ada.client.csrfToken(), data: { auth_time: Math.floor(w.clock.now / 1000) } } });
		expect(updated.status).toBe(200);
		const deleted = await ada.change('delete');
		expect(outcomeOf(deleted).error, 'the forged auth_time made the session fresh').toBe('FreshSignInRequired');
		expect(await w.adapter.getUserByEmail('ada@example.com')).not.toBeNull();
	});
});
