// Whose sign-in this is: the account-linking policy as one pure decision over facts read before
// anything is written. docs/security.md ("Account linking") is this function as a table.

/** A stored user, as far as the policy cares. */
export interface UserRef {
	id: string;
}

/** What arrived and what the store already knows, read before any write. */
export interface LinkingFacts {
	/** An email link (it proves its address) or an OAuth/OIDC identity. */
	arrival: 'email' | 'oauth';
	/** The user the arriving account (provider + account id) is already linked to. */
	owner: UserRef | null;
	/** The user of the request's valid session. */
	signedIn: UserRef | null;
	/**
	 * The user who was signed in when this OAuth flow started, carried in the flow's encrypted
	 * check cookie: the flow is then an explicit "connect this account" by that user, in that browser.
	 */
	linkRequestedBy?: string;
	/**
	 * The user whose `email` is the arriving address: whether it proved the address, and whether an
	 * unproven claim came from a sign-in (the user has OAuth or passkey accounts) rather than from
	 * the app itself (a user the app stored, e.g. an invitation).
	 */
	holder: (UserRef & { verified: boolean; claimedBySignIn: boolean }) | null;
	/** True when the arrival proves the address: an email link, or a provider the app trusts to verify addresses. */
	proven: boolean;
}

/** What the sign-in does; nothing is written before it is decided. */
export type LinkingDecision =
	/** The account is known: sign in as its user (the session switches users if need be). */
	| { kind: 'existing'; userId: string }
	/** Link the new account to this user and sign in as it. */
	| { kind: 'link'; userId: string; because: 'requested' | 'address' }
	/**
	 * A new user for the account. `verified`: its address is proven. `release`: the address is taken
	 * from a user a sign-in created without proving it (the proven owner never joins such a user).
	 */
	| { kind: 'create'; verified: boolean; release?: string }
	/** Refused: the account belongs to another user, or its address to a user it may not join. */
	| { kind: 'refuse'; reason: 'account-of-another-user' | 'address-in-use' };

/**
 * The linking decision for `facts`. Pure.
 *
 * - A known account signs in as its owner, except that a "connect" flow started by another
 *   signed-in user is refused (an account is never moved between users).
 * - A new OAuth account joins the signed-in user only when that user started the flow; an email
 *   link never joins the signed-in user.
 * - Otherwise a new account joins the user holding its address only when the arrival proves the
 *   address and the holder either proved it too or got it from the app (not from a sign-in).
 * - A proven arrival whose address an unproven sign-in claimed takes the address from that user.
 *
 * @example
 * decideLinking({ arrival: 'email', owner: null, signedIn: victim, holder: null, proven: true });
 * // { kind: 'create', verified: true } — never a link to the signed-in victim
 */
export function decideLinking(facts: LinkingFacts): LinkingDecision {
	const { arrival, owner, signedIn, linkRequestedBy, holder, proven } = facts;
	const requestedBySignedIn = arrival === 'oauth' && signedIn !== null && linkRequestedBy === signedIn.id;
	if (owner) {
		if (requestedBySignedIn && signedIn?.id !== owner.id) return { kind: 'refuse', reason: 'account-of-another-user' };
		return { kind: 'existing', userId: owner.id };
	}
	if (requestedBySignedIn) return { kind: 'link', userId: (signedIn as UserRef).id, because: 'requested' };
	if (!holder) return { kind: 'create', verified: proven };
	if (!proven) return { kind: 'refuse', reason: 'address-in-use' };
	if (holder.verified || !holder.claimedBySignIn) return { kind: 'link', userId: holder.id, because: 'address' };
	return { kind: 'create', verified: true, release: holder.id };
}

/**
 * True when a profile says its email address is NOT verified (`email_verified: false`, or the
 * string "false" some providers send). Pure.
 *
 * @example
 * isEmailRefuted({ email_verified: 'false' }); // true
 */
export function isEmailRefuted(profile: Record<string, unknown>): boolean {
	const claim = profile.email_verified;
	return claim === false || claim === 'false';
}
