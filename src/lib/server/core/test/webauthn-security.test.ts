// What the passkey routes refuse, each with a 4xx JSON answer, no session and nothing written:
// expired or replayed challenges, wrong origin or RP ID, unknown or cloned credentials, missing
// CSRF token, missing adapter methods, and credentials or accounts of another user.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import type { Adapter } from '../types.js';
import { ADA, BOB, ORIGIN, optionsUserId, passkeyWorld } from './webauthn-fixture.js';

/** A world with one registered passkey for a new user, and a second browser signed out. */
async function registered(options: Parameters<typeof passkeyWorld>[0] = {}) {
	const world = passkeyWorld(options);
	const registration = await world.options({ email: 'owner@example.com' });
	const attestation = world.device.register(registration.body.options);
	expect((await world.callback({ action: 'register', data: attestation })).status).toBe(200);
	return { world, credentialID: attestation.id, owner: (await world.adapter.getUser(optionsUserId(registration.body.options)))! };
}

function hasSessionCookie(response: Response): boolean {
	return response.headers.getSetCookie().some((c) => c.startsWith('kitgate.session-token=') && !/Max-Age=0/i.test(c));
}

describe('challenges', () => {
	test('an expired challenge (after 5 minutes) is refused and nothing is written', async () => {
		const world = passkeyWorld();
		const { body } = await world.options({ email: 'late@example.com' });
		const attestation = world.device.register(body.options);
		world.clock.now += 6 * 60 * 1000;
		const late = await world.callback({ action: 'register', data: attestation });
		expect(late).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
		expect(hasSessionCookie(late.response)).toBe(false);
		expect(await world.adapter.getUser(optionsUserId(body.options))).toBeNull();
		expect(await world.adapter.getAuthenticator(attestation.id)).toBeNull();
	});

	test('a replayed assertion is refused: the challenge cookie is gone, and a new challenge does not match', async () => {
		const { world } = await registered();
		const browser = world.browser();
		const login = await browser.options({ action: 'authenticate' });
		const cookie = browser.challengeCookie()!;
		const assertion = world.device.authenticate(login.body.options);
		expect((await browser.callback({ action: 'authenticate', data: assertion })).status).toBe(200);

		const replay = await browser.callback({ action: 'authenticate', data: assertion });
		expect(replay).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
		await browser.options({ action: 'authenticate' });
		const withFreshChallenge = await browser.callback({ action: 'authenticate', data: assertion });
		expect(withFreshChallenge).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
		// a refused passkey is the request's fault: a warning, not an error for the operator
		expect(world.failures).toEqual([
			expect.stringMatching(/^WebAuthnVerificationError: .*no passkey challenge/i),
			// the fresh challenge is not the one the assertion signed: none of the browser's challenges matches
			expect.stringMatching(/^WebAuthnVerificationError: .*no passkey challenge/i)
		]);
		expect(world.errors).toEqual([]);
		// even with the old cookie put back by hand: that challenge was used already
		browser.client.jar.set('kitgate.challenge', cookie);
		const restored = await browser.callback({ action: 'authenticate', data: assertion });
		expect(restored).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
		expect(world.failures.at(-1)).toMatch(/no passkey challenge/i);
	});

	test('a challenge issued to register cannot be used to authenticate', async () => {
		const { world } = await registered();
		const browser = world.browser();
		const login = await browser.options({ action: 'authenticate' });
		const registration = await browser.options({ email: 'someone@example.com' });
		// an assertion signed over the registration's challenge
		const assertion = world.device.authenticate({ ...login.body.options, challenge: registration.body.options.challenge });
		expect((await browser.callback({ action: 'authenticate', data: assertion })).body).toEqual({ error: 'WebAuthnVerificationError' });
		expect(world.failures.at(-1)).toMatch(/issued to register, not to authenticate/);
	});

	test('without the CSRF token the callback is refused (403) and the challenge is still used up', async () => {
		const world = passkeyWorld();
		const { body } = await world.options({ email: 'csrf@example.com' });
		const attestation = world.device.register(body.options);
		const forged = await world.callback({ action: 'register', data: attestation }, { csrf: false });
		expect(forged).toMatchObject({ status: 403, body: { error: 'MissingCSRF' } });
		expect(forged.response.headers.getSetCookie().some((c) => /^kitgate\.challenge=;.*Max-Age=0/i.test(c))).toBe(true);
		const retried = await world.callback({ action: 'register', data: attestation });
		expect(retried).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
		expect(await world.adapter.getUser(optionsUserId(body.options))).toBeNull();
	});

	test('GET on the passkey callback answers JSON 400, not a redirect', async () => {
		const world = passkeyWorld();
		const response = await world.client.request('/auth/callback/passkey');
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ error: 'InvalidRequest' });
	});
});

describe('origin, RP ID and signatures', () => {
	test('a registration from another origin or for another RP ID is refused', async () => {
		const world = passkeyWorld();
		for (const overrides of [{ origin: 'http://evil.example' }, { rpId: 'evil.example' }]) {
			const { body } = await world.options({ email: 'victim@example.com' });
			const attestation = world.device.register(body.options, overrides);
			const refused = await world.callback({ action: 'register', data: attestation });
			expect(refused).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
			expect(await world.adapter.getUser(optionsUserId(body.options))).toBeNull();
		}
		expect(world.failures.join('\n')).toMatch(/origin[\s\S]*RP ID/i);
	});

	test('an assertion from another origin or for another RP ID is refused, and the counter is untouched', async () => {
		const { world, credentialID } = await registered();
		for (const overrides of [{ origin: 'https://phish.example' }, { rpId: 'phish.example' }]) {
			const browser = world.browser();
			const login = await browser.options({ action: 'authenticate' });
			const refused = await browser.callback({ action: 'authenticate', data: world.device.authenticate(login.body.options, overrides) });
			expect(refused).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
			expect(hasSessionCookie(refused.response)).toBe(false);
		}
		expect((await world.adapter.getAuthenticator(credentialID))?.counter).toBe(0);
	});

	test('a tampered signature is refused', async () => {
		const { world } = await registered();
		const browser = world.browser();
		const login = await browser.options({ action: 'authenticate' });
		const assertion = world.device.authenticate(login.body.options);
		const signature = Buffer.from(assertion.response.signature, 'base64url');
		signature[signature.length - 1] ^= 1;
		const tampered = { ...assertion, response: { ...assertion.response, signature: signature.toString('base64url') } };
		expect((await browser.callback({ action: 'authenticate', data: tampered })).status).toBe(400);
		expect(world.failures.at(-1)).toMatch(/signature not verified/);
	});

	test('an unknown credential is refused', async () => {
		const { world } = await registered();
		const stranger = passkeyWorld();
		const elsewhere = await stranger.options({ email: 'stranger@example.com' });
		stranger.device.register(elsewhere.body.options);
		const browser = world.browser();
		const login = await browser.options({ action: 'authenticate' });
		const unknown = await browser.callback({ action: 'authenticate', data: stranger.device.authenticate(login.body.options) });
		expect(unknown).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
		expect(world.failures.at(-1)).toMatch(/no passkey with this credential id/i);
	});
});

describe('counters', () => {
	test('a counter that did not increase is refused as a possible clone, with a warning', async () => {
		const { world, credentialID } = await registered();
		const first = world.browser();
		const login = await first.options({ action: 'authenticate' });
		expect((await first.callback({ data: world.device.authenticate(login.body.options, { counter: 7 }) })).status).toBe(200);

		const clone = world.browser();
		const again = await clone.options({ action: 'authenticate' });
		const refused = await clone.callback({ data: world.device.authenticate(again.body.options, { counter: 7 }) });
		expect(refused).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
		expect(hasSessionCookie(refused.response)).toBe(false);
		expect(world.warnings.find((w) => w.code === 'webauthn-counter-regression')?.message).toContain(credentialID);
		expect((await world.adapter.getAuthenticator(credentialID))?.counter).toBe(7);
	});

	test('authenticators without a counter (always 0) keep working', async () => {
		const { world, credentialID } = await registered();
		for (let i = 0; i < 2; i++) {
			const browser = world.browser();
			const login = await browser.options({ action: 'authenticate' });
			expect((await browser.callback({ data: world.device.authenticate(login.body.options, { counter: 0 }) })).status).toBe(200);
		}
		expect((await world.adapter.getAuthenticator(credentialID))?.counter).toBe(0);
		expect(world.warnings.filter((w) => w.code === 'webauthn-counter-regression')).toEqual([]);
	});
});

describe('owners', () => {
	test('a signed-in user cannot register a credential that belongs to someone else', async () => {
		const { world, credentialID, owner } = await registered();
		const ada = world.browser();
		await ada.signInWithPassword('ada');
		const { body } = await ada.options({ action: 'register' });
		const stolen = world.device.register(body.options, { credentialId: credentialID });
		const refused = await ada.callback({ action: 'register', data: stolen });
		expect(refused).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
		expect((await world.adapter.getAuthenticator(credentialID))?.userId).toBe(owner.id);
		expect(await world.adapter.listAuthenticatorsByUserId(ADA.id)).toEqual([]);
	});

	test('authentication signs in the passkey’s owner, even over another user’s session', async () => {
		const { world } = await registered();
		const browser = world.browser();
		await browser.signInWithPassword('bob');
		expect((await browser.session())?.user?.email).toBe(BOB.email);
		const login = await browser.options({ action: 'authenticate' });
		expect((await browser.callback({ data: world.device.authenticate(login.body.options) })).status).toBe(200);
		expect((await browser.session())?.user).toMatchObject({ name: 'owner@example.com', email: '' });
	});

	test('an email on an authentication changes nothing: the passkey signs in its own owner', async () => {
		const { world, owner } = await registered();
		const ada = world.browser();
		await ada.signInWithPassword('ada');
		const signedOut = world.browser();
		const login = await signedOut.options({ action: 'authenticate', email: ADA.email });
		expect(login.body.options.allowCredentials ?? []).toEqual([]);
		expect((await signedOut.callback({ data: world.device.authenticate(login.body.options) })).status).toBe(200);
		expect((await signedOut.session())?.user?.name).toBe(owner.name);
	});

	test('a sign-up with the address of an existing account makes a user of its own, never joined to that account', async () => {
		const world = passkeyWorld();
		await world.browser().signInWithPassword('ada');
		const { body } = await world.options({ email: ADA.email });
		expect(body.action).toBe('register');
		const created = await world.callback({ action: 'register', data: world.device.register(body.options) });
		expect(created.status).toBe(200);
		expect(await world.adapter.listAuthenticatorsByUserId(ADA.id)).toEqual([]);
		const stranger = await world.adapter.getUser(optionsUserId(body.options));
		expect(stranger).toMatchObject({ email: '', name: ADA.email, emailVerified: null });
		expect((await world.adapter.getUserByEmail(ADA.email))?.id).toBe(ADA.id);
	});

	test('the signIn callback can refuse: 403, no session, nothing written', async () => {
		const world = passkeyWorld({ config: { callbacks: { signIn: () => false } } });
		const { body } = await world.options({ email: 'denied@example.com' });
		const refused = await world.callback({ action: 'register', data: world.device.register(body.options) });
		expect(refused).toMatchObject({ status: 403, body: { error: 'AccessDenied' } });
		expect(hasSessionCookie(refused.response)).toBe(false);
		expect(await world.adapter.getUser(optionsUserId(body.options))).toBeNull();
	});
});

describe('adapter methods', () => {
	function without(...methods: (keyof Adapter)[]): Adapter {
		const adapter: Adapter = { ...MemoryAdapter() };
		for (const method of methods) delete adapter[method];
		return adapter;
	}

	test('options fail early with MissingAdapterMethod when the callback could not store the passkey', async () => {
		const world = passkeyWorld({ adapter: without('createAuthenticator') });
		const { status, body } = await world.options({ email: 'early@example.com' });
		// the server's set-up, not the request, is at fault
		expect(status).toBe(503);
		expect(body).toEqual({ error: 'MissingAdapterMethod' });
		expect(world.errors.at(-1)?.message).toContain('createAuthenticator');
		expect(world.challengeCookie()).toBeUndefined();
	});

	test('a method gone by callback time stops the flow before any write', async () => {
		const adapter = without();
		const world = passkeyWorld({ adapter });
		const { body } = await world.options({ email: 'midway@example.com' });
		delete adapter.createAuthenticator;
		const refused = await world.callback({ action: 'register', data: world.device.register(body.options) });
		expect(refused).toMatchObject({ status: 503, body: { error: 'MissingAdapterMethod' } });
		expect(await world.adapter.getUser(optionsUserId(body.options))).toBeNull();
	});

	test('authentication needs updateAuthenticatorCounter', async () => {
		const world = passkeyWorld({ adapter: without('updateAuthenticatorCounter') });
		expect((await world.options({ action: 'authenticate' })).body).toEqual({ error: 'MissingAdapterMethod' });
	});

	test('a failing createAuthenticator undoes the new user and account', async () => {
		const adapter: Adapter = { ...MemoryAdapter(), createAuthenticator: () => Promise.reject(new Error('disk full')) };
		const world = passkeyWorld({ adapter });
		const { body } = await world.options({ email: 'undo@example.com' });
		const attestation = world.device.register(body.options);
		const failed = await world.callback({ action: 'register', data: attestation });
		expect(failed).toMatchObject({ status: 400, body: { error: 'CallbackRouteError' } });
		expect(await world.adapter.getUser(optionsUserId(body.options))).toBeNull();
		expect(await world.adapter.getUserByAccount({ provider: 'passkey', providerAccountId: attestation.id })).toBeNull();
	});
});

describe('GET|POST webauthn-authenticators/:provider', () => {
	test('lists the signed-in user’s passkeys with safe fields only; 401 when signed out', async () => {
		const { world, credentialID } = await registered();
		const response = await world.client.request('/auth/webauthn-authenticators/passkey');
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({
			authenticators: [{ credentialID, credentialDeviceType: 'multiDevice', credentialBackedUp: true, transports: ['internal', 'hybrid'] }]
		});
		const anonymous = await world.browser().client.request('/auth/webauthn-authenticators/passkey');
		expect(anonymous.status).toBe(401);
		expect(await anonymous.json()).toEqual({ error: 'SessionRequired' });
	});

	test('removes one of the user’s passkeys (CSRF required); another user’s is “not found”', async () => {
		const { world, credentialID } = await registered();
		const remove = async (client: typeof world.client, csrf: boolean) =>
			client.request('/auth/webauthn-authenticators/passkey', {
				json: { credentialID, ...(csrf ? { csrfToken: await client.csrfToken() } : {}) }
			});
		expect((await remove(world.client, false)).status).toBe(403);
		const bob = world.browser();
		await bob.signInWithPassword('bob');
		const othersPasskey = await remove(bob.client, true);
		expect(othersPasskey.status).toBe(400);
		expect(await othersPasskey.json()).toEqual({ error: 'InvalidRequest' });
		const removed = await remove(world.client, true);
		expect(removed.status).toBe(200);
		expect(await removed.json()).toEqual({ authenticators: [] });
		expect(await world.adapter.getAuthenticator(credentialID)).toBeNull();
		expect(await world.adapter.getUserByAccount({ provider: 'passkey', providerAccountId: credentialID })).toBeNull();

		const browser = world.browser();
		const login = await browser.options({ action: 'authenticate' });
		const gone = await browser.callback({ data: world.device.authenticate(login.body.options) });
		expect(gone).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
	});

	test('the callback URL goes through the redirect callback', async () => {
		const world = passkeyWorld();
		const { body } = await world.options({ email: 'redirect@example.com' });
		const answer = await world.callback({ action: 'register', data: world.device.register(body.options), callbackUrl: 'https://evil.example/' });
		expect(answer.body.url).toBe(`${ORIGIN}/`);
	});
});
