// Attacks on credential changes (account routes, credentialChanged): the defences that held. returnTo
// never leaves the site; a forged change without the CSRF token keeps nothing and ends nothing; a
// session re-issued in the second of an end-other-sessions is ended too; a jwt callback cannot set
// or drop kitgate.user (no borrowing a victim's revocations, no dodging one's own); a full
// revocation store answers 503 AdapterError; the notice links to the configured URL, never to a
// forwarded host; the notice escapes the address it names.

import { describe, expect, test } from 'vitest';
import Credentials from '../../../providers/credentials.js';
import { renderAccountEmail } from '../../../providers/email-message.js';
import { credentialChanged } from '../../account/credential-change.js';
import { OWNER_CLAIM } from '../../session/jwt-session-list.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import { revokeSessions } from '../../session/revocation.js';
import type { JWT } from '../../types.js';
import { accountWorld, endOwnSessionsInALoop, ORIGIN, outcomeOf, UA_FIREFOX, UA_SAFARI } from '../account-fixture.js';
import { memoryAndSqliteAdapters } from '../stored-adapters.js';

const adapters = memoryAndSqliteAdapters('credential-changes');

/** A jwt callback that merges whatever the client sends with an update, and tries to name an owner at sign-in. */
function mergingJwt(signInOwner: () => string | undefined) {
	return ({ token, trigger, session }: { token: JWT; trigger?: string; session?: unknown }) => {
		if (trigger === 'signIn' && signInOwner()) return { ...token, [OWNER_CLAIM]: signInOwner() };
		return trigger === 'update' && session && typeof session === 'object' ? { ...token, ...(session as JWT) } : token;
	};
}

function memberCredentials() {
	return Credentials({
		minFailureMs: 0,
		credentials: { email: {}, password: { type: 'password' } },
		authorize: async (fields) => (fields.password === 'pw' ? { id: `member-${String(fields.email).split('@')[0]}`, email: String(fields.email) } : null)
	});
}

const HOSTILE_RETURN_TO = ['https://evil.example/settings', '//evil.example/settings', '/\\evil.example/settings', '\\\\evil.example', 'javascript:alert(1)', 'https:%2F%2Fevil.example', '%2F%2Fevil.example', 'http://localhost:3000@evil.example/'];

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	test.each(HOSTILE_RETURN_TO)('returnTo %s: a stale deletion\'s sign-in and a refusal both stay on the site', async (returnTo) => {
		const w = accountWorld(makeAdapter(), 'jwt', { account: { deleteAccount: true } });
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		w.clock.now += 2 * 3600_000;
		const stale = await laptop.change('delete', { callbackUrl: '/', returnTo });
		const signIn = new URL(stale.headers.get('location')!);
		expect(signIn.origin).toBe(ORIGIN);
		expect(new URL(signIn.searchParams.get('callbackUrl')!, ORIGIN).origin).toBe(ORIGIN);
		const forged = await laptop.change('remove-passkey', { credentialID: 'x', returnTo, csrfToken: 'forged' });
		expect(new URL(forged.headers.get('location')!).origin).toBe(ORIGIN);
		expect(outcomeOf(forged).accountError).toBe('MissingCSRF');
		expect(await w.adapter.getUserByEmail('ada@example.com')).not.toBeNull();
	});

	test('a forged remove-passkey with keepOtherSessions=yes and no CSRF token (form or JSON) removes nothing and mails nothing', async () => {
		const w = accountWorld(makeAdapter(), 'jwt');
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const credentialID = await laptop.addPasskey();
		await laptop.addPasskey();
		const mailsBefore = w.mails.length;
		const form = await laptop.request('/auth/account/remove-passkey', { form: { credentialID, keepOtherSessions: 'yes', callbackUrl: '/settings' }, headers: { origin: 'https://evil.example' } });
		expect(outcomeOf(form).accountError).toBe('MissingCSRF');
		const json = await laptop.request('/auth/account/remove-passkey', { json: { credentialID, keepOtherSessions: true }, headers: { origin: 'https://evil.example' } });
		expect(json.status).toBe(403);
		const ada = (await w.adapter.getUserByEmail('ada@example.com'))!;
		expect(await w.adapter.listAuthenticatorsByUserId(ada.id)).toHaveLength(2);
		expect(w.mails.length).toBe(mailsBefore);
	});

	test('a thief\'s session re-issued in the very second of end-other-sessions, before and after it, is ended', async () => {
		const w = accountWorld(makeAdapter(), 'jwt', { session: { strategy: 'jwt', updateAge: 0 } });
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const thief = w.browser(UA_SAFARI);
		await thief.signInByEmail('ada@example.com');
		w.clock.now += 1400;
		expect(await thief.session()).not.toBeNull();
		w.clock.now += 100;
		expect(outcomeOf(await laptop.change('end-other-sessions')).account).toBe('other-sessions-ended');
		w.clock.now += 1;
		expect(await thief.session()).toBeNull();
		w.clock.now += 1000;
		expect(await thief.session()).toBeNull();
		expect((await laptop.session())?.user?.email).toBe('ada@example.com');
	});

	test('a jwt callback naming another user as kitgate.user at sign-in or update neither borrows that user\'s revocations nor drops its own', async () => {
		let owner: string | undefined;
		const w = accountWorld(makeAdapter(), 'jwt', { callbacks: { jwt: mergingJwt(() => owner) } });
		w.config.providers = [...w.config.providers, memberCredentials()];
		const bobBrowser = w.browser(UA_FIREFOX);
		await bobBrowser.signInByEmail('bob@example.com');
		const bob = (await w.adapter.getUserByEmail('bob@example.com'))!;
		owner = bob.id;
		// eve signs in by email with a callback that names bob as her session's owner
		const eve = w.browser(UA_SAFARI);
		await eve.signInByEmail('eve@example.com');
		await eve.request('/auth/session', { json: { csrfToken: await eve.client.csrfToken(), data: { [OWNER_CLAIM]: bob.id } } });
		// ada's credentials session (sub = member-ada) tries to drop its owner
		await w.browser().signInByEmail('ada@example.com');
		const ada = (await w.adapter.getUserByEmail('ada@example.com'))!;
		await w.adapter.linkAccount({ userId: ada.id, provider: 'credentials', type: 'credentials', providerAccountId: 'member-ada' });
		owner = undefined;
		const thief = w.browser(UA_SAFARI);
		const signedIn = await thief.request('/auth/callback/credentials', { form: { csrfToken: await thief.client.csrfToken(), email: 'ada@example.com', password: 'pw', callbackUrl: '/' } });
		expect(signedIn.status).toBe(302);
		await thief.request('/auth/session', { json: { csrfToken: await thief.client.csrfToken(), data: { [OWNER_CLAIM]: null } } });
		await thief.request('/auth/session', { json: { csrfToken: await thief.client.csrfToken(), data: { [OWNER_CLAIM]: 'member-ada' } } });
		w.clock.now += 2000;
		await revokeSessions(bob.id, w.config);
		await revokeSessions(ada.id, w.config);
		w.clock.now += 1000;
		expect((await eve.session())?.user?.email, 'eve\'s session ended by bob\'s revocation').toBe('eve@example.com');
		expect(await thief.session(), 'the credentials session dodged ada\'s revocation').toBeNull();
	});

	test('a stale stolen session can remove no passkey (any removal needs a recent sign-in), delete nothing, change no second factor; the owner stays signed in', async () => {
		const w = accountWorld(makeAdapter(), 'jwt', { account: { deleteAccount: true } });
		const owner = w.browser(UA_FIREFOX);
		await owner.signInByEmail('ada@example.com');
		const credentialID = await owner.addPasskey();
		await owner.addPasskey();
		const thief = w.browser(UA_SAFARI);
		await thief.signInByEmail('ada@example.com');
		w.clock.now += 2 * 3600_000;
		const mails = w.mails.length;
		expect(outcomeOf(await thief.change('remove-passkey', { credentialID })).error).toBe('FreshSignInRequired');
		expect(await w.adapter.getAuthenticator(credentialID)).not.toBeNull();
		expect(await owner.session(), 'the owner is not signed out by a refused change').not.toBeNull();
		expect(w.mails.length).toBe(mails);
		expect(outcomeOf(await thief.change('delete', { callbackUrl: '/' })).error).toBe('FreshSignInRequired');
		const twoFactor = await thief.changeJson('two-factor-start');
		expect(twoFactor.status).toBe(403);
		expect(await twoFactor.json()).toMatchObject({ error: 'FreshSignInRequired' });
		expect(await w.adapter.getUserByEmail('ada@example.com')).not.toBeNull();
	});

	test('a revocation store full of other users\' revocations answers a removal 503 AdapterError (JSON), never a 500', async () => {
		const store = MemoryRateLimitStore({ maxRevocations: 5 });
		const w = accountWorld(makeAdapter(), 'jwt', { session: { strategy: 'jwt', revocationStore: store } });
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const credentialID = await laptop.addPasskey();
		// five other users' live revocations (one user's own ended sessions only push out each other)
		for (let i = 0; i < 5; i++) store.revoke(`other-user-${i}`, w.clock.now, 86_400);
		const answer = await laptop.changeJson('remove-passkey', { credentialID });
		expect(answer.status).toBe(503);
		// the notice went out all the same: the owner hears of the change the error cut short
		expect(w.mails.at(-1)).toMatchObject({ kind: 'security-notice', change: 'passkey-removed' });
		expect(await answer.json()).toEqual({ error: 'AdapterError' });
		const form = await laptop.change('end-other-sessions', { returnTo: '/settings/security' });
		// a refusal goes back to the form's page
		expect(outcomeOf(form)).toMatchObject({ path: '/settings/security', accountError: 'AdapterError' });
	});

	test('one user ending their own sessions over and over fills nothing: pushed out are their own records, another user\'s change goes through', async () => {
		const store = MemoryRateLimitStore({ maxRevocations: 5 });
		const w = accountWorld(makeAdapter(), 'jwt', { session: { strategy: 'jwt', revocationStore: store } });
		const laptop = w.browser(UA_FIREFOX);
		await laptop.signInByEmail('ada@example.com');
		const credentialID = await laptop.addPasskey();
		expect(await endOwnSessionsInALoop(w, 8)).toBe(8);
		expect((await laptop.changeJson('remove-passkey', { credentialID })).status).toBe(200);
	});

	test('with a configured URL, the notice links to it, never to a forwarded host (a thief\'s request, or the app\'s for credentialChanged)', async () => {
		const w = accountWorld(makeAdapter(), 'jwt', { url: ORIGIN });
		const thief = w.browser(UA_SAFARI);
		await thief.signInByEmail('ada@example.com');
		const credentialID = await thief.addPasskey();
		await thief.addPasskey();
		await thief.request('/auth/account/remove-passkey', { form: { csrfToken: await thief.client.csrfToken(), credentialID, keepOtherSessions: 'yes', callbackUrl: '/settings' }, headers: { 'x-forwarded-host': 'evil.example', host: 'evil.example' } });
		expect(w.mails.at(-1)).toMatchObject({ kind: 'security-notice', change: 'passkey-removed', url: ORIGIN });
		const ada = (await w.adapter.getUserByEmail('ada@example.com'))!;
		await credentialChanged(ada.id, w.config, { request: new Request(`${ORIGIN}/settings`, { headers: { 'x-forwarded-host': 'evil.example' } }) });
		expect(w.mails.at(-1)).toMatchObject({ kind: 'security-notice', change: 'password-changed', url: ORIGIN });
	});
});

test('the notice escapes the address it names (HTML) and puts no line break in the subject', () => {
	const mail = renderAccountEmail({ kind: 'security-notice', change: 'email-changed', url: 'https://app.example/', newEmail: '"<img src=x onerror=alert(1)>"@evil.example', theme: {} });
	expect(mail.html).not.toContain('<img src=x');
	expect(mail.subject).not.toMatch(/[\r\n]/);
});

test('credentialChanged with a user that does not exist ends nothing else and mails nobody', async () => {
	const w = accountWorld(adapters[0]![1](), 'jwt');
	const laptop = w.browser(UA_FIREFOX);
	await laptop.signInByEmail('ada@example.com');
	const mailsBefore = w.mails.length;
	w.clock.now += 2000;
	await credentialChanged('no-such-user', w.config, { request: `${ORIGIN}/settings` });
	expect(w.mails.length).toBe(mailsBefore);
	expect((await laptop.session())?.user?.email).toBe('ada@example.com');
});
