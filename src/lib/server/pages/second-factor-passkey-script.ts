// The script of the second step's page when the pending user may use a passkey instead of a code
// ("Use a passkey"). It uses the browser's own WebAuthn JSON methods; its SHA-256 goes into the
// page's Content-Security-Policy, as the sign-in page's passkey script does.

import { scriptHashSource } from './script-hash.js';

/**
 * Enables each `form[data-kitgate-second-factor-passkey]` (SecondFactorPasskey.svelte): its button
 * fetches request options from the form's action (`{basePath}/second-factor/passkey`), asks the
 * browser for one of the user's passkeys, posts the response as JSON with the form's CSRF token
 * (and the page's "Trust this browser" box, when ticked) and follows the answered URL. A refused
 * passkey or too many tries say so beside the button, which works again; an expired sign-in
 * reloads the page (which sends the browser to sign in again); a cancelled prompt changes nothing.
 * Without WebAuthn JSON support the button stays off and says so.
 */
export const SECOND_FACTOR_PASSKEY_SCRIPT = `
const native = window.PublicKeyCredential;
const supported = Boolean(native) && typeof native.parseRequestOptionsFromJSON === 'function' && typeof native.prototype.toJSON === 'function';
for (const form of document.querySelectorAll('form[data-kitgate-second-factor-passkey]')) {
	const button = form.querySelector('button');
	const hint = form.querySelector('[data-kitgate-passkey-hint]');
	const say = (text) => {
		hint.textContent = text;
		hint.hidden = false;
	};
	if (!supported) {
		say(form.dataset.unsupported);
		continue;
	}
	const fail = (type) => {
		if (type === 'SecondFactorExpired') return location.reload();
		say(type === 'RateLimited' ? form.dataset.rateLimited : form.dataset.failed);
		button.disabled = false;
	};
	button.disabled = false;
	button.addEventListener('click', async () => {
		button.disabled = true;
		hint.hidden = true;
		try {
			const options = await fetch(form.action, { credentials: 'same-origin' });
			const answer = await options.json();
			if (!options.ok) return fail(answer.error);
			let credential;
			try {
				credential = await navigator.credentials.get({ publicKey: native.parseRequestOptionsFromJSON(answer.options) });
			} catch (error) {
				if (error.name !== 'NotAllowedError' && error.name !== 'AbortError') throw error;
				button.disabled = false;
				return;
			}
			const trust = document.querySelector('input[name="trustBrowser"]');
			const response = await fetch(form.action, {
				method: 'POST',
				credentials: 'same-origin',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ data: credential.toJSON(), csrfToken: form.elements.csrfToken.value, trustBrowser: Boolean(trust && trust.checked) })
			});
			const outcome = await response.json();
			if (response.ok && outcome.url) return location.assign(outcome.url);
			fail(outcome.error);
		} catch {
			fail('Default');
		}
	});
}
`;

/** The CSP source that allows exactly `SECOND_FACTOR_PASSKEY_SCRIPT`. */
export const SECOND_FACTOR_PASSKEY_SCRIPT_SOURCE = scriptHashSource(SECOND_FACTOR_PASSKEY_SCRIPT);
