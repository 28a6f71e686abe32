// The audit trail of impersonation: a row (and the `adminAction` event) for every request of an
// impersonated session that changes something, written by the integrations, and for its stop.

import { resolveConfig } from '../config/resolve-config.js';
import { AdapterError, EventError } from '../errors.js';
import { createSessionContext, type RequestContext, type RequestOptions, type SessionRequest } from '../request/context.js';
import { hasAdapterMethod } from '../store/adapter-guard.js';
import { readStoredSession, type StoredSession } from '../session/session.js';
import type { AuthConfig } from '../types.js';
import { hasAdminSessionCookie } from './impersonation-cookie.js';

/** Longest request path an audit row keeps: a hostile path (up to the server's header limit) cannot bloat every row. */
const MAX_AUDITED_PATH_LENGTH = 512;

/** One admin action to record: who, whom, what, details (no secrets). */
export interface ImpersonationAuditRow {
	actorId: string;
	subjectId: string | null;
	action: string;
	detail: Record<string, unknown> | null;
}

/**
 * Appends `row` to the audit trail (when the adapter keeps one) and fires `events.adminAction`
 * with `impersonated: true`. Failures are logged, never thrown: the request itself goes on.
 *
 * @example
 * await recordImpersonationAudit(ctx, { actorId: admin.id, subjectId: user.id, action: 'stop-impersonating', detail: null });
 */
export async function recordImpersonationAudit(ctx: RequestContext, row: ImpersonationAuditRow): Promise<void> {
	const adapter = ctx.config.adapter;
	const detail = row.detail ? JSON.stringify(row.detail) : null;
	if (adapter && hasAdapterMethod(adapter, 'createAuditEntry')) {
		try {
			await adapter.createAuditEntry({ id: crypto.randomUUID(), at: new Date(ctx.now), actorId: row.actorId, subjectId: row.subjectId, action: row.action, detail });
		} catch (error) {
			ctx.config.logger.error(new AdapterError(`Could not write the audit row "${row.action}" of admin ${row.actorId}.`, { cause: { err: error } }));
		}
	}
	// the event type is the admin routes' (EventCallbacks.adminAction); called only when the app set one
	const adminAction = (ctx.config.events as Record<string, unknown>).adminAction;
	if (typeof adminAction !== 'function') return;
	try {
		await adminAction({ action: row.action, actorId: row.actorId, subjectId: row.subjectId, detail: row.detail, impersonated: true });
	} catch (error) {
		ctx.config.logger.error(new EventError('The adminAction event handler threw.', { cause: { err: error } }));
	}
}

/** The stored user id of a stored session: the JWT's `sub`, or the database session's user. */
function subjectOf(stored: StoredSession): string | null {
	if (stored.strategy === 'database') return stored.user.id;
	return typeof stored.token.sub === 'string' ? stored.token.sub : null;
}

/**
 * For the integrations: when `request` changes something (not GET or HEAD) and carries a valid
 * impersonated session, writes the audit row `impersonated:request` (actor: the admin; subject:
 * the user; detail: method and path) and fires `events.adminAction`. A request without the kept
 * admin-session cookie costs nothing (no impersonation can be valid without it). Never throws.
 *
 * @example
 * await auditImpersonatedRequest(request, config); // in a handle / middleware, before the app runs
 */
export async function auditImpersonatedRequest(request: (Request | SessionRequest) & { method: string }, config: AuthConfig, options: RequestOptions = {}): Promise<void> {
	const method = request.method.toUpperCase();
	if (method === 'GET' || method === 'HEAD') return;
	// the common case, a request of no impersonation: not even the cookies are parsed
	if (!request.headers.get('cookie')?.includes('kitgate.admin-session')) return;
	let ctx: RequestContext;
	try {
		ctx = createSessionContext(request, resolveConfig(config), options);
	} catch {
		return;
	}
	if (!hasAdminSessionCookie(ctx)) return;
	try {
		const stored = await readStoredSession(ctx);
		if (!stored?.impersonation) return;
		await recordImpersonationAudit(ctx, {
			actorId: stored.impersonation.admin.id,
			subjectId: subjectOf(stored),
			action: 'impersonated:request',
			detail: { method, path: ctx.url.pathname.slice(0, MAX_AUDITED_PATH_LENGTH) }
		});
	} catch (error) {
		ctx.config.logger.error(new AdapterError('Could not audit an impersonated request.', { cause: { err: error } }));
	}
}
