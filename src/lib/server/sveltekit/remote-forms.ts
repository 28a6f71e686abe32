// Sign-in and sign-out as SvelteKit remote `form` functions: the app's `*.remote.ts` wraps these in
// `form('unchecked', …)`. Export path: `kitgate/sveltekit`. They run kitgate's own form actions.

import { error, type RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import { CredentialsSignin, failures, type ErrorType } from '../core/errors.js';
import { requestKitgate } from './request-kitgate.js';

/**
 * What a sign-in or sign-out form posts: `providerId` (sign-in), `callbackUrl` or `redirectTo`,
 * and a credentials provider's fields (`username`, `password`, …) or an email provider's `email`.
 *
 * @example
 * const input: RemoteAuthFormInput = { providerId: 'credentials', username: 'ada', password: '…', callbackUrl: '/' };
 */
export interface RemoteAuthFormInput {
	/** A form field: SvelteKit's parsed value (`a.b` names nest, `name[]` ones are lists). */
	[field: string]: string | number | boolean | File | RemoteAuthFormInput | (string | number | boolean | File | RemoteAuthFormInput)[] | undefined;
}

/**
 * A sign-in the form can show (`form.result`): a credentials provider refused the fields. Every
 * other outcome is a redirect (to the callback URL, the identity provider, the check-your-email
 * page, or kitgate's error page).
 *
 * @example
 * // in the page: {#if signIn.result?.error}<p role="alert">Sign in failed.</p>{/if}
 * const failure: RemoteSignInFailure = { error: 'CredentialsSignin', code: 'credentials' };
 */
export interface RemoteSignInFailure {
	/** The error type (kitgate's failure table): a refused password. */
	error: 'CredentialsSignin';
	/** The provider's refusal code (`credentials` unless its `authorize` threw a `CredentialsSignin` with another). */
	code: string;
}

/** Form data kitgate reads: far more than any sign-in form has, far less than a bomb. */
const MAX_FIELDS = 256;
const MAX_DEPTH = 8;

/**
 * The form fields of a remote form's data, as a form post would send them (`a.b` for nested
 * ones); `undefined` for data no form makes: SvelteKit's enhanced forms post devalue, which can
 * encode shared and cyclic references (a cycle would overflow the stack, shared ones multiply).
 */
function formBody(data: RemoteAuthFormInput): URLSearchParams | undefined {
	const into = new URLSearchParams();
	const seen = new WeakSet<object>();
	const add = (value: unknown, field: string, depth: number): boolean => {
		if (value === undefined || value === null || value instanceof File) return true;
		if (typeof value !== 'object') {
			into.append(field, String(value));
			return into.size <= MAX_FIELDS;
		}
		// each object once, not too deep: a form's fields are a small tree
		if (seen.has(value) || depth > MAX_DEPTH) return false;
		seen.add(value);
		if (Array.isArray(value)) return value.every((item) => add(item, field, depth + 1));
		return Object.entries(value).every(([name, item]) => add(item, field ? `${field}.${name}` : name, depth + 1));
	};
	return add(data ?? {}, '', 0) ? into : undefined;
}

/** SvelteKit's 400 for form data no form makes (the failure table's InvalidRequest). */
function invalidFormData(): never {
	error(failures.InvalidRequest.status, { message: failures.InvalidRequest.defaultMessage, code: 'InvalidRequest' satisfies ErrorType } as App.Error);
}

/**
 * The form post again, for kitgate's action: SvelteKit has read the body into `data`; the URL and
 * headers (Origin, Cookie: what the CSRF checks look at) are the request's own.
 */
function formEvent(event: RequestEvent, data: RemoteAuthFormInput): RequestEvent {
	const body = formBody(data) ?? invalidFormData();
	const headers = new Headers(event.request.headers);
	headers.delete('content-length');
	headers.set('content-type', 'application/x-www-form-urlencoded');
	const request = new Request(event.request.url, { method: 'POST', headers, body });
	return { ...event, request };
}

/** The request of a remote form; a clear error elsewhere. */
function formRequestEvent(what: string): RequestEvent {
	try {
		return getRequestEvent();
	} catch {
		throw new Error(`kitgate: ${what} is a remote form handler: pass it to SvelteKit's form('unchecked', ${what}) in a .remote.ts file.`);
	}
}

/**
 * Signs in from a remote `form`, as the `signIn` form action does (same CSRF rules: a same-origin
 * post, or kitgate's CSRF token). Redirects (303) where the sign-in goes; a credentials refusal is
 * the form's result instead, `{ error: 'CredentialsSignin', code }`, so the page shows it in place.
 * Works without JavaScript.
 *
 * @example
 * // src/routes/auth.remote.ts
 * import { form } from '$app/server';
 * import { signInRemote, signOutRemote } from 'kitgate/sveltekit';
 *
 * export const signIn = form('unchecked', signInRemote);
 * export const signOut = form('unchecked', signOutRemote);
 */
export async function signInRemote(data: RemoteAuthFormInput): Promise<RemoteSignInFailure> {
	const event = formRequestEvent('signInRemote');
	const { signIn } = requestKitgate(event, 'signInRemote');
	try {
		await signIn(formEvent(event, data));
	} catch (thrown) {
		// the action's credentials refusal (SvelteKit's 401, marked as CredentialsSignin): the form's result
		if (thrown instanceof CredentialsSignin) return { error: 'CredentialsSignin', code: thrown.code };
		throw thrown;
	}
	// the action ends in a redirect or an error: reaching here is a bug
	throw new Error('kitgate: the sign-in action returned without a redirect.');
}

/**
 * Signs out from a remote `form`, as the `signOut` form action does (same CSRF rules), then
 * redirects (303) to the form's `callbackUrl` (or `redirectTo`), by default the site's home.
 * Works without JavaScript.
 *
 * @example
 * // src/routes/auth.remote.ts
 * import { form } from '$app/server';
 * import { signOutRemote } from 'kitgate/sveltekit';
 *
 * export const signOut = form('unchecked', signOutRemote);
 */
export async function signOutRemote(data: RemoteAuthFormInput): Promise<never> {
	const event = formRequestEvent('signOutRemote');
	const { signOut } = requestKitgate(event, 'signOutRemote');
	await signOut(formEvent(event, data));
	throw new Error('kitgate: the sign-out action returned without a redirect.');
}
