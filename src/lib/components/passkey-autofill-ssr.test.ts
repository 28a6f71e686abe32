// PasskeySignIn on the server (SvelteKit's render, or a prerender): passkey autofill starts in the
// browser only, after mount; rendering asks nothing of the network or of WebAuthn.

import { render } from 'svelte/server';
import { afterEach, expect, test, vi } from 'vitest';
import PasskeySignIn from './PasskeySignIn.svelte';

afterEach(() => {
	vi.unstubAllGlobals();
});

test('rendering PasskeySignIn with autofill on fetches nothing and starts no WebAuthn request', async () => {
	const fetch = vi.fn();
	const get = vi.fn();
	vi.stubGlobal('fetch', fetch);
	vi.stubGlobal('navigator', { credentials: { get } });
	// everything autofill would need, so only where it starts keeps it from running here
	vi.stubGlobal('PublicKeyCredential', Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: async () => true }));
	vi.stubGlobal('document', { querySelector: () => ({}), querySelectorAll: () => [{}] });
	// loaded beforehand, so a start on the server would reach fetch within the wait below
	await import('@simplewebauthn/browser');
	const { body } = render(PasskeySignIn, { props: { autofill: true, withEmail: true } });
	await new Promise((resolve) => setTimeout(resolve, 100));
	expect(body).toContain('autocomplete="username webauthn"');
	expect(body).toMatch(/<button[^>]*disabled=""/);
	expect(fetch).not.toHaveBeenCalled();
	expect(get).not.toHaveBeenCalled();
});
