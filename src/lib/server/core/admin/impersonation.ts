// PLACEHOLDER of the engine branch, replaced at merge by the enforce branch's impersonation
// module: it only lets the admin routes compile and answer `UnknownAction` until then.

import type { RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { UnknownAction } from '../errors.js';
import type { AdapterUser } from '../types.js';

/**
 * Starts impersonating `target` as `admin` (placeholder: not implemented on this branch).
 *
 * @example
 * await startImpersonation(ctx, admin, target);
 */
export async function startImpersonation(_ctx: RequestContext, _admin: AdapterUser, _target: AdapterUser): Promise<void> {
	throw new UnknownAction('Impersonation is not available in this build.');
}

/**
 * Ends the request's impersonation (placeholder: not implemented on this branch).
 *
 * @example
 * await stopImpersonation(ctx, body);
 */
export async function stopImpersonation(_ctx: RequestContext, _body: RequestBody): Promise<void> {
	throw new UnknownAction('Impersonation is not available in this build.');
}
