// Passkey autofill (conditional mediation) on the engine's side: options with
// `mediation=conditional`, several challenges outstanding in one browser (autofill beside the
// button, or two tabs), each used once, and the rate limit taken when an autofill challenge is used.

import { describe, expect, test } from 'vitest';
import { OUTSTANDING_CHALLENGES } from '../flows/passkey/webauthn-challenge.js';
import { passkeyWorld } from './webauthn-fixture.js';

/** A world with one registered passkey, and a second browser (signed out) to sign in with it. */
async function registered(options: Parameters<typeof passkeyWorld>[0] = {}) {
	const world = passkeyWorld(options);
	const registration = await world.options({ email: 'owner@example.com' });
	const attestation = world.device.register(registration.body.options);
	expect((await world.callback({ action: 'register', data: attestation })).status).toBe(200);
	return { world, browser: world.browser() };
}

const autofill = { action: 'authenticate', mediation: 'conditional' };

describe('GET webauthn-options/:provider?mediation=conditional', () => {
	test('answers authentication options for any discoverable passkey', async () => {
		const world = passkeyWorld();
		const { status, body } = await world.options(autofill);
		expect(status).toBe(200);
		expect(body.action).toBe('authenticate');
		expect(body.options.allowCredentials ?? []).toEqual([]);
		expect(body.options.challenge).toMatch(/^[\w-]{43}$/);
	});

	test('an autofill registration or an unknown mediation is a 400', async () => {
		const world = passkeyWorld();
		expect(await world.options({ action: 'register', email: 'a@example.com', mediation: 'conditional' })).toMatchObject({
			status: 400,
			body: { error: 'InvalidRequest' }
		});
		expect(await world.options({ action: 'authenticate', mediation: 'silent' })).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } });
		expect(world.challengeCookie()).toBeUndefined();
	});

	test('signed in, an autofill request still authenticates (it never registers)', async () => {
		const world = passkeyWorld();
		await world.signInWithPassword('ada');
		expect((await world.options({ mediation: 'conditional' })).body.action).toBe('authenticate');
	});
});

describe('outstanding challenges', () => {
	test('the button signs in while an autofill challenge is outstanding, and the other way round', async () => {
		const { world, browser } = await registered();
		const fromAutofill = await browser.options(autofill);
		const fromButton = await browser.options({ action: 'authenticate' });
		const signed = await browser.callback({ action: 'authenticate', data: world.device.authenticate(fromButton.body.options) });
		expect(signed).toMatchObject({ status: 200 });
		expect((await browser.session())?.user?.name).toBe('owner@example.com');

		// the button first, then autofill (a restart after the button's prompt was closed): autofill's works
		const other = world.browser();
		await other.options({ action: 'authenticate' });
		const restarted = await other.options(autofill);
		const picked = await other.callback({ action: 'authenticate', data: world.device.authenticate(restarted.body.options) });
		expect(picked).toMatchObject({ status: 200 });
		expect(fromAutofill.body.options.challenge).not.toBe(restarted.body.options.challenge);
	});

	test('a callback clears them all: the other outstanding challenge cannot be used afterwards, nor one replayed', async () => {
		const { world, browser } = await registered();
		const first = await browser.options(autofill);
		const second = await browser.options({ action: 'authenticate' });
		const cookie = browser.challengeCookie()!;
		const assertion = world.device.authenticate(second.body.options);
		expect((await browser.callback({ action: 'authenticate', data: assertion })).status).toBe(200);
		expect(browser.challengeCookie()).toBeUndefined();

		const late = await browser.callback({ action: 'authenticate', data: world.device.authenticate(first.body.options) });
		expect(late).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
		// the old cookie put back by hand: the used challenge is refused, the unused one still signs in once
		browser.client.jar.set('kitgate.challenge', cookie);
		expect(await browser.callback({ action: 'authenticate', data: assertion })).toMatchObject({ status: 400 });
		browser.client.jar.set('kitgate.challenge', cookie);
		const unused = world.device.authenticate(first.body.options);
		expect((await browser.callback({ action: 'authenticate', data: unused })).status).toBe(200);
		browser.client.jar.set('kitgate.challenge', cookie);
		expect(await browser.callback({ action: 'authenticate', data: unused })).toMatchObject({ status: 400 });
	});

	test(`a browser holds at most ${OUTSTANDING_CHALLENGES}: the oldest is dropped`, async () => {
		const { world, browser } = await registered();
		const issued = [];
		for (let i = 0; i <= OUTSTANDING_CHALLENGES; i++) issued.push((await browser.options(autofill)).body.options);
		const oldest = await browser.callback({ action: 'authenticate', data: world.device.authenticate(issued[0]) });
		expect(oldest).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
		expect(world.failures.at(-1)).toMatch(/no passkey challenge/i);

		const again = world.browser();
		for (let i = 0; i < OUTSTANDING_CHALLENGES; i++) issued.push((await again.options(autofill)).body.options);
		const oldestKept = await again.callback({ action: 'authenticate', data: world.device.authenticate(issued.at(-OUTSTANDING_CHALLENGES)!) });
		expect(oldestKept.status).toBe(200);
	});

	test('each challenge keeps its own five minutes, whatever is issued after it', async () => {
		const { world, browser } = await registered();
		const early = await browser.options(autofill);
		world.clock.now += 4 * 60 * 1000;
		const later = await browser.options({ action: 'authenticate' });
		world.clock.now += 2 * 60 * 1000;
		const expired = await browser.callback({ action: 'authenticate', data: world.device.authenticate(early.body.options) });
		expect(expired).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });

		const again = world.browser();
		const first = await again.options(autofill);
		world.clock.now += 4 * 60 * 1000;
		await again.options({ action: 'authenticate' });
		const inTime = await again.callback({ action: 'authenticate', data: world.device.authenticate(first.body.options) });
		expect(inTime.status).toBe(200);
		expect(later.status).toBe(200);
	});

	test('a response without a readable client data challenge is a 400, and uses up nothing it did not sign', async () => {
		const { world, browser } = await registered();
		const login = await browser.options({ action: 'authenticate' });
		const assertion = world.device.authenticate(login.body.options);
		for (const clientDataJSON of [undefined, '', 'not base64 json', Buffer.from('[1]').toString('base64url'), Buffer.from('{"challenge":7}').toString('base64url')]) {
			const refused = await browser.callback({ action: 'authenticate', data: { ...assertion, response: { ...assertion.response, clientDataJSON } } });
			expect(refused).toMatchObject({ status: 400, body: { error: 'WebAuthnVerificationError' } });
		}
	});
});

describe('rate limit', () => {
	// the default store is the process's: each test comes from an address of its own
	const limitedTo = (perAddress: number, address: string) => ({ config: { rateLimit: { passkey: { perAddress }, clientAddress: () => address } } });

	test('autofill options do not count when issued (a page starts one on every load), the button’s do', async () => {
		const world = passkeyWorld(limitedTo(1, '203.0.113.7'));
		for (let i = 0; i < 5; i++) expect((await world.options(autofill)).status).toBe(200);
		expect((await world.options({ action: 'authenticate' })).status).toBe(200);
		const over = await world.options({ action: 'authenticate' });
		expect(over).toMatchObject({ status: 429, body: { error: 'RateLimited' } });
		expect((await world.options(autofill)).status).toBe(200);
	});

	test('an autofill challenge counts when it is used: over the limit, 429 with Retry-After and no session', async () => {
		// the registration's options take the first attempt, the first autofill sign-in the second
		const { world, browser } = await registered(limitedTo(2, '203.0.113.8'));
		const first = await browser.options(autofill);
		expect((await browser.callback({ action: 'authenticate', data: world.device.authenticate(first.body.options) })).status).toBe(200);

		const next = world.browser();
		const second = await next.options(autofill);
		const refused = await next.callback({ action: 'authenticate', data: world.device.authenticate(second.body.options) });
		expect(refused).toMatchObject({ status: 429, body: { error: 'RateLimited' } });
		expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(refused.response.headers.getSetCookie().some((c) => c.startsWith('kitgate.session-token=') && !/Max-Age=0/i.test(c))).toBe(false);
		expect(next.challengeCookie()).toBeUndefined();
		expect(await next.session()).toBeNull();
	});
});
