// The passkey button of `<SignIn />`: loaded (a chunk of its own, with the passkey client) only
// when a passkey provider is listed, it enables the server-rendered button, runs the sign-in
// ceremony on submit and offers saved passkeys in the page's `… webauthn` fields (autofill), as
// PasskeySignIn does. Internal to SignIn.

import { passkeySignIn } from '../client/passkey.js';
import { enPasskey } from '../messages/en-passkey.js';
import { passkeyErrorId } from './passkey-errors.js';

/** What the form needs besides itself. */
export interface PasskeyFormOptions {
	provider: string;
	/** Where kitgate's routes are (default `/auth`). */
	basePath?: string;
	/** Where to go after signing in. */
	redirectTo: string;
	/** The component's message table (`passkey.error.*` over English). */
	messages: Readonly<Record<string, string>>;
}

/**
 * Makes the server-rendered passkey `form` work: its button starts the sign-in ceremony, and
 * autofill waits for a passkey picked in a `webauthn` field. Returns what stops it (the form leaves the page).
 *
 * @example const stop = takeOver(form, { provider: 'passkey', basePath: '/auth', redirectTo: '/', messages: {} });
 */
export function takeOver(form: HTMLFormElement, options: PasskeyFormOptions): () => void {
	const texts: Readonly<Record<string, string>> = { ...enPasskey, ...options.messages };
	const button = form.querySelector('button');
	const common = { basePath: options.basePath ?? '/auth', redirectTo: options.redirectTo };
	let autofill: AbortController | undefined;
	let alert: HTMLElement | undefined;

	async function startAutofill() {
		const controller = (autofill = new AbortController());
		const result = await passkeySignIn(options.provider, { autofill: true }, { ...common, signal: controller.signal });
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
		const result = await passkeySignIn(options.provider, { action: 'authenticate' }, common);
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
