// Whether a session row an adapter found is the row of the token asked for (an adapter's lookup
// may ignore case or match a prefix). Apart from session.ts for the checks that read other sessions.

/**
 * The row an adapter found for `sessionToken`, when it is that token's: an adapter whose lookup
 * ignores case or matches a prefix (a database collation) must not hand one session's row to
 * another token (`IMP.…` for an impersonation's `imp.…`, without its mark). Pure.
 *
 * @example
 * const found = foundForToken(await adapter.getSessionAndUser(raw), raw);
 */
export function foundForToken<T extends { session: { sessionToken?: string } }>(found: T | null | undefined, sessionToken: string): T | null {
	if (!found) return null;
	const stored = found.session.sessionToken;
	return stored === undefined || stored === sessionToken ? found : null;
}
