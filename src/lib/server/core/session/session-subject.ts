// What the `sub` of a JWT session names, recorded in the token by kitgate itself: a stored user's
// id (a sign-in that went through the adapter), or the id a Credentials provider's `authorize()`
// returned, which need not be any stored user's id (Auth.js keeps it as `sub`). Linking decisions
// read it (complete-sign-in.ts, `signedInUser`); nothing else does.

import type { Account, JWT } from '../types.js';

/** The JWT claim kitgate keeps the origin of `sub` in; the `jwt` callback cannot change it. */
export const SUBJECT_CLAIM = 'kitgate.subject';

/**
 * What a JWT session's `sub` is: `'user'`, the id of a stored user; `{ credentials, email }`, the
 * id the `authorize()` of that Credentials provider returned (mapped to a stored user by its
 * `credentials` account, see flows/credentials/stored-user.ts), with the address it returned: the
 * mapping reads that address, never the token's `email`, which a `jwt` callback may change.
 */
export type SessionSubject = 'user' | { credentials: string; email?: string | null };

/**
 * The subject of a session a sign-in starts: credentials sign-ins name `authorize()`'s id and the
 * address it returned (`email`), any other sign-in with an adapter names the stored user it
 * resolved; without an adapter `sub` is the provider's own id and names no stored user
 * (undefined). Pure.
 *
 * @example
 * subjectOfSignIn({ provider: 'credentials', type: 'credentials', providerAccountId: '1' }, true, 'ada@example.com'); // { credentials: 'credentials', email: 'ada@example.com' }
 */
export function subjectOfSignIn(account: Account | null, hasAdapter: boolean, email?: string | null): SessionSubject | undefined {
	if (account?.type === 'credentials') return { credentials: account.provider, email: email ?? null };
	return hasAdapter ? 'user' : undefined;
}

/**
 * The subject recorded in `token`, or undefined: a token kitgate wrote before it recorded one, an
 * adopted Auth.js token, or a malformed claim. Pure.
 *
 * @example
 * readSubject({ sub: '1', 'kitgate.subject': 'user' }); // 'user'
 */
export function readSubject(token: JWT): SessionSubject | undefined {
	const claim = token[SUBJECT_CLAIM];
	if (claim === 'user') return 'user';
	if (typeof claim === 'object' && claim !== null && typeof (claim as { credentials?: unknown }).credentials === 'string') {
		const { credentials, email } = claim as { credentials: string; email?: unknown };
		// a claim written before the address was recorded has none: the token's `email` stands in (tokenSession)
		return typeof email === 'string' || email === null ? { credentials, email } : { credentials };
	}
	return undefined;
}

/**
 * `token` with its subject claim set to `subject` (removed when undefined), whatever the `jwt`
 * callback did with it: the claim is kitgate's, not the app's. Returns `token` itself when it
 * already says so. Pure.
 *
 * @example
 * withSubject({ sub: '1' }, 'user'); // { sub: '1', 'kitgate.subject': 'user' }
 */
export function withSubject(token: JWT, subject: SessionSubject | undefined): JWT {
	const current = token[SUBJECT_CLAIM];
	if (subject === undefined) {
		if (!(SUBJECT_CLAIM in token)) return token;
		const { [SUBJECT_CLAIM]: _dropped, ...rest } = token;
		return rest;
	}
	if (sameSubject(current, subject)) return token;
	return { ...token, [SUBJECT_CLAIM]: subject };
}

/** True when the claim `current` says `subject` (the claim's two forms compared field by field). */
function sameSubject(current: unknown, subject: SessionSubject): boolean {
	if (subject === 'user') return current === 'user';
	if (typeof current !== 'object' || current === null) return false;
	const claim = current as { credentials?: unknown; email?: unknown };
	// exactly these own keys (counted, not sorted and joined: this runs on every session read)
	const keyCount = Object.keys(current).length;
	if (!isOwnKey(current, 'credentials') || claim.credentials !== subject.credentials) return false;
	if (!('email' in subject)) return keyCount === 1;
	return keyCount === 2 && isOwnKey(current, 'email') && claim.email === subject.email;
}

/** True when `key` is one of `Object.keys(object)` (an own enumerable property). */
function isOwnKey(object: object, key: string): boolean {
	return Object.prototype.propertyIsEnumerable.call(object, key);
}

/**
 * Sets (or removes) the subject claim of `token` itself, for a token kitgate made and no one else
 * holds; otherwise use `withSubject`.
 *
 * @example
 * setSubject(token, { credentials: 'credentials' });
 */
export function setSubject(token: JWT, subject: SessionSubject | undefined): JWT {
	if (subject === undefined) delete token[SUBJECT_CLAIM];
	else token[SUBJECT_CLAIM] = subject;
	return token;
}
