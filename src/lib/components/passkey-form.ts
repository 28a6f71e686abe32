// The passkey button of `<SignIn />`: loaded (a chunk of its own, with the passkey client) only
// when a passkey provider is listed, it enables the server-rendered button, runs the sign-in
// ceremony on submit and offers saved passkeys in the page's `… webauthn` fields (autofill), as
// PasskeySignIn does. Internal to SignIn.

import { appBase } from './app-base.js';
import { passkeySignIn } from '../client/passkey.js';
import { enPasskey } from '../messages/en-passkey.js';
import { passkeyErrorId } from './passkey-errors.js';

/**
 * Makes the server-rendered passkey `form` work: its button starts the sign-in ceremony with
 * `provider`, and autofill waits for a passkey picked in a `webauthn` field. `basePath`: where
 * kitgate's routes are (default `/auth`); `redirectTo`: where to go after signing in (default: the
 * app's home page); `messages`: the component's message table (`passkey.error.*` over English).
 * Positional, as SignIn's call ships to every page with the component. Returns what stops it
 * (the form leaves the page).
 *
 * @example const stop = takeOver(form, 'passkey', '/auth', '/', {});
 */
export function takeOver(form: HTMLFormElement, provider: string, basePath: string | undefined, redirectTo: string | undefined, messages: Readonly<Record<string, string>>): () => void {
	const texts: Readonly<Record<string, string>> = { ...enPasskey, ...messages };
	const button = form.querySelector('button');
	const common = { basePath: basePath ?? '/auth', redirectTo: redirectTo ?? `${appBase()}/` };
	let autofill: AbortController | undefined;
	let alert: HTMLElement | undefined;

	async function startAutofill() {
		const controller = (autofill = new AbortController());
		const result = await passkeySignIn(provider, { autofill: true }, { ...common, signal: controller.signal });
		if (controller.signal.aborted) return;
		autofill = undefined;
		// ended before a passkey was picked (no conditional mediation, no field, no options): nothing to say
		if (result.status === 0 || !result.action || result.ok) return;
		show(result.error);
	}

	function show(error: string | undefined) {
		alert ??= form.appendChild(Object.assign(document.createElement('p'), { className: 'kg-alert' }));
		alert.setAttribute('role', 'alert');
		alert.textContent = texts[passkeyErrorId(error)];
	}

	async function submit(event: SubmitEvent) {
		// before use:enhance's listener: this form does not post to the action
		event.preventDefault();
		event.stopImmediatePropagation();
		if (button) button.disabled = true;
		alert?.remove();
		alert = undefined;
		// one WebAuthn request at a time: autofill's ends before the button's starts
		autofill?.abort();
		const result = await passkeySignIn(provider, { action: 'authenticate' }, common);
		if (result.ok) return;
		show(result.error);
		if (button) button.disabled = false;
		void startAutofill();
	}

	form.addEventListener('submit', submit, { capture: true });
	if (button) button.disabled = false;
	void startAutofill();
	return () => {
		form.removeEventListener('submit', submit, { capture: true });
		autofill?.abort();
	};
}
