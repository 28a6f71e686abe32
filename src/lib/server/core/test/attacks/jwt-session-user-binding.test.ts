// Token attacks (review of every token kitgate issues): the JWT session's binding to its user.
// kitgate keeps `sub`, `kitgate.subject`, `kitgate.sid`, `kitgate.user`, `iat` and `auth_time` as
// the sign-in wrote them whatever an app's `jwt` callback returns on a session update (review 5, 6
// and 11 use a callback that merges the client's update data, as here). A credentials session of an
// authorize() id that is not linked to a stored user is mapped to the stored user of that id only
// when their addresses match (credentials-user.ts, isSameUser: an app's member table numbered
// apart from the adapter's users, review 3) — and that address is read from the token's `email`,
// which the callback does not keep — now the address authorize() returned, kept in `kitgate.subject`.
// Through Auth() on the memory adapter and a SQLite file. The first group worked before security
// round 3 (each test failed then).

import { describe, expect, test } from 'vitest';
import Credentials from '../../../providers/credentials.js';
import { totpCode, totpStep } from '../../two-factor/totp.js';
import type { Adapter, JWT } from '../../types.js';
import { accountWorld, outcomeOf } from '../account-fixture.js';
import { memoryAndSqliteAdapters } from '../stored-adapters.js';

const adapters = memoryAndSqliteAdapters('jwt-session-user-binding');

/** The merging jwt callback of reviews 5, 6 and 11: whatever the client sends with an update lands in the token. */
const mergingJwt = ({ token, trigger, session }: { token: JWT; trigger?: string; session?: unknown }) =>
	trigger === 'update' && session && typeof session === 'object' ? { ...token, ...(session as JWT) } : token;

/**
 * An account world on JWT sessions whose app also signs in the members of its own table (Credentials)
 * and merges update data with `mergingJwt`. Mallory (password `mallory-password`) is the member
 * numbered `members.mallory` (the table's numbering is not the adapter's), with her own address.
 */
function memberTableWorld(adapter: Adapter) {
	const w = accountWorld(adapter, 'jwt');
	const members = { mallory: '' };
	w.config.providers = [
		...w.config.providers,
		Credentials({
			credentials: { username: {}, password: { type: 'password' } },
			authorize: async (fields) => (fields.username === 'mallory' && fields.password === 'mallory-password' ? { id: members.mallory, email: 'mallory@members.example' } : null)
		})
	];
	w.config.callbacks = { jwt: mergingJwt };
	return { w, members };
}

describe.each(adapters)('%s adapter, JWT sessions', (_name, makeAdapter) => {
	describe('the sign-in\'s address maps the session, not the token\'s', () => {
		test("a member whose authorize() id is another stored user's id writes that user's address into `email` with a session update and becomes that user: no second step, a fresh sign-in, the address changed", async () => {
			// attack: mallory's credentials session (sub = the victim's id, her own address) maps to nobody; one update with { email: victim's } makes every account route and linking decision take it for the victim
			const { w, members } = memberTableWorld(makeAdapter());

			// the victim: an email user with a second factor
			const victim = await w.signedIn('victim@example.com');
			const victimId = (await w.userOf('victim@example.com')).id;
			members.mallory = victimId; // the app's member table gives mallory the number the adapter gave the victim
			const started = (await (await victim.changeJson('two-factor-start')).json()) as { secret: string; pending: string };
			expect((await victim.changeJson('two-factor-confirm', { pending: started.pending, code: totpCode(started.secret, totpStep(w.clock.now)) })).status).toBe(200);
			w.clock.now += 60_000;

			const mallory = w.browser();
			const signIn = await mallory.request('/auth/callback/credentials', { form: { csrfToken: await mallory.client.csrfToken(), username: 'mallory', password: 'mallory-password', callbackUrl: '/' } });
			expect(signIn.headers.get('location'), 'mallory is no stored user: no second step').toBe('http://localhost:3000/');
			expect((await mallory.request('/auth/account')).status, 'held so far: her session maps to nobody').toBe(401);

			const update = await mallory.request('/auth/session', { json: { csrfToken: await mallory.client.csrfToken(), data: { email: 'victim@example.com' } } });
			expect(update.status).toBe(200);
			expect.soft((await mallory.request('/auth/account')).status, "after one update mallory's session is the victim's on the account routes").toBe(401);

			// what it is worth: the victim's address moved to mallory's mailbox (a fresh sign-in, so no step-up)
			await mallory.change('change-email', { email: 'mallory2@example.com' });
			const link = w.mails.filter((mail) => mail.kind === 'confirm-email-change' && mail.identifier === 'mallory2@example.com').at(-1);
			if (link) await mallory.change('confirm-email', { token: new URL(link.url).searchParams.get('token')!, email: 'mallory2@example.com' });
			expect((await w.adapter.getUser(victimId))?.email, "the victim's account now has mallory's address").toBe('victim@example.com');
		});
	});

	describe('held', () => {
		test('without the address in the token, the same member session stays nobody: account routes 401, nothing changed', async () => {
			const { w, members } = memberTableWorld(makeAdapter());
			await w.signedIn('victim@example.com');
			const victimId = (await w.userOf('victim@example.com')).id;
			members.mallory = victimId;
			const mallory = w.browser();
			await mallory.request('/auth/callback/credentials', { form: { csrfToken: await mallory.client.csrfToken(), username: 'mallory', password: 'mallory-password', callbackUrl: '/' } });
			// an update that tries the claims kitgate keeps: sub, subject, owner, sid, iat, auth_time
			await mallory.request('/auth/session', { json: { csrfToken: await mallory.client.csrfToken(), data: { sub: 'x', 'kitgate.subject': 'user', 'kitgate.user': victimId, iat: 4_102_444_800 } } });
			expect((await mallory.request('/auth/account')).status).toBe(401);
			const changed = await mallory.change('change-email', { email: 'mallory2@example.com' });
			expect(outcomeOf(changed).path).toBe('/auth/signin');
			expect((await w.adapter.getUser(victimId))?.email).toBe('victim@example.com');
		});
	});
});
