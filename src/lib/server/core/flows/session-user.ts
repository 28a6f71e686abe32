// The stored user a decoded JWT session names (a database session names its user itself): by
// kitgate's record of the session's subject, a credentials session through the credentials
// mapping. Apart from the sign-in flows so that session checks (the admin's kept session during an
// impersonation) and the account routes read it without the flows.

import type { GuardedAdapter } from '../store/adapter-guard.js';
import { readSubject } from '../session/session-subject.js';
import { findCredentialsUser } from './credentials/credentials-user.js';
import type { AdapterAccount, AdapterUser, JWT } from '../types.js';

/** The signed-in user, and the credentials account to link when it was found by a credentials session's id. */
export interface SignedInSession {
	user: AdapterUser;
	pin?: AdapterAccount;
}

/**
 * The stored user a decoded JWT session names, by the rule of `signedInUser` (its `sub` is taken as
 * a stored user's id only when kitgate recorded so; a credentials session's through the
 * credentials mapping), or null. For code that reads the token itself (account routes).
 *
 * @example
 * const user = stored.strategy === 'jwt' ? await userOfSessionToken(adapter, stored.token) : stored.user;
 */
export async function userOfSessionToken(adapter: GuardedAdapter, token: JWT): Promise<AdapterUser | null> {
	return (await signedInSessionOfToken(adapter, token))?.user ?? null;
}

/** `userOfSessionToken`, with the credentials account to link when the user was found by a credentials session's id. */
export async function signedInSessionOfToken(adapter: GuardedAdapter, token: JWT): Promise<SignedInSession | null> {
	if (typeof token.sub !== 'string' || !token.sub) return null;
	const subject = readSubject(token);
	if (subject === 'user') {
		const user = await adapter.getUser(token.sub);
		return user && { user };
	}
	if (subject) {
		// the address authorize() returned at sign-in, never the token's `email` (a jwt callback may merge update data into it)
		const email = 'email' in subject ? subject.email : token.email;
		const found = await findCredentialsUser(adapter, subject.credentials, { id: token.sub, email });
		if (found.kind === 'none') return null;
		if (found.kind === 'linked') return { user: found.user };
		const pin: AdapterAccount = { provider: subject.credentials, type: 'credentials', providerAccountId: token.sub, userId: found.user.id };
		return { user: found.user, pin };
	}
	// no record (an older kitgate's token, or an adopted Auth.js one): `sub` may be authorize()'s id
	const user = await adapter.getUser(token.sub);
	const address = (value: string | null | undefined) => (value ? value.toLowerCase() : '');
	return user && address(user.email) !== '' && address(user.email) === address(token.email) ? { user } : null;
}

