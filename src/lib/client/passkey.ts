// Browser helpers for passkeys with @simplewebauthn/browser: run a registration or sign-in
// ceremony against kitgate's routes, and list or remove the user's passkeys. Export path: `kitgate/client`.

import { announceSessionChange } from './session-events.js';

/** The two ceremonies. */
export type PasskeyAction = 'register' | 'authenticate';

/** Errors the browser side reports itself; server errors carry kitgate's error type instead. */
export type PasskeyClientError = 'WebAuthnUnsupported' | 'WebAuthnCancelled' | 'WebAuthnFailed';

/** Options of the passkey helpers. */
export interface PasskeyOptions {
	/** Base path of kitgate's routes (default `/auth`). */
	basePath?: string;
	/** Where to go afterwards (default: the current page). */
	redirectTo?: string;
	/** `false` returns the outcome instead of navigating. */
	redirect?: boolean;
	/** Aborts the ceremony, which then resolves with `WebAuthnCancelled` (e.g. autofill's, before a button's). */
	signal?: AbortSignal;
}

/** What a ceremony ended with. */
export interface PasskeyResult {
	ok: boolean;
	/** The URL to go to (set on success). */
	url: string;
	/** The ceremony that ran, once the server chose it. */
	action?: PasskeyAction;
	/** A browser-side error, or a kitgate error type from the server (e.g. `WebAuthnVerificationError`). */
	error?: PasskeyClientError | (string & {});
	/** Detail of a browser-side error, for logs. */
	message?: string;
	/** HTTP status of the last answer (0 when the browser stopped first). */
	status: number;
}

/** A passkey as `listPasskeys` gives it. */
export interface PasskeySummary {
	credentialID: string;
	/** `multiDevice` (synced, e.g. in a password manager) or `singleDevice`. */
	credentialDeviceType: string;
	credentialBackedUp: boolean;
	transports: string[];
}

/** The browser library, loaded when a ceremony runs (it is not needed to show a page). */
const browserLibrary = () => import('@simplewebauthn/browser');

/**
 * True when this browser can run WebAuthn ceremonies.
 *
 * @example
 * button.disabled = !(await passkeysSupported());
 */
export async function passkeysSupported(): Promise<boolean> {
	return (await browserLibrary()).browserSupportsWebAuthn();
}

async function csrfToken(basePath: string): Promise<string> {
	const response = await fetch(`${basePath}/csrf`, { credentials: 'same-origin' });
	if (!response.ok) throw new Error(`kitgate: could not get a CSRF token (${response.status})`);
	return ((await response.json()) as { csrfToken: string }).csrfToken;
}

async function readJson(response: Response): Promise<Record<string, unknown>> {
	return ((await response.json().catch(() => ({}))) ?? {}) as Record<string, unknown>;
}

function failure(error: string, status: number, extra: Partial<PasskeyResult> = {}): PasskeyResult {
	return { ok: false, url: '', error, status, ...extra };
}

/** Maps a ceremony error of @simplewebauthn/browser to a typed result. */
function ceremonyFailure(error: unknown, action: PasskeyAction): PasskeyResult {
	const cause = (error as { cause?: { name?: string } })?.cause;
	const name = cause?.name ?? (error as { name?: string })?.name;
	const code = (error as { code?: string })?.code;
	const message = error instanceof Error ? error.message : String(error);
	// the user closed the prompt or let it time out; browsers report both as NotAllowedError
	if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
		return failure('WebAuthnCancelled', 0, { action, message });
	}
	return failure('WebAuthnFailed', 0, { action, message });
}

/**
 * Runs a passkey ceremony with provider `providerId`: fetches options (without `action` the
 * server registers for a signed-in user and authenticates otherwise; `action: 'register'` with an
 * `email` signs a new user up), asks the browser, posts the result with a CSRF token, then goes
 * to the answered URL.
 *
 * `autofill: true` signs in with passkey autofill instead (conditional mediation): the browser
 * offers saved passkeys in the page's fields whose `autocomplete` ends in `webauthn`, and the
 * promise waits until the user picks one. Only one ceremony runs at a time: abort it with
 * `options.signal` before a button's (starting another ceremony aborts it too); it then resolves
 * with `WebAuthnCancelled`. `WebAuthnUnsupported` without conditional mediation, `WebAuthnFailed`
 * without such a field.
 *
 * @example
 * const result = await passkeySignIn('passkey', { email }, { redirect: false });
 * if (result.error === 'WebAuthnCancelled') return; // the user closed the prompt
 * // on page load, beside <input autocomplete="username webauthn">; autofill.abort() before a button's ceremony
 * const autofill = new AbortController();
 * void passkeySignIn('passkey', { autofill: true }, { signal: autofill.signal });
 */
export async function passkeySignIn(
	providerId = 'passkey',
	params: { action?: PasskeyAction; email?: string; autofill?: boolean } = {},
	options: PasskeyOptions = {}
): Promise<PasskeyResult> {
	const basePath = options.basePath ?? '/auth';
	const library = await browserLibrary();
	if (!library.browserSupportsWebAuthn()) return failure('WebAuthnUnsupported', 0);
	const autofill = params.autofill === true;
	if (autofill && !(await library.browserSupportsWebAuthnAutofill())) return failure('WebAuthnUnsupported', 0);
	if (autofill && !document.querySelector("input[autocomplete$='webauthn']")) {
		return failure('WebAuthnFailed', 0, { message: 'No <input> whose autocomplete ends in "webauthn" to offer passkeys in.' });
	}

	const query = new URLSearchParams();
	const asked = autofill ? 'authenticate' : params.action;
	if (asked) query.set('action', asked);
	if (params.email && !autofill) query.set('email', params.email);
	if (autofill) query.set('mediation', 'conditional');
	const id = encodeURIComponent(providerId);
	const optionsResponse = await fetch(`${basePath}/webauthn-options/${id}?${query}`, { credentials: 'same-origin' });
	const answer = await readJson(optionsResponse);
	if (!optionsResponse.ok) return failure(String(answer.error ?? 'Default'), optionsResponse.status);
	const action = answer.action as PasskeyAction;
	const { signal } = options;
	if (signal?.aborted) return failure('WebAuthnCancelled', 0, { action });

	// the browser library runs one ceremony at a time: aborting ends the current one, ours
	const abort = () => library.WebAuthnAbortService.cancelCeremony();
	signal?.addEventListener('abort', abort);
	let data: unknown;
	try {
		data =
			action === 'register'
				? await library.startRegistration({ optionsJSON: answer.options as Parameters<typeof library.startRegistration>[0]['optionsJSON'] })
				: await library.startAuthentication({
						optionsJSON: answer.options as Parameters<typeof library.startAuthentication>[0]['optionsJSON'],
						useBrowserAutofill: autofill
					});
	} catch (error) {
		return ceremonyFailure(error, action);
	} finally {
		signal?.removeEventListener('abort', abort);
	}

	const response = await fetch(`${basePath}/callback/${id}`, {
		method: 'POST',
		credentials: 'same-origin',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ action, data, csrfToken: await csrfToken(basePath), callbackUrl: options.redirectTo ?? location.href })
	});
	const outcome = await readJson(response);
	if (!response.ok || typeof outcome.url !== 'string') return failure(String(outcome.error ?? 'Default'), response.status, { action });
	if (options.redirect !== false) location.assign(outcome.url);
	// staying on the page: a session state in it fetches the new session
	else announceSessionChange({});
	return { ok: true, url: outcome.url, action, status: response.status };
}

/**
 * Adds a passkey for the signed-in user (a registration ceremony). Stays on the page unless
 * `redirect: true`.
 *
 * @example
 * const result = await registerPasskey();
 * if (result.ok) passkeys = await listPasskeys();
 */
export async function registerPasskey(providerId = 'passkey', options: PasskeyOptions = {}): Promise<PasskeyResult> {
	return passkeySignIn(providerId, { action: 'register' }, { redirect: false, ...options });
}

/**
 * The signed-in user's passkeys; `null` when nobody is signed in.
 *
 * @example
 * const passkeys = await listPasskeys(); // [{ credentialID, credentialDeviceType: 'multiDevice', credentialBackedUp: true, transports: ['internal'] }]
 */
export async function listPasskeys(providerId = 'passkey', options: Pick<PasskeyOptions, 'basePath'> = {}): Promise<PasskeySummary[] | null> {
	const basePath = options.basePath ?? '/auth';
	const response = await fetch(`${basePath}/webauthn-authenticators/${encodeURIComponent(providerId)}`, { credentials: 'same-origin' });
	if (response.status === 401) return null;
	const body = await readJson(response);
	if (!response.ok) throw new Error(`kitgate: could not list passkeys (${String(body.error ?? response.status)})`);
	return body.authenticators as PasskeySummary[];
}

/**
 * Removes one of the signed-in user's passkeys and returns the ones left.
 *
 * @example
 * passkeys = await removePasskey(passkey.credentialID);
 */
export async function removePasskey(
	credentialID: string,
	providerId = 'passkey',
	options: Pick<PasskeyOptions, 'basePath'> = {}
): Promise<PasskeySummary[]> {
	const basePath = options.basePath ?? '/auth';
	const response = await fetch(`${basePath}/webauthn-authenticators/${encodeURIComponent(providerId)}`, {
		method: 'POST',
		credentials: 'same-origin',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ credentialID, csrfToken: await csrfToken(basePath) })
	});
	const body = await readJson(response);
	if (!response.ok) throw new Error(`kitgate: could not remove the passkey (${String(body.error ?? response.status)})`);
	return body.authenticators as PasskeySummary[];
}
