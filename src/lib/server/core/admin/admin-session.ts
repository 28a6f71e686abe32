// The admin behind an admin route: the request's session read as the account routes read it, then
// refused when it is an impersonation, or when its user is not an admin now (read every time).

import type { RequestContext } from '../request/context.js';
import { ImpersonationForbidden, SessionRequired } from '../errors.js';
import { readAccountSession } from '../account/account-session.js';
import { getSession, type StoredSession } from '../session/session.js';
import type { AdapterUser } from '../types.js';
import { requireAdmin } from './admin-authorization.js';

/** Database sessions an admin started as another user carry tokens that begin so (docs/admin.md, "Impersonation"). */
const IMPERSONATION_TOKEN_PREFIX = 'imp.';

/**
 * True when the stored session is an impersonation by its token's mark (database sessions). Pure.
 *
 * @example
 * isImpersonationToken({ strategy: 'database', sessionToken: 'imp.3f…', user, expires }); // true
 */
export function isImpersonationToken(stored: StoredSession): boolean {
	return stored.strategy === 'database' && stored.sessionToken.startsWith(IMPERSONATION_TOKEN_PREFIX);
}

/**
 * The signed-in admin of this request. `SessionRequired` without a session,
 * `ImpersonationForbidden` for an impersonated session, `AdminRequired` for anyone who is not an
 * admin now. Reads nothing about any other user.
 *
 * @example
 * const admin = await requireAdminSession(ctx);
 */
export async function requireAdminSession(ctx: RequestContext): Promise<AdapterUser> {
	const session = await readAccountSession(ctx);
	if (!session) throw new SessionRequired('The admin routes need a signed-in admin.');
	if (isImpersonationToken(session.stored) || (await isImpersonatedSession(ctx))) {
		throw new ImpersonationForbidden('An impersonated session cannot use the admin routes (but stop-impersonating).');
	}
	return requireAdmin(ctx, session.user.id);
}

/** True when the session as the app sees it says it is an impersonation (`session.impersonation`). */
async function isImpersonatedSession(ctx: RequestContext): Promise<boolean> {
	const session = await getSession(ctx);
	return Boolean(session && typeof session === 'object' && 'impersonation' in session && session.impersonation);
}
