// The explicit "connect another provider" request of a signed-in user, for the request that starts
// it: the OAuth flows seal its user id into their check cookie (connecting-user.ts), so the
// callback links a new account to that user only in the browser that started it, and only when
// the same user is still signed in there (linking-policy.ts, row N1).

import type { RequestContext } from '../request/context.js';

const intents = new WeakMap<RequestContext, string>();

/**
 * Marks the request as an explicit link started by `userId` (the account route's link, after it
 * checked the CSRF token, the session and a recent sign-in).
 *
 * @example
 * markLinkIntent(ctx, session.user.id);
 */
export function markLinkIntent(ctx: RequestContext, userId: string): void {
	intents.set(ctx, userId);
}

/**
 * The user who asked this request to link a provider account, if it is such a request.
 *
 * @example
 * linkIntentOf(ctx); // 'user-1' during POST /auth/account/link, else undefined
 */
export function linkIntentOf(ctx: RequestContext): string | undefined {
	return intents.get(ctx);
}
