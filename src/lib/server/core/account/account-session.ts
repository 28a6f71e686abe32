// The signed-in user of an account route: the session read as every read does it (expiry,
// extension), its revocation always checked, the stored user and when they signed in.

import { base64url } from '../crypto/bytes.js';
import { hmac } from '../crypto/hash.js';
import type { RequestContext } from '../request/context.js';
import { userOfSessionToken } from '../flows/session-user.js';
import { FreshSignInRequired, SessionRequired } from '../errors.js';
import { revocationState } from '../session/revocation.js';
import { clearSessionCookie, readStoredSession, SIGN_IN_TIME_CLAIM, type StoredSession } from '../session/session.js';
import type { AdapterUser } from '../types.js';
import { isFreshSignIn } from './freshness.js';

/** The session of an account route and its user. */
export interface AccountSession {
	user: AdapterUser;
	stored: StoredSession;
	/** When the user signed in (ms), null when the session does not say. */
	signedInAt: number | null;
}

/**
 * The request's session and its stored user, or null. JWT sessions are checked against the
 * revocation store on every account request, whatever `session.revocationCheck` says; a session
 * whose user no longer exists is none.
 *
 * @example
 * const session = await readAccountSession(ctx);
 */
export async function readAccountSession(ctx: RequestContext): Promise<AccountSession | null> {
	const adapter = ctx.config.adapter!;
	const stored = await readStoredSession(ctx);
	if (!stored) return null;
	if (stored.strategy === 'database') {
		return { user: stored.user, stored, signedInAt: stored.createdAt ?? null };
	}
	const { token } = stored;
	if (typeof token.sub !== 'string' || !token.sub) return null;
	// a store that cannot answer is no proof the session still stands: refuse rather than act
	if ((await revocationState(ctx, token)) !== 'valid') {
		clearSessionCookie(ctx);
		return null;
	}
	// a JWT's `sub` may be a credentials provider's own id, not a stored user's (Auth.js keeps it so):
	// the same rule as every other decision about who is signed in
	const user = await userOfSessionToken(adapter, token);
	if (!user) return null;
	const claim = token[SIGN_IN_TIME_CLAIM];
	return { user, stored, signedInAt: typeof claim === 'number' && Number.isFinite(claim) ? claim * 1000 : null };
}

/**
 * The signed-in user's session; `SessionRequired` without one.
 *
 * @example
 * const session = await requireAccountSession(ctx);
 */
export async function requireAccountSession(ctx: RequestContext): Promise<AccountSession> {
	const session = await readAccountSession(ctx);
	if (!session) throw new SessionRequired('Managing an account needs a signed-in user.');
	return session;
}

/**
 * Throws `FreshSignInRequired` unless the session's sign-in is within `account.freshSignIn.maxAge`.
 *
 * @example
 * requireFreshSignIn(ctx, session, 'unlinking an account');
 */
export function requireFreshSignIn(ctx: RequestContext, session: AccountSession, what: string): void {
	if (isFreshSignIn(session.signedInAt, ctx.now, ctx.config.account.freshSignInMaxAge)) return;
	const when = session.signedInAt === null ? 'an unknown time' : new Date(session.signedInAt).toISOString();
	throw new FreshSignInRequired(
		`${what} needs a sign-in within the last ${ctx.config.account.freshSignInMaxAge} seconds; this session signed in at ${when}.`
	);
}

/**
 * Throws unless the request's session is `userId`'s and its sign-in is recent: what adding a way in
 * (a passkey) to an existing account needs, so a stolen session cannot add its thief's.
 *
 * @example
 * await requireFreshSignInOf(ctx, user.id, 'Adding a passkey to an account');
 */
export async function requireFreshSignInOf(ctx: RequestContext, userId: string, what: string): Promise<void> {
	const session = await readAccountSession(ctx);
	if (!session || session.user.id !== userId) throw new SessionRequired(`${what} needs its signed-in user.`);
	requireFreshSignIn(ctx, session, what);
}

/**
 * The public id of a database session: a keyed hash of its token (the token never leaves the
 * server), the same for every schema, whether or not its table has an id column.
 *
 * @example
 * publicSessionId(ctx, '3f8a…'); // 'kY3…' (22 characters)
 */
export function publicSessionId(ctx: RequestContext, sessionToken: string): string {
	return base64url(hmac('sha256', ctx.config.secrets[0], `kitgate session id\u0000${sessionToken}`)).slice(0, 22);
}
