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

/**
 * Enables the "Add a passkey" button of the account page (`button[data-kitgate-passkey-add]`, from
 * PasskeyList): fetches registration options, asks the browser to create a passkey, posts it as JSON
 * with the page's CSRF token, and reloads the page with `?account=passkey-added` (or
 * `?accountError=<type>`). A cancelled prompt changes nothing; without WebAuthn JSON support the
 * button stays off and the page says so.
 */
export const PASSKEY_REGISTER_SCRIPT = `
for (const button of document.querySelectorAll('button[data-kitgate-passkey-add]')) {
	const message = button.parentElement.querySelector('[data-kitgate-passkey-message]');
	const say = (text) => {
		message.textContent = text;
		message.hidden = false;
	};
	const native = window.PublicKeyCredential;
	if (!native || typeof native.parseCreationOptionsFromJSON !== 'function' || typeof native.prototype.toJSON !== 'function') {
		say(button.dataset.unsupported);
		continue;
	}
	const back = (name, value) => {
		const url = new URL(button.dataset.callbackUrl, location.href);
		url.searchParams.delete('account');
		url.searchParams.delete('accountError');
		url.searchParams.set(name, value || 'Default');
		location.assign(url.href);
	};
	button.disabled = false;
	button.addEventListener('click', async () => {
		button.disabled = true;
		message.hidden = true;
		try {
			const optionsResponse = await fetch(button.dataset.optionsUrl + '?action=register', { credentials: 'same-origin' });
			const answer = await optionsResponse.json();
			if (!optionsResponse.ok) return back('accountError', answer.error);
			let credential;
			try {
				credential = await navigator.credentials.create({ publicKey: native.parseCreationOptionsFromJSON(answer.options) });
			} catch (error) {
				if (error.name === 'NotAllowedError' || error.name === 'AbortError') {
					button.disabled = false;
					return say(button.dataset.cancelled);
				}
				throw error;
			}
			const response = await fetch(button.dataset.action, {
				method: 'POST',
				credentials: 'same-origin',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ action: 'register', data: credential.toJSON(), csrfToken: button.dataset.csrfToken, callbackUrl: button.dataset.callbackUrl })
			});
			const outcome = await response.json();
			if (response.ok && outcome.url) back('account', 'passkey-added');
			else back('accountError', outcome.error);
		} catch {
			back('accountError', 'Default');
		}
	});
}
`;

/** The CSP source that allows exactly `PASSKEY_REGISTER_SCRIPT`. */
export const PASSKEY_REGISTER_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(PASSKEY_REGISTER_SCRIPT).digest('base64')}'`;
