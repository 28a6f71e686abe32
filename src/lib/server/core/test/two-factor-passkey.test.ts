// A passkey as the second factor through `Auth()` on the memory adapter and a SQLite file, under
// both session strategies: after an email-link or password sign-in of a user with TOTP and a
// passkey, the second step takes the passkey (presence suffices) and starts the session as a code
// does; refused: no pending sign-in, another user's passkey, a replayed assertion or challenge, a
// counter that did not grow, a missing CSRF token, a challenge posted to the passkey sign-in, and a
// primary passkey sign-in; failures count under rateLimit.secondFactor with wrong codes.

import { describe, expect, test } from 'vitest';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Adapter } from '../types.js';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from './stored-adapters.js';
import { twoFactorWorld } from './two-factor-fixture.js';

const adapters = memoryAndSqliteAdapters('two-factor-passkey');

/** Ada with a passkey (held by `device` of the returned setup browser) and TOTP, signed out; Bob with a passkey of his own. */
async function passkeyWorld(adapter: Adapter, strategy: 'jwt' | 'database', twoFactor: { trustBrowserDays?: number } = {}) {
	const w = twoFactorWorld(adapter, strategy);
	// before the first request: the resolved config is kept per config object
	w.config.twoFactor = twoFactor;
	const setup = await w.signedIn();
	const adaPasskey = await setup.addPasskey();
	const { secret } = await setup.enrol();
	const bobBrowser = await w.signedIn('bob@example.com');
	const bobPasskey = await bobBrowser.addPasskey();
	w.clock.now += 60_000;

	/** A new browser holding Ada's (and, with `withBob`, Bob's) passkey, after Ada's email-link sign-in: her second step is pending. */
	async function pendingAda(options: { withBob?: boolean } = {}) {
		const b = w.browser();
		b.device.credentials.push(...setup.device.credentials, ...(options.withBob ? bobBrowser.device.credentials : []));
		await b.signInByEmail('ada@example.com');
		expect(b.pendingCookie(), 'a pending second step').toBeDefined();
		/** GET {basePath}/second-factor/passkey. */
		const options_ = async () => {
			const response = await b.request('/auth/second-factor/passkey');
			expect(response.status, 'the passkey step options').toBe(200);
			return ((await response.json()) as { options: PublicKeyCredentialRequestOptionsJSON }).options;
		};
		/** POSTs a passkey response to {basePath}/second-factor/passkey with this browser's CSRF token. */
		const post = async (data: unknown, extra: Record<string, unknown> = {}) =>
			b.request('/auth/second-factor/passkey', { json: { csrfToken: await b.client.csrfToken(), data, ...extra } });
		return { ...b, stepOptions: options_, post };
	}
	const signIns = () => w.eventNames().filter((name) => name === 'signIn').length;
	return { ...w, setup, secret, adaPasskey, bobPasskey, pendingAda, signIns };
}

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		const world = () => passkeyWorld(makeAdapter(), strategy);

		test('passkey second step: options allow only the pending user’s passkeys; a presence-only assertion starts the session, clears the pending cookie and fires signIn once', async () => {
			const w = await world();
			const ada = await w.pendingAda();
			const before = w.signIns();
			expect(ada.sessionCookie()).toBeUndefined();
			expect(await ada.session()).toBeNull();

			const page = await (await ada.request('/auth/second-factor')).text();
			expect(page).toContain('name="code"');
			expect(page).toMatch(/<form[^>]*action="http:\/\/localhost:3000\/auth\/second-factor\/passkey"[^>]*data-kitgate-second-factor-passkey/);

			const options = await ada.stepOptions();
			expect(options.allowCredentials?.map((c) => c.id)).toEqual([w.adaPasskey]);
			expect(options.userVerification).toBe('discouraged');
			// the options alone sign nobody in
			expect(await ada.session()).toBeNull();

			const done = await ada.post(ada.device.authenticate(options, { userVerified: false }));
			expect(done.status).toBe(200);
			expect(await done.json()).toEqual({ url: 'http://localhost:3000/' });
			expect(ada.sessionCookie()).toBeDefined();
			expect(ada.pendingCookie()).toBeUndefined();
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
			expect(w.signIns()).toBe(before + 1);
			// the counter and the last use are stored, as after a passkey sign-in
			const stored = await w.adapter.getAuthenticator(w.adaPasskey);
			expect(stored?.counter).toBe(ada.device.credentials[0].counter);
		});

		test('passkey second step after a password sign-in: the same, to the password form’s callback URL', async () => {
			const w = await world();
			const ada = w.browser();
			ada.device.credentials.push(...w.setup.device.credentials);
			expect((await ada.signInWithPassword()).headers.get('location')).toBe('http://localhost:3000/auth/second-factor');
			const options = ((await (await ada.request('/auth/second-factor/passkey')).json()) as { options: PublicKeyCredentialRequestOptionsJSON }).options;
			const done = await ada.request('/auth/second-factor/passkey', { json: { csrfToken: await ada.client.csrfToken(), data: ada.device.authenticate(options) } });
			expect(await done.json()).toEqual({ url: 'http://localhost:3000/dashboard' });
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
		});

		test('passkey second step: without a pending sign-in both requests answer SecondFactorExpired and name no passkey', async () => {
			const w = await world();
			const stranger = w.browser();
			const options = await stranger.request('/auth/second-factor/passkey');
			expect(options.status).toBe(401);
			expect(await options.json()).toEqual({ error: 'SecondFactorExpired' });
			const posted = await stranger.request('/auth/second-factor/passkey', { json: { csrfToken: await stranger.client.csrfToken(), data: { id: w.adaPasskey } } });
			expect(posted.status).toBe(401);
			expect(await posted.json()).toEqual({ error: 'SecondFactorExpired' });
			expect(await stranger.session()).toBeNull();
			// and no other operation lives under the step
			expect((await stranger.request('/auth/second-factor/sms')).status).toBe(404);
		});

		test('passkey second step: another user’s valid passkey is refused, and the pending sign-in stays', async () => {
			const w = await world();
			const ada = await w.pendingAda({ withBob: true });
			const options = await ada.stepOptions();
			const refused = await ada.post(ada.device.authenticate(options, { credentialId: w.bobPasskey }));
			expect(refused.status).toBe(400);
			expect(await refused.json()).toEqual({ error: 'WebAuthnVerificationError' });
			expect(ada.sessionCookie()).toBeUndefined();
			expect(ada.pendingCookie()).toBeDefined();
			expect(await ada.session()).toBeNull();
			// her own passkey still works with new options
			expect((await ada.post(ada.device.authenticate(await ada.stepOptions()))).status).toBe(200);
		});

		test('passkey second step: a challenge is used once, even by a failed attempt; a replayed assertion is refused after the sign-in', async () => {
			const w = await world();
			const ada = await w.pendingAda();
			const options = await ada.stepOptions();
			const challengeCookie = [...ada.client.jar].find(([name]) => name.includes('challenge'))!;
			const assertion = ada.device.authenticate(options);
			const tampered = { ...assertion, response: { ...assertion.response, signature: Buffer.from('not a signature').toString('base64url') } };
			expect((await ada.post(tampered)).status).toBe(400);
			// the genuine assertion over the same challenge, with the challenge cookie put back: used already
			ada.client.jar.set(challengeCookie[0], challengeCookie[1]);
			const again = await ada.post(assertion);
			expect(again.status).toBe(400);
			expect(await again.json()).toEqual({ error: 'WebAuthnVerificationError' });
			expect(ada.sessionCookie()).toBeUndefined();

			const fresh = await ada.stepOptions();
			const freshCookie = [...ada.client.jar].find(([name]) => name.includes('challenge'))!;
			const good = ada.device.authenticate(fresh);
			expect((await ada.post(good)).status).toBe(200);

			// replayed in another pending sign-in, with the old challenge cookie: refused
			const later = await w.pendingAda();
			later.client.jar.set(freshCookie[0], freshCookie[1]);
			const replayed = await later.post(good);
			expect(replayed.status).toBe(400);
			expect(later.sessionCookie()).toBeUndefined();
			expect(later.pendingCookie()).toBeDefined();
		});

		test('passkey second step: a counter that did not grow is refused as a possible clone', async () => {
			const w = await world();
			// a first use stores counter 1 (registration stored 0, which is never checked)
			const first = await w.pendingAda();
			expect((await first.post(first.device.authenticate(await first.stepOptions()))).status).toBe(200);
			const ada = await w.pendingAda();
			const stored = (await w.adapter.getAuthenticator(w.adaPasskey))!.counter;
			expect(stored).toBeGreaterThan(0);
			const refused = await ada.post(ada.device.authenticate(await ada.stepOptions(), { counter: stored }));
			expect(refused.status).toBe(400);
			expect(await refused.json()).toEqual({ error: 'WebAuthnVerificationError' });
			expect((await w.adapter.getAuthenticator(w.adaPasskey))!.counter).toBe(stored);
			expect(ada.sessionCookie()).toBeUndefined();
		});

		test('passkey second step: a missing CSRF token is refused; its challenge cannot sign in at the passkey callback', async () => {
			const w = await world();
			const ada = await w.pendingAda();
			const assertion = ada.device.authenticate(await ada.stepOptions());
			const noCsrf = await ada.request('/auth/second-factor/passkey', { json: { data: assertion } });
			expect(noCsrf.status).toBe(403);
			expect(await noCsrf.json()).toEqual({ error: 'MissingCSRF' });
			const callback = await ada.request('/auth/callback/passkey', { json: { csrfToken: await ada.client.csrfToken(), action: 'authenticate', data: assertion } });
			expect(callback.status).toBe(400);
			expect(await callback.json()).toEqual({ error: 'WebAuthnVerificationError' });
			expect(ada.sessionCookie()).toBeUndefined();
			expect(await ada.session()).toBeNull();
		});

		test('passkey second step: failures count under rateLimit.secondFactor with wrong codes; over the limit even a good passkey is refused', async () => {
			const w = await world();
			const ada = await w.pendingAda();
			for (let i = 0; i < 3; i++) expect((await ada.secondStep('000000')).headers.get('location')).toContain('error=InvalidSecondFactor');
			for (let i = 0; i < 2; i++) {
				const options = await ada.stepOptions();
				expect((await ada.post(ada.device.authenticate(options, { challenge: 'not-the-challenge' }))).status).toBe(400);
			}
			const limited = await ada.post(ada.device.authenticate(await ada.stepOptions()));
			expect(limited.status).toBe(429);
			expect(await limited.json()).toEqual({ error: 'RateLimited' });
			expect(ada.sessionCookie()).toBeUndefined();
		});

		test('passkey second step: a ticked "Trust this browser" is honoured (the next sign-in there skips the step); unticked, nothing is trusted', async () => {
			const w = await passkeyWorld(makeAdapter(), strategy, { trustBrowserDays: 30 });
			const unticked = await w.pendingAda();
			const plain = await unticked.post(unticked.device.authenticate(await unticked.stepOptions()));
			expect(plain.headers.getSetCookie().some((line) => line.startsWith('kitgate.trusted-browser='))).toBe(false);

			const ada = await w.pendingAda();
			const done = await ada.post(ada.device.authenticate(await ada.stepOptions()), { trustBrowser: true });
			expect(done.status).toBe(200);
			expect(done.headers.getSetCookie().find((line) => line.startsWith('kitgate.trusted-browser='))).toMatch(/HttpOnly/i);
			// signed out there, the next email-link sign-in in that browser starts the session at once
			await ada.signOut();
			expect(await ada.session()).toBeNull();
			await ada.signInByEmail('ada@example.com');
			expect(ada.pendingCookie()).toBeUndefined();
			expect((await ada.session())?.user?.email).toBe('ada@example.com');
		});

		test('passkey second step: not offered to a user with a second factor but no passkey', async () => {
			const w = await world();
			const carol = await w.signedIn('carol@example.com');
			await carol.enrol();
			const later = await w.signedIn('carol@example.com');
			expect(later.pendingCookie()).toBeDefined();
			const page = await (await later.request('/auth/second-factor')).text();
			expect(page).toContain('name="code"');
			expect(page).not.toContain('data-kitgate-second-factor-passkey');
			const refused = await later.request('/auth/second-factor/passkey');
			expect(refused.status).toBe(400);
			expect(await refused.json()).toEqual({ error: 'InvalidRequest' });
		});

		test('passkey second step: not for a primary passkey sign-in without user verification (one passkey is one factor)', async () => {
			const w = await world();
			const b = w.browser();
			b.device.credentials.push(...w.setup.device.credentials);
			const options = ((await (await b.request('/auth/webauthn-options/passkey?action=authenticate')).json()) as { options: PublicKeyCredentialRequestOptionsJSON }).options;
			const primary = await b.request('/auth/callback/passkey', { json: { csrfToken: await b.client.csrfToken(), action: 'authenticate', data: b.device.authenticate(options, { userVerified: false }) } });
			expect(await primary.json()).toEqual({ url: 'http://localhost:3000/auth/second-factor' });
			const page = await (await b.request('/auth/second-factor')).text();
			expect(page).not.toContain('data-kitgate-second-factor-passkey');
			const refused = await b.request('/auth/second-factor/passkey');
			expect(refused.status).toBe(400);
			expect(await refused.json()).toEqual({ error: 'InvalidRequest' });
		});
	});
});
