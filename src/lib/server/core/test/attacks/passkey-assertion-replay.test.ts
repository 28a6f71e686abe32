// Attacks: replay of a passkey assertion (accepted again and again before used challenges were recorded).
//
// docs/security.md says passkey "challenges are single use"; in fact the challenge lives only in the
// browser's cookie and the server keeps no record of used ones (docs/decisions.md). Synced passkeys
// (iCloud Keychain, Google Password Manager) always report signature counter 0, so the counter check
// does not apply either. Whoever gets hold of one authentication request (its challenge cookie and
// its JSON body: a request log, a TLS-terminating middlebox, a browser extension) can post it again,
// with a CSRF pair of their own, any number of times within the 5 minutes, and gets a new session each time.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Passkey from '../../../providers/passkey.js';
import type { AuthConfig } from '../../types.js';
import { TEST_SECRET, testClient } from '../client.js';
import { softwareAuthenticator } from '../software-authenticator.js';

const ORIGIN = 'http://localhost:3000';

describe('passkey assertion replay', () => {
	test('an authentication response is accepted once, also from a zero-counter (synced) passkey', async () => {
		const config: AuthConfig = {
			secret: TEST_SECRET,
			trustHost: true,
			adapter: MemoryAdapter(),
			experimental: { enableWebAuthn: true },
			logger: { error: () => {}, warn: () => {}, debug: () => {} },
			providers: [Passkey()]
		};
		const device = softwareAuthenticator(ORIGIN);

		// the owner registers a passkey that, like synced passkeys, always reports counter 0
		const owner = testClient(config, ORIGIN);
		const registration = (await (await owner.request('/auth/webauthn-options/passkey?action=register&email=owner@example.com')).json()) as { options: never };
		const attestation = device.register(registration.options, { counter: 0 });
		const registered = await owner.request('/auth/callback/passkey', { json: { csrfToken: await owner.csrfToken(), action: 'register', data: attestation } });
		expect(registered.status).toBe(200);

		// the owner signs in on another visit; this request is what leaks
		const visit = testClient(config, ORIGIN);
		const login = (await (await visit.request('/auth/webauthn-options/passkey?action=authenticate')).json()) as { options: never };
		const challengeCookie = visit.jar.get('kitgate.challenge')!;
		const assertion = device.authenticate(login.options, { counter: 0 });
		const first = await visit.request('/auth/callback/passkey', { json: { csrfToken: await visit.csrfToken(), action: 'authenticate', data: assertion } });
		expect(first.status).toBe(200);

		// the attacker replays it from their own browser: their own CSRF pair, the leaked challenge cookie and body
		const replayed: number[] = [];
		let attackerSession: unknown = null;
		for (let i = 0; i < 3; i++) {
			const attacker = testClient(config, ORIGIN);
			const csrfToken = await attacker.csrfToken();
			attacker.jar.set('kitgate.challenge', challengeCookie);
			const replay = await attacker.request('/auth/callback/passkey', { json: { csrfToken, action: 'authenticate', data: assertion } });
			replayed.push(replay.status);
			attackerSession = await (await attacker.request('/auth/session')).json();
		}
		console.log(`replays answered ${replayed.join(', ')}; the attacker's session: ${JSON.stringify(attackerSession)}`);
		expect(replayed).toEqual([400, 400, 400]);
		expect(attackerSession).toBeNull();
	});
});
