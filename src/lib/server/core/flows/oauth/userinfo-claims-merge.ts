// What userinfo may add to an ID token's claims when the ID token lacks the user's profile
// (OIDC Core 5.4 lets the code flow leave it to userinfo). Pure; the request is oauth-userinfo.ts's.

import type { Profile } from '../../types.js';

/** Claims about the token itself, never taken from userinfo. */
const ID_TOKEN_ONLY = new Set(['iss', 'sub', 'aud', 'exp', 'iat', 'nbf', 'nonce', 'auth_time', 'acr', 'amr', 'azp', 'at_hash', 'c_hash', 's_hash', 'sid', 'jti']);

/** Claims whose truth is told by another one: taken from userinfo only together with it. */
const VERIFIED_BY: Record<string, string> = { email_verified: 'email', phone_number_verified: 'phone_number' };

/** Names that would reach an object's prototype if assigned. */
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The ID token's claims plus the claims of `userinfo` they lack. The ID token's own claims (its
 * `sub` among them) are never replaced; `email_verified` comes from userinfo only with the
 * `email` it vouches for (likewise `phone_number_verified`). Pure.
 *
 * @example
 * mergeUserinfoClaims({ sub: '1', iss }, { sub: '1', name: 'Ada', email: 'ada@example.com', email_verified: true });
 * // { sub: '1', iss, name: 'Ada', email: 'ada@example.com', email_verified: true }
 */
export function mergeUserinfoClaims(idClaims: Profile, userinfo: Profile): Profile {
	const merged: Profile = { ...idClaims };
	const given = (value: unknown) => value !== undefined && value !== null && value !== '';
	const has = (claims: Profile, name: string) => Object.hasOwn(claims, name) && given(claims[name]);
	for (const [name, value] of Object.entries(userinfo)) {
		if (ID_TOKEN_ONLY.has(name) || PROTOTYPE_NAMES.has(name) || has(idClaims, name)) continue;
		if (Object.hasOwn(VERIFIED_BY, name)) continue;
		merged[name] = value;
	}
	for (const [flag, claim] of Object.entries(VERIFIED_BY)) {
		// an address from userinfo carries userinfo's word on it, or none: never the ID token's word on another address
		if (has(idClaims, claim) || !has(userinfo, claim)) continue;
		if (userinfo[flag] !== undefined) merged[flag] = userinfo[flag];
		// userinfo silent: the ID token's "not verified" stands (it refutes any address); its "verified" was about none
		else if (merged[flag] !== false && merged[flag] !== 'false') delete merged[flag];
	}
	return merged;
}
