// Who starts an OAuth sign-in while signed in: a new account from it joins that user (security.md
// row N1). OAuth 2 and 1.0a seal the id into their check cookie, so only this browser can use it.

import { signedInUser } from '../../complete-sign-in.js';
import type { RequestContext } from '../../context.js';

/**
 * The id of the stored user signed in on this request, if any: a flow it starts may connect a new
 * account to it. A session that cannot be read gives undefined (the sign-in goes on as a plain one).
 *
 * @example
 * await sealCheckCookie(ctx, option, provider.id, { value, user: await signedInUserId(ctx) });
 */
export async function signedInUserId(ctx: RequestContext): Promise<string | undefined> {
	const adapter = ctx.config.adapter;
	if (!adapter) return undefined;
	try {
		return (await signedInUser(ctx, adapter))?.id;
	} catch {
		return undefined;
	}
}
