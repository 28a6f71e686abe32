// Runs the user's `signIn` callback with the spec's rules: true continues, false or a throw is
// `AccessDenied` (carrying the original message), a string redirects there.

import type { RequestContext } from '../request/context.js';
import { AccessDenied } from '../errors.js';
import type { CallbacksOptions } from '../types.js';

/** `{ redirect }` when the callback asked to go elsewhere; `undefined` to continue. Throws `AccessDenied`. */
export async function checkSignInAllowed(
	ctx: RequestContext,
	params: Parameters<CallbacksOptions['signIn']>[0]
): Promise<{ redirect: string } | undefined> {
	let allowed: boolean | string;
	try {
		allowed = await ctx.config.callbacks.signIn(params);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		throw new AccessDenied(message || 'The signIn callback threw.', { cause: { err: error } });
	}
	if (typeof allowed === 'string') return { redirect: new URL(allowed, ctx.baseUrl).href };
	if (allowed !== true) throw new AccessDenied('The signIn callback returned false.');
	return undefined;
}
