// JWT sessions written again right after "sign out everywhere else": the revocation takes effect at
// the next whole second and this browser's session is issued at that instant; a later write within
// the same second (the email change's new address, a jwt callback that changes the token) must not
// issue it before that instant, or this browser would be signed out too. Found by e2e/account.spec.ts.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { deleteUser, revokeSessions } from '../session/revocation.js';
import { accountWorld, outcomeOf } from './account-fixture.js';

describe('JWT sessions re-issued within the second of a revocation', () => {
	test('end the other sessions, then change the email at the same instant: still signed in, with the new address', async () => {
		const w = accountWorld(MemoryAdapter(), 'jwt');
		const ada = await w.signedIn();
		expect(outcomeOf(await ada.change('end-other-sessions')).account).toBe('other-sessions-ended');
		expect(outcomeOf(await ada.change('change-email', { email: 'ada@new.example' })).account).toBe('email-change-requested');
		const mail = w.mails.find((m) => m.kind === 'confirm-email-change')!;
		const link = new URL(mail.url);
		const confirmed = await ada.change('confirm-email', { token: link.searchParams.get('token')!, email: link.searchParams.get('email')! });
		expect(outcomeOf(confirmed).account).toBe('email-changed');
		const overview = await ada.overview();
		expect(overview.user.email).toBe('ada@new.example');
		expect((await ada.session())?.user?.email).toBe('ada@new.example');
	});

	test('a jwt callback that changes the token on every read does not sign this browser out after ending the others', async () => {
		let reads = 0;
		const w = accountWorld(MemoryAdapter(), 'jwt', {});
		w.config.callbacks = { jwt: ({ token }) => ({ ...token, reads: ++reads }) };
		const ada = await w.signedIn();
		expect(outcomeOf(await ada.change('end-other-sessions')).account).toBe('other-sessions-ended');
		expect((await ada.session())?.user?.email).toBe('ada@example.com');
		expect((await ada.session())?.user?.email).toBe('ada@example.com');
		expect((await ada.request('/auth/account')).status).toBe(200);
	});
});

// A session signed in right after a revocation is issued at that revocation's time (so the
// revocation does not catch it); a second revocation within the same second must still reach it.
// Found by e2e/account.spec.ts (a passkey removal ended the other device, which signed in again,
// and "sign out everywhere else" within that second left it signed in).
describe('two revocations within one second', () => {
	async function signedInAgainAfterRevocation(w: ReturnType<typeof accountWorld>) {
		const ada = await w.signedIn();
		const phone = await w.signedIn();
		expect(outcomeOf(await ada.change('end-other-sessions')).account).toBe('other-sessions-ended');
		expect(await phone.session()).toBeNull();
		w.clock.now += 300;
		await phone.signInByEmail('ada@example.com');
		expect((await phone.session())?.user?.email).toBe('ada@example.com');
		w.clock.now += 300;
		return { ada, phone };
	}

	test('"sign out everywhere else" again ends the session signed in between; this browser stays', async () => {
		const w = accountWorld(MemoryAdapter(), 'jwt');
		const { ada, phone } = await signedInAgainAfterRevocation(w);
		expect(outcomeOf(await ada.change('end-other-sessions')).account).toBe('other-sessions-ended');
		expect(await phone.session()).toBeNull();
		expect((await ada.session())?.user?.email).toBe('ada@example.com');
		// a sign-in after the second revocation works
		await phone.signInByEmail('ada@example.com');
		expect((await phone.session())?.user?.email).toBe('ada@example.com');
	});

	test.each([
		['revokeSessions()', revokeSessions],
		['deleteUser()', deleteUser]
	])('%s ends the session signed in between', async (_name, endAll) => {
		const w = accountWorld(MemoryAdapter(), 'jwt');
		const { ada, phone } = await signedInAgainAfterRevocation(w);
		const userId = (await ada.overview()).user.id;
		await endAll(userId, w.config);
		expect(await phone.session()).toBeNull();
		expect(await ada.session()).toBeNull();
	});

	test('deleting the account on the account page ends the session signed in between', async () => {
		const w = accountWorld(MemoryAdapter(), 'jwt');
		const { ada, phone } = await signedInAgainAfterRevocation(w);
		expect(outcomeOf(await ada.change('delete', { confirm: 'ada@example.com' })).account).toBeDefined();
		expect(await ada.session()).toBeNull();
		expect(await phone.session()).toBeNull();
	});
});
