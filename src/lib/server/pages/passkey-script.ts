// The one script a built-in page may run: the passkey button of the sign-in page. It uses the
// browser's own WebAuthn JSON methods; its SHA-256 goes into the page's Content-Security-Policy.

import { createHash } from 'node:crypto';

/**
 * Enables each `form[data-kitgate-passkey]`: fetches request options, asks the browser for a
 * passkey, posts the response as JSON with the form's CSRF token and follows the answered URL.
 * A server error reloads the page with `?error=<type>` so the page shows its alert; a
 * cancelled prompt changes nothing; without WebAuthn JSON support the form says so.
 */
export const PASSKEY_SCRIPT = `
for (const form of document.querySelectorAll('form[data-kitgate-passkey]')) {
	const button = form.querySelector('button');
	const hint = form.querySelector('[data-kitgate-passkey-hint]');
	const native = window.PublicKeyCredential;
	if (!native || typeof native.parseRequestOptionsFromJSON !== 'function' || typeof native.prototype.toJSON !== 'function') {
		hint.textContent = form.dataset.unsupported;
		hint.hidden = false;
		continue;
	}
	const showError = (type) => {
		const url = new URL(location.href);
		url.searchParams.set('error', type || 'Default');
		location.assign(url.href);
	};
	button.disabled = false;
	button.addEventListener('click', async () => {
		button.disabled = true;
		try {
			const optionsResponse = await fetch(form.dataset.optionsUrl + '?action=authenticate', { credentials: 'same-origin' });
			const answer = await optionsResponse.json();
			if (!optionsResponse.ok) return showError(answer.error);
			let credential;
			try {
				credential = await navigator.credentials.get({ publicKey: native.parseRequestOptionsFromJSON(answer.options) });
			} catch (error) {
				if (error.name === 'NotAllowedError' || error.name === 'AbortError') return void (button.disabled = false);
				throw error;
			}
			const response = await fetch(form.action, {
				method: 'POST',
				credentials: 'same-origin',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					action: 'authenticate',
					data: credential.toJSON(),
					csrfToken: form.elements.csrfToken.value,
					callbackUrl: form.elements.callbackUrl.value
				})
			});
			const outcome = await response.json();
			if (response.ok && outcome.url) location.assign(outcome.url);
			else showError(outcome.error);
		} catch {
			showError('Default');
		}
	});
}
`;

/** The CSP source that allows exactly `PASSKEY_SCRIPT`. */
export const PASSKEY_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(PASSKEY_SCRIPT).digest('base64')}'`;
