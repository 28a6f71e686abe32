// JWT sessions written again right after "sign out everywhere else": the revocation takes effect at
// the next whole second and this browser's session is issued at that instant; a later write within
// the same second (the email change's new address, a jwt callback that changes the token) must not
// issue it before that instant, or this browser would be signed out too. Found by e2e/account.spec.ts.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { accountWorld, outcomeOf } from './account-fixture.js';

describe('JWT sessions re-issued within the second of a revocation', () => {
	test('end the other sessions, then change the email at the same instant: still signed in, with the new address', async () => {
		const w = accountWorld(MemoryAdapter(), 'jwt');
		const ada = w.browser();
		await ada.signInByEmail('ada@example.com');
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
		const ada = w.browser();
		await ada.signInByEmail('ada@example.com');
		expect(outcomeOf(await ada.change('end-other-sessions')).account).toBe('other-sessions-ended');
		expect((await ada.session())?.user?.email).toBe('ada@example.com');
		expect((await ada.session())?.user?.email).toBe('ada@example.com');
		expect((await ada.request('/auth/account')).status).toBe(200);
	});
});
