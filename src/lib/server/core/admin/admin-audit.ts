// The audit trail of admin changes: one adapter row per change that succeeded (who, whom, what,
// when, details without secrets), then the `adminAction` event. docs/admin.md, "Audit trail".

import { emitEvent } from '../config/events.js';
import { randomToken } from '../crypto/random.js';
import type { RequestContext } from '../request/context.js';
import type { AdapterAuditEntry } from '../types.js';
import type { AdminAuditEntry } from '../admin-types.js';

/** One admin change to record. */
export interface AdminActionRecord {
	/** The operation (`ban`, `set-role`, …) or `impersonated:<METHOD> <path>`. */
	action: string;
	/** The admin; null for a server script (`{ system: true }`). */
	actorId: string | null;
	/** The user acted on; null when none. */
	subjectId: string | null;
	/** What the row keeps beside the action: never a secret (no token, no code). */
	detail?: Record<string, unknown> | null;
	/** True for a change made by an impersonated session. */
	impersonated?: boolean;
}

/** Longest action name kept (an impersonated request's path is cut to fit). */
const MAX_ACTION_LENGTH = 300;

/**
 * Writes the audit row of a change that went through, then fires `events.adminAction`. Called
 * after the change: a change that failed leaves no row. Adapter failures are thrown (the change
 * happened; the caller's answer says the trail could not be written).
 *
 * @example
 * await recordAdminAction(ctx, { action: 'ban', actorId: admin.id, subjectId: user.id, detail: { reason } });
 */
export async function recordAdminAction(ctx: RequestContext, record: AdminActionRecord): Promise<AdapterAuditEntry> {
	const detail = record.detail && Object.keys(record.detail).length > 0 ? record.detail : null;
	const entry: AdapterAuditEntry = {
		id: randomToken(16, 'base64url'),
		at: new Date(ctx.now),
		actorId: record.actorId,
		subjectId: record.subjectId,
		action: record.action.slice(0, MAX_ACTION_LENGTH),
		detail: detail ? JSON.stringify(detail) : null
	};
	const stored = await ctx.config.adapter!.createAuditEntry(entry);
	await emitEvent(ctx, 'adminAction', {
		action: entry.action,
		actorId: entry.actorId,
		subjectId: entry.subjectId,
		detail,
		impersonated: record.impersonated === true
	});
	return stored ?? entry;
}

/** Most audit rows read for one user. */
export const AUDIT_LIMIT = 100;

/**
 * The audit rows of `userId` (as actor or subject), newest first, as admins read them: the
 * details parsed, actor and subject with their current address (null once deleted).
 *
 * @example
 * const trail = await auditTrailOf(ctx, user.id);
 */
export async function auditTrailOf(ctx: RequestContext, userId: string): Promise<AdminAuditEntry[]> {
	const adapter = ctx.config.adapter!;
	const rows = await adapter.listAuditEntries(userId, { limit: AUDIT_LIMIT });
	const ids = new Set(rows.flatMap((row) => [row.actorId, row.subjectId]).filter((id): id is string => typeof id === 'string'));
	const emails = new Map<string, string | null>();
	await Promise.all([...ids].map(async (id) => emails.set(id, (await adapter.getUser(id))?.email || null)));
	const party = (id: string | null) => (id === null ? null : { id, email: emails.get(id) ?? null });
	return rows.map((row) => ({
		id: row.id,
		at: new Date(row.at).toISOString(),
		action: row.action,
		actor: party(row.actorId),
		subject: party(row.subjectId),
		detail: parseDetail(row.detail)
	}));
}

function parseDetail(detail: string | null): Record<string, unknown> | null {
	if (!detail) return null;
	try {
		const parsed: unknown = JSON.parse(detail);
		return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
	} catch {
		return { text: detail };
	}
}
