// Who connects a new account to themselves with an OAuth sign-in: only the signed-in user who asked
// for it through the account routes' explicit link (`POST {basePath}/account/link`, CSRF-checked,
// with a recent sign-in). OAuth 2 and 1.0a seal the id into their check cookie, so only this
// browser can use it, and the callback links only while that user is still signed in there
// (security.md, rows N1 and N2). A plain sign-in started while signed in connects nothing.

import type { RequestContext } from '../../request/context.js';
import { linkIntentOf } from '../../account/link-intent.js';

/**
 * The id of the user who started this flow as an explicit link of a new account, if it is one.
 *
 * @example
 * await sealCheckCookie(ctx, option, provider.id, { value, user: await signedInUserId(ctx) });
 */
export async function signedInUserId(ctx: RequestContext): Promise<string | undefined> {
	return linkIntentOf(ctx);
}
