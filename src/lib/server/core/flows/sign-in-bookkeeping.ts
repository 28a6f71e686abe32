// What kitgate notes about a user for admins as sign-ins happen: when it created the user and when
// they last completed a sign-in (the admin record, docs/admin.md). Never blocks a sign-in.

import { hasAdapterMethod } from '../store/adapter-guard.js';
import { AdapterError } from '../errors.js';
import type { RequestContext } from '../request/context.js';
import type { AdapterUserAdmin } from '../types.js';

/**
 * Records that kitgate created `userId` now, when the adapter keeps admin records. A failure is
 * logged: the sign-up goes on.
 *
 * @example
 * await recordUserCreated(ctx, created.id);
 */
export function recordUserCreated(ctx: RequestContext, userId: string): Promise<void> {
	return writeAdminRecord(ctx, { userId, createdAt: new Date(ctx.now) });
}

/**
 * Records that `userId` completed a sign-in now (one upsert), when the adapter keeps admin
 * records. A failure is logged: the sign-in goes on.
 *
 * @example
 * await recordSignIn(ctx, user.id);
 */
export function recordSignIn(ctx: RequestContext, userId: string): Promise<void> {
	return writeAdminRecord(ctx, { userId, lastSignInAt: new Date(ctx.now) });
}

async function writeAdminRecord(ctx: RequestContext, fields: Partial<AdapterUserAdmin> & Pick<AdapterUserAdmin, 'userId'>): Promise<void> {
	const adapter = ctx.config.adapter;
	if (!adapter || !hasAdapterMethod(adapter, 'setUserAdmin')) return;
	try {
		await adapter.setUserAdmin(fields);
	} catch (error) {
		ctx.config.logger.error(new AdapterError(`Could not note ${Object.keys(fields).filter((key) => key !== 'userId').join(', ')} of user ${fields.userId}.`, { cause: { err: error } }));
	}
}
