// passkeySignIn({ autofill: true }) against the real engine: a stand-in browser (fetch handing each
// request to `Auth()` with a cookie jar, navigator.credentials answered by the software
// authenticator, a recorded location) signs in with a passkey picked in autofill; an abort before
// the pick, no conditional mediation or no field to offer passkeys in end it before any request.

import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { ORIGIN, passkeyWorld } from '../server/core/test/webauthn-fixture.js';
import { passkeySignIn } from './passkey.js';
import { engineFetch } from './test/engine-browser.js';

interface Get {
	mediation?: string;
	publicKey: { challenge: ArrayBuffer; rpId?: string };
	signal?: AbortSignal;
}

const PAGE = `${ORIGIN}/signin`;
const buffer = (base64url: string) => new Uint8Array(Buffer.from(base64url, 'base64url')).buffer;

/** What the browser's `navigator.credentials.get` gives for a software assertion. */
function asCredential(json: AuthenticationResponseJSON) {
	return {
		id: json.id,
		rawId: buffer(json.rawId),
		type: 'public-key',
		authenticatorAttachment: 'platform',
		response: {
			clientDataJSON: buffer(json.response.clientDataJSON),
			authenticatorData: buffer(json.response.authenticatorData),
			signature: buffer(json.response.signature),
			userHandle: json.response.userHandle ? buffer(json.response.userHandle) : null
		},
		getClientExtensionResults: () => ({})
	};
}

let world: ReturnType<typeof passkeyWorld>;
let jar: Map<string, string>;
let requests: string[];
let navigations: string[];
/** Each `navigator.credentials.get` call, with a way to pick the passkey it offers. */
let gets: { request: Get; pick: () => void }[];

beforeEach(async () => {
	world = passkeyWorld();
	const registration = await world.options({ email: 'autofill@example.com' });
	expect((await world.callback({ action: 'register', data: world.device.register(registration.body.options) })).status).toBe(200);

	jar = new Map();
	requests = [];
	navigations = [];
	gets = [];
	vi.stubGlobal('fetch', engineFetch(world.config, { page: PAGE, jar, onRequest: ({ input }) => requests.push(input) }));
	vi.stubGlobal('location', { href: PAGE, hostname: 'localhost', assign: (url: string) => void navigations.push(url) });
	vi.stubGlobal('PublicKeyCredential', Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: async () => true }));
	const field = (selector: string) => selector === "input[autocomplete$='webauthn']";
	vi.stubGlobal('document', { querySelector: (s: string) => (field(s) ? {} : null), querySelectorAll: (s: string) => (field(s) ? [{}] : []) });
	vi.stubGlobal('navigator', {
		credentials: {
			get: (request: Get) =>
				new Promise((resolve, reject) => {
					request.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
					const options = { rpId: request.publicKey.rpId, challenge: Buffer.from(request.publicKey.challenge).toString('base64url') };
					gets.push({ request, pick: () => resolve(asCredential(world.device.authenticate(options as PublicKeyCredentialRequestOptionsJSON))) });
				})
		}
	});
});

afterEach(() => {
	vi.unstubAllGlobals();
});

/** Waits until the stand-in browser was asked for a credential. */
async function asked(): Promise<(typeof gets)[number]> {
	await vi.waitFor(() => expect(gets.length).toBeGreaterThan(0));
	return gets.at(-1)!;
}

describe('passkeySignIn with autofill', () => {
	test('asks for a conditional request with autofill options; a passkey picked signs in and navigates', async () => {
		const pending = passkeySignIn('passkey', { autofill: true }, { redirectTo: '/after' });
		const get = await asked();
		expect(get.request.mediation).toBe('conditional');
		expect(requests[0]).toBe('/auth/webauthn-options/passkey?action=authenticate&mediation=conditional');
		get.pick();
		expect(await pending).toEqual({ ok: true, url: `${ORIGIN}/after`, action: 'authenticate', status: 200 });
		expect(navigations).toEqual([`${ORIGIN}/after`]);
		expect(jar.has('kitgate.session-token')).toBe(true);
	});

	test('an email is not sent: autofill only signs in', async () => {
		const pending = passkeySignIn('passkey', { autofill: true, email: 'x@example.com', action: 'register' }, { redirect: false });
		(await asked()).pick();
		expect((await pending).action).toBe('authenticate');
		expect(requests[0]).toBe('/auth/webauthn-options/passkey?action=authenticate&mediation=conditional');
	});

	test('aborted through its signal, the request ends as WebAuthnCancelled and nothing is posted', async () => {
		const controller = new AbortController();
		const pending = passkeySignIn('passkey', { autofill: true }, { signal: controller.signal });
		const get = await asked();
		controller.abort();
		expect(get.request.signal?.aborted).toBe(true);
		expect(await pending).toMatchObject({ ok: false, error: 'WebAuthnCancelled', status: 0 });
		expect(requests.some((url) => url.includes('/callback/'))).toBe(false);
		expect(navigations).toEqual([]);
	});

	test('aborted while its options load, it never asks the browser', async () => {
		const controller = new AbortController();
		const pending = passkeySignIn('passkey', { autofill: true }, { signal: controller.signal });
		controller.abort();
		expect(await pending).toMatchObject({ ok: false, error: 'WebAuthnCancelled', status: 0 });
		expect(gets).toEqual([]);
	});

	test('without conditional mediation, or without a field to offer passkeys in, nothing is requested', async () => {
		vi.stubGlobal('PublicKeyCredential', Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: async () => false }));
		expect(await passkeySignIn('passkey', { autofill: true })).toMatchObject({ ok: false, error: 'WebAuthnUnsupported', status: 0 });
		vi.stubGlobal('PublicKeyCredential', Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: async () => true }));
		vi.stubGlobal('document', { querySelector: () => null, querySelectorAll: () => [] });
		expect(await passkeySignIn('passkey', { autofill: true })).toMatchObject({ ok: false, error: 'WebAuthnFailed', status: 0 });
		expect(requests).toEqual([]);
		expect(gets).toEqual([]);
	});
});
