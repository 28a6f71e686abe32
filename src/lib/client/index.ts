// Browser helpers: `signIn()` and `signOut()` that fetch a CSRF token, post to kitgate's routes
// and follow the returned URL; passkey ceremonies for `webauthn` providers. Export path: `kitgate/client`.

import { passkeySignIn, type PasskeyAction } from './passkey.js';

export * from './passkey.js';

/** Options shared by the helpers. */
export interface ClientOptions {
	/** Base path of kitgate's routes (default `/auth`). */
	basePath?: string;
	/** Where to go afterwards (default: the current page). */
	redirectTo?: string;
	/** `false` returns the outcome instead of navigating. */
	redirect?: boolean;
}

/** What `signIn`/`signOut` return when `redirect: false` (or before navigating). */
export interface SignInResult {
	/** True when the flow succeeded or continues at the provider. */
	ok: boolean;
	/** The URL kitgate answered with (callback URL, provider page, or sign-in page with an error). */
	url: string;
	/** The error type from the URL's `error` parameter, if any (e.g. `CredentialsSignin`). */
	error?: string;
	/** The `code` parameter of a credentials error. */
	code?: string;
	/** HTTP status of kitgate's answer. */
	status: number;
}

async function csrfToken(basePath: string): Promise<string> {
	const response = await fetch(`${basePath}/csrf`, { credentials: 'same-origin' });
	if (!response.ok) throw new Error(`kitgate: could not get a CSRF token (${response.status})`);
	return ((await response.json()) as { csrfToken: string }).csrfToken;
}

async function post(path: string, fields: Record<string, string>, navigate: boolean): Promise<SignInResult> {
	const response = await fetch(path, {
		method: 'POST',
		credentials: 'same-origin',
		headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
		body: new URLSearchParams(fields)
	});
	const body = (await response.json().catch(() => ({}))) as { url?: string; error?: string };
	const url = body.url ?? '';
	const parsed = url ? new URL(url, location.href) : undefined;
	const error = parsed?.searchParams.get('error') ?? body.error ?? (response.ok ? undefined : 'Default');
	const result: SignInResult = {
		ok: response.ok && !error,
		url,
		error,
		code: parsed?.searchParams.get('code') ?? undefined,
		status: response.status
	};
	if (navigate && url) {
		location.href = url;
		// a hash-only change does not reload: make sure the new session is seen
		if (url.includes('#')) location.reload();
	}
	return result;
}

/**
 * Starts sign-in with a provider. Credentials go in `params`. A passkey (`webauthn`) provider
 * runs the browser ceremony: `params` may hold `action` ("register" | "authenticate") and
 * `email`; its errors include `WebAuthnUnsupported` and `WebAuthnCancelled`.
 *
 * @example
 * const result = await signIn("credentials", { username, password }, { redirect: false });
 * if (result.error) showError(result.error);
 * await signIn("passkey"); // sign in with a saved passkey
 */
export async function signIn(
	providerId: string,
	params: Record<string, string> = {},
	options: ClientOptions = {}
): Promise<SignInResult> {
	const basePath = options.basePath ?? '/auth';
	const callbackUrl = options.redirectTo ?? location.href;
	const token = await csrfToken(basePath);
	// credentials are checked by the callback route; other providers start at signin
	const providers = (await (await fetch(`${basePath}/providers`)).json()) as Record<string, { type: string }>;
	if (providers[providerId]?.type === 'webauthn') {
		return passkeySignIn(providerId, { action: params.action as PasskeyAction | undefined, email: params.email }, options);
	}
	const route = providers[providerId]?.type === 'credentials' ? 'callback' : 'signin';
	const navigate = options.redirect !== false;
	const result = await post(`${basePath}/${route}/${encodeURIComponent(providerId)}`, { ...params, csrfToken: token, callbackUrl }, false);
	// a failed credentials sign-in stays on the page unless asked to follow the error URL
	if (navigate && (result.ok || route === 'signin') && result.url) location.href = result.url;
	return result;
}

/**
 * Signs out and goes to `redirectTo` (default: the current page).
 *
 * @example
 * await signOut({ redirectTo: "/" });
 */
export async function signOut(options: ClientOptions = {}): Promise<SignInResult> {
	const basePath = options.basePath ?? '/auth';
	const token = await csrfToken(basePath);
	const callbackUrl = options.redirectTo ?? location.href;
	return post(`${basePath}/signout`, { csrfToken: token, callbackUrl }, options.redirect !== false);
}
