// Whom a passkey ceremony is for: the submitted email (normalised), the provider's `getUserInfo`
// hook (or its default), and the WebAuthn user handle that ties a credential to a user id.

import { digest } from '../../crypto/hash.js';
import type { RequestContext } from '../../request/context.js';
import { AuthError, CallbackRouteError, InvalidConfiguration, InvalidRequest } from '../../errors.js';
import type { AdapterUser, PasskeyUserInfo, PasskeyUserInfoParams, WebAuthnConfig } from '../../types.js';

/** Longest user handle WebAuthn allows, in bytes. */
const MAX_USER_HANDLE_BYTES = 64;

/**
 * The email of a request, trimmed and lower-cased; undefined when absent. `InvalidRequest` when
 * it cannot be an address.
 *
 * @example normaliseEmail('  Ada@Example.COM ') // 'ada@example.com'
 */
export function normaliseEmail(raw: unknown): string | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	const email = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
	if (email.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new InvalidRequest('The email is not a valid address.');
	return email;
}

/**
 * The default `getUserInfo`: the signed-in user, else a new user labelled with `email`; null
 * without either. It never looks the email up: whether an address has an account stays private,
 * and a passkey (which proves no address) never makes its user the owner of one.
 *
 * Exported by `kitgate/providers/passkey`, to wrap in a hook of your own.
 *
 * @example
 * import Passkey, { defaultPasskeyUserInfo } from 'kitgate/providers/passkey';
 * Passkey({ getUserInfo: (params) => (params.email?.endsWith('@example.com') ? defaultPasskeyUserInfo(params) : null) })
 */
export async function defaultPasskeyUserInfo(params: PasskeyUserInfoParams): Promise<PasskeyUserInfo | null> {
	const { email, signedInUser } = params;
	if (signedInUser) return { user: signedInUser, exists: true };
	if (!email) return null;
	return { user: { email }, exists: false };
}

/**
 * Runs the provider's `getUserInfo` (or the default) and checks what it returned: an existing
 * user needs an id.
 *
 * @example
 * const info = await passkeyUserInfo(ctx, provider, 'ada@example.com', null);
 */
export async function passkeyUserInfo(
	ctx: RequestContext,
	provider: WebAuthnConfig,
	email: string | undefined,
	signedInUser: AdapterUser | null
): Promise<PasskeyUserInfo | null> {
	const hook = provider.getUserInfo ?? defaultPasskeyUserInfo;
	const params: PasskeyUserInfoParams = { provider, email, signedInUser, adapter: ctx.config.adapter! };
	let info: PasskeyUserInfo | null;
	try {
		info = await hook(params, ctx.request);
	} catch (error) {
		if (error instanceof AuthError) throw error;
		throw new CallbackRouteError(`getUserInfo() of provider "${provider.id}" threw.`, { cause: { err: error } });
	}
	if (info === null || info === undefined) return null;
	const user = info?.user;
	if (!user || typeof user !== 'object' || typeof info.exists !== 'boolean' || (info.exists && typeof user.id !== 'string')) {
		throw new InvalidConfiguration(
			`getUserInfo() of provider "${provider.id}" must return null or { user: { id?, email, name? }, exists: boolean } (an existing user needs its id).`
		);
	}
	return info;
}

/**
 * The WebAuthn user handle of a user id: its UTF-8 bytes, or their SHA-256 when longer than
 * WebAuthn's 64 bytes.
 *
 * @example userHandleOf('user-1') // Uint8Array of 'user-1'
 */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
	const bytes = new TextEncoder().encode(userId);
	return bytes.byteLength <= MAX_USER_HANDLE_BYTES ? bytes : new Uint8Array(digest('sha256', bytes));
}
