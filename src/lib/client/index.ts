// Browser helpers: `signIn()` and `signOut()` that fetch a CSRF token, post to kitgate's routes
// and follow the returned URL; `getSession()`/`updateSession()`; passkey ceremonies for `webauthn`
// providers. Export path: `kitgate/client`.

import type { Session } from '../server/core/types.js';
import { sameOriginBasePath } from './base-path.js';
import { passkeySignIn, type PasskeyAction } from './passkey.js';
import { announceSessionChange } from './session-events.js';

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

/** Options of `signIn`. */
export interface SignInOptions extends ClientOptions {
	/** Extra parameters of the provider's authorization request (OAuth/OIDC), e.g. `{ prompt: 'login' }`: sent in the query string. */
	authorizationParams?: Record<string, string>;
}

/** What `signIn`/`signOut` return when `redirect: false` (or before navigating). */
export interface SignInResult {
	/** True when the flow succeeded or continues at the provider (then `url` is where to go). */
	ok: boolean;
	/** The URL kitgate answered with (callback URL, provider page, or sign-in page with an error); `''` when it gave none. */
	url: string;
	/** The error type from the URL's `error` parameter or kitgate's JSON answer, if any (e.g. `CredentialsSignin`). */
	error?: string;
	/** The `code` parameter of a credentials error. */
	code?: string;
	/** HTTP status of kitgate's answer. */
	status: number;
}

/** What `signOut` returns: the same shape (`url` is where the user goes after signing out). */
export type SignOutResult = SignInResult;

async function csrfToken(basePath: string): Promise<string> {
	const response = await fetch(`${basePath}/csrf`, { credentials: 'same-origin' });
	if (!response.ok) throw new Error(`kitgate: could not get a CSRF token (${response.status})`);
	return ((await response.json()) as { csrfToken: string }).csrfToken;
}

async function providerTypes(basePath: string): Promise<Record<string, { type: string }>> {
	const response = await fetch(`${basePath}/providers`, { credentials: 'same-origin' });
	if (!response.ok) throw new Error(`kitgate: could not list the providers (${response.status})`);
	return (await response.json()) as Record<string, { type: string }>;
}

/** Posts a form in kitgate's JSON mode (`X-Auth-Return-Redirect: 1`: the answer is `{ url }`, not a redirect). */
async function post(path: string, fields: Record<string, string>): Promise<SignInResult> {
	const response = await fetch(path, {
		method: 'POST',
		credentials: 'same-origin',
		headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
		body: new URLSearchParams(fields)
	});
	const body = ((await response.json().catch(() => null)) ?? {}) as { url?: unknown; error?: unknown };
	const url = typeof body.url === 'string' ? body.url : '';
	const parsed = url ? new URL(url, location.href) : undefined;
	const error =
		parsed?.searchParams.get('error') ?? (typeof body.error === 'string' ? body.error : undefined) ?? (response.ok && url ? undefined : 'Default');
	return { ok: !error, url, error, code: parsed?.searchParams.get('code') ?? undefined, status: response.status };
}

function go(url: string): void {
	location.href = url;
	// a hash-only change does not reload: make sure the new session is seen
	if (url.includes('#')) location.reload();
}

/**
 * Starts sign-in with a provider; without `providerId`, goes to the sign-in page. Credentials
 * (or the email address of an email provider) go in `params`; `options.authorizationParams` go
 * to the provider's authorization request. A passkey (`webauthn`) provider runs the browser
 * ceremony: `params` may hold `action` ("register" | "authenticate") and `email`; its errors
 * include `WebAuthnUnsupported` and `WebAuthnCancelled`.
 *
 * `redirectTo` may also come among `params`, where Auth.js's `signIn` takes it.
 *
 * With `redirect: false` it resolves with the outcome instead of navigating. With the default,
 * it navigates on success, and on OAuth/email failures to the error URL; a failed credentials
 * sign-in stays on the page and resolves with `error: 'CredentialsSignin'`.
 *
 * @example
 * const result = await signIn("credentials", { username, password }, { redirect: false });
 * if (result.error) showError(result.error);
 * await signIn("github", {}, { authorizationParams: { prompt: "login" } });
 * await signIn("passkey"); // sign in with a saved passkey
 */
export async function signIn(
	providerId?: string,
	params: Record<string, string> = {},
	options: SignInOptions = {}
): Promise<SignInResult> {
	const basePath = sameOriginBasePath(options.basePath ?? '/auth');
	// Auth.js's form puts redirectTo among the fields: honour it there too, and do not post it
	const { redirectTo: fieldRedirectTo, ...fields } = params;
	const callbackUrl = options.redirectTo ?? fieldRedirectTo ?? location.href;
	const navigate = options.redirect !== false;
	if (!providerId) {
		const url = `${basePath}/signin?${new URLSearchParams({ callbackUrl })}`;
		if (navigate) go(url);
		return { ok: true, url, status: 0 };
	}
	const [token, providers] = await Promise.all([csrfToken(basePath), providerTypes(basePath)]);
	const type = providers[providerId]?.type;
	if (type === 'webauthn') {
		return passkeySignIn(providerId, { action: fields.action as PasskeyAction | undefined, email: fields.email }, { ...options, redirectTo: callbackUrl });
	}
	// credentials are checked by the callback route; other providers start at signin
	const route = type === 'credentials' ? 'callback' : 'signin';
	const query = route === 'signin' && options.authorizationParams ? `?${new URLSearchParams(options.authorizationParams)}` : '';
	const result = await post(`${basePath}/${route}/${encodeURIComponent(providerId)}${query}`, { ...fields, csrfToken: token, callbackUrl });
	// a failed credentials sign-in stays on the page, so the caller can show the error
	if (navigate && result.url && (result.ok || route === 'signin')) go(result.url);
	// a credentials sign-in that stays on the page: a session state in it fetches the new session
	else if (result.ok && route === 'callback') announceSessionChange({});
	return result;
}

/**
 * Signs out and goes to `redirectTo` (default: the current page); with `redirect: false`, resolves
 * with the outcome instead.
 *
 * @example
 * await signOut({ redirectTo: "/" });
 * const { url } = await signOut({ redirect: false });
 */
export async function signOut(options: ClientOptions = {}): Promise<SignOutResult> {
	const basePath = sameOriginBasePath(options.basePath ?? '/auth');
	const callbackUrl = options.redirectTo ?? location.href;
	const result = await post(`${basePath}/signout`, { csrfToken: await csrfToken(basePath), callbackUrl });
	if (options.redirect !== false && result.url) go(result.url);
	else if (result.ok) announceSessionChange({ session: null });
	return result;
}

/** Options of `getSession` and `updateSession`. */
export interface SessionRequestOptions {
	/** Base path of kitgate's routes (default `/auth`): a path on this origin (another origin is refused). */
	basePath?: string;
}

/** Reads `GET {basePath}/session`: the session, or `null`; throws when kitgate answers an error (the caller keeps what it knew). */
async function sessionAnswer<S>(response: Response): Promise<S | null> {
	const body = (await response.json().catch(() => undefined)) as S | { error?: unknown } | null | undefined;
	if (!response.ok || body === undefined || (body !== null && typeof body === 'object' && 'error' in body && typeof body.error === 'string')) {
		throw new Error(`kitgate: the session could not be read (${response.status})`);
	}
	return body as S | null;
}

/**
 * Fetches the current session from kitgate (`GET {basePath}/session`): the session, or `null`
 * when nobody is signed in. Prefer the root layout's `session` (no request) and a session state
 * (`setSessionContext` of `kitgate/components`) in SvelteKit; this is for other pages and for refreshing.
 *
 * @example
 * const session = await getSession();
 * if (session) console.log(`signed in as ${session.user.email}`);
 */
export async function getSession<S = Session>(options: SessionRequestOptions = {}): Promise<S | null> {
	const response = await fetch(`${sameOriginBasePath(options.basePath ?? '/auth')}/session`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
	return sessionAnswer<S>(response);
}

/**
 * Updates the session (`POST {basePath}/session` with a CSRF token): your `jwt` callback runs with
 * `trigger: "update"` and `session: data` (validate it there), and the `session` callback's result
 * comes back. A session state in the page shows it at once.
 *
 * @example
 * const session = await updateSession({ theme: 'dark' });
 */
export async function updateSession<S = Session>(data?: unknown, options: SessionRequestOptions = {}): Promise<S | null> {
	const basePath = sameOriginBasePath(options.basePath ?? '/auth');
	const response = await fetch(`${basePath}/session`, {
		method: 'POST',
		credentials: 'same-origin',
		headers: { 'content-type': 'application/json', accept: 'application/json' },
		body: JSON.stringify({ csrfToken: await csrfToken(basePath), data })
	});
	const session = await sessionAnswer<S>(response);
	announceSessionChange({ session: session as Session | null });
	return session;
}
