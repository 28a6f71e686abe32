// The one script a built-in page may run: the passkey button of the sign-in page, and passkey
// autofill beside it. It uses the browser's own WebAuthn JSON methods; its SHA-256 goes into the
// page's Content-Security-Policy.

import { scriptHashSource } from './script-hash.js';

/**
 * Enables each `form[data-kitgate-passkey]`: its button fetches request options, asks the browser
 * for a passkey, posts the response as JSON with the form's CSRF token and follows the answered
 * URL. A server error reloads the page with `?error=<type>` so the page shows its alert; a
 * cancelled prompt changes nothing; without WebAuthn JSON support the form says so.
 *
 * Passkey autofill: where the browser has conditional mediation and the page a field whose
 * `autocomplete` ends in `webauthn`, a conditional request (options with `mediation=conditional`,
 * for the first passkey form) waits for the user to pick a passkey in that field, then signs in as
 * the button does. One WebAuthn request runs at a time: a button aborts the autofill request (and
 * waits for it to end) before its own, and starts it again when its prompt is closed. An autofill
 * request that fails, is aborted, or whose passkey the server refuses shows nothing: the button
 * still works and says why.
 */
export const PASSKEY_SCRIPT = `
const native = window.PublicKeyCredential;
const supported = Boolean(native) && typeof native.parseRequestOptionsFromJSON === 'function' && typeof native.prototype.toJSON === 'function';
const forms = [...document.querySelectorAll('form[data-kitgate-passkey]')];
const buttons = forms.map((form) => form.querySelector('button'));
const showError = (type) => {
	const url = new URL(location.href);
	url.searchParams.set('error', type || 'Default');
	location.assign(url.href);
};
const closed = (error) => error.name === 'NotAllowedError' || error.name === 'AbortError';
const requestOptions = async (form, query) => {
	const response = await fetch(form.dataset.optionsUrl + '?' + query, { credentials: 'same-origin' });
	return { ok: response.ok, answer: await response.json() };
};
const verify = async (form, credential) => {
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
	return response.ok && outcome.url ? { url: outcome.url } : { error: outcome.error };
};
let autofill;
let signingIn = false;
const startAutofill = () => {
	const form = forms[0];
	if (!supported || !form || !document.querySelector('input[autocomplete$="webauthn"]')) return;
	const controller = new AbortController();
	const settled = (async () => {
		if (!(await native.isConditionalMediationAvailable?.())) return undefined;
		const { ok, answer } = await requestOptions(form, 'action=authenticate&mediation=conditional');
		if (!ok || controller.signal.aborted) return undefined;
		const publicKey = native.parseRequestOptionsFromJSON(answer.options);
		return await navigator.credentials.get({ mediation: 'conditional', publicKey, signal: controller.signal });
	})().catch(() => undefined);
	autofill = { controller, settled };
	settled.then(async (credential) => {
		if (autofill?.controller === controller) autofill = undefined;
		if (!credential) return;
		signingIn = true;
		for (const button of buttons) button.disabled = true;
		const result = await verify(form, credential).catch(() => ({}));
		if (result.url) return location.assign(result.url);
		signingIn = false;
		for (const button of buttons) button.disabled = false;
	});
};
const stopAutofill = async () => {
	const pending = autofill;
	autofill = undefined;
	if (!pending) return undefined;
	pending.controller.abort();
	return pending.settled;
};
forms.forEach((form, index) => {
	const button = buttons[index];
	const hint = form.querySelector('[data-kitgate-passkey-hint]');
	if (!supported) {
		hint.textContent = form.dataset.unsupported;
		hint.hidden = false;
		return;
	}
	button.disabled = false;
	button.addEventListener('click', async () => {
		button.disabled = true;
		// a passkey picked in autofill meanwhile is signing in already
		if ((await stopAutofill()) || signingIn) return;
		try {
			const { ok, answer } = await requestOptions(form, 'action=authenticate');
			if (!ok) return showError(answer.error);
			let credential;
			try {
				credential = await navigator.credentials.get({ publicKey: native.parseRequestOptionsFromJSON(answer.options) });
			} catch (error) {
				if (!closed(error)) throw error;
				button.disabled = false;
				return startAutofill();
			}
			const result = await verify(form, credential);
			if (result.url) location.assign(result.url);
			else showError(result.error);
		} catch {
			showError('Default');
		}
	});
});
startAutofill();
`;

/** The CSP source that allows exactly `PASSKEY_SCRIPT`. */
export const PASSKEY_SCRIPT_SOURCE = scriptHashSource(PASSKEY_SCRIPT);

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
export const PASSKEY_REGISTER_SCRIPT_SOURCE = scriptHashSource(PASSKEY_REGISTER_SCRIPT);
