// Attacks: guessing an email sign-in code. Failed before failed uses were limited (rateLimit.emailToken).
//
// `generateVerificationToken` may return any 1–512 characters, and a short code ("enter the 6-digit
// code from the mail") is the usual reason to set it. Spending a token (POST callback/:email) has
// no attempt limit: `rateLimit.email` counts only link *requests*. The attacker asks for a code for
// the victim's address (one mail to the victim) and then posts guesses from their own browser, with
// their own CSRF pair, until one matches: a session as the victim. With 4 digits that is at most
// 10,000 requests within the code's lifetime (24 hours by default); 6 digits, a million.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Email from '../../../providers/email.js';
import type { AuthConfig } from '../../types.js';
import { TEST_SECRET, testClient } from '../client.js';

describe('email sign-in with a short code', () => {
	test('guessing the code of someone else\'s address is stopped long before it succeeds', async () => {
		let mailed = '';
		const config: AuthConfig = {
			secret: TEST_SECRET,
			trustHost: true,
			adapter: MemoryAdapter(),
			logger: { error: () => {}, warn: () => {}, debug: () => {} },
			// default rateLimit
			providers: [
				Email({
					// a code the attacker's count reaches after thousands of guesses (a random one could come first by luck)
					generateVerificationToken: () => '7301',
					sendVerificationRequest: ({ token }) => void (mailed = token)
				})
			]
		};
		const attacker = testClient(config);
		const csrfToken = await attacker.csrfToken();
		const requested = await attacker.request('/auth/signin/email', { form: { csrfToken, email: 'victim@example.com' } });
		expect(requested.status).toBe(302);
		expect(mailed).toMatch(/^\d{4}$/); // only the victim sees this

		let tries = 0;
		let refusedAt: number | undefined;
		let signedIn = false;
		const started = Date.now();
		for (let guess = 0; guess < 10_000 && !signedIn; guess++) {
			tries++;
			const code = String(guess).padStart(4, '0');
			const answer = await attacker.request('/auth/callback/email', { form: { csrfToken, token: code, email: 'victim@example.com' } });
			const location = answer.headers.get('location') ?? '';
			if (refusedAt === undefined && /error=RateLimited/.test(location)) refusedAt = tries;
			signedIn = !/error=/.test(location) && answer.headers.getSetCookie().some((c) => /^kitgate\.session-token=[^;]/.test(c));
		}
		const session = (await (await attacker.request('/auth/session')).json()) as { user?: { email?: string } } | null;
		console.log(`${tries} guesses in ${Date.now() - started} ms; first rate-limited answer at: ${refusedAt ?? 'never'}; attacker's session: ${JSON.stringify(session?.user ?? null)}`);
		expect(session?.user?.email, 'the attacker must not guess their way into the victim\'s account').toBeUndefined();
		expect(refusedAt, 'refused after the default 10 failed uses').toBe(11);
	}, 120_000);
});
