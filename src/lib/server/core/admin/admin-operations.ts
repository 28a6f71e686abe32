// The admin operations, one place for the routes and `adminApi`: each checks that its target
// exists (`UserNotFound`) and that the admin-on-admin rule lets the actor act on them
// (`AdminTargetForbidden`), makes the change, then writes its audit row and fires `adminAction`.
// Whether the actor is an admin is checked by the caller, before anything is read.

import { emitEvent } from '../config/events.js';
import type { RequestContext } from '../request/context.js';
import { InvalidConfiguration, InvalidRequest, TwoFactorNotEnabled, UserExists, UserNotFound } from '../errors.js';
import { normalizeEmailIdentifier } from '../flows/email/email-identifier.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import { assertAdapterMethods } from '../store/adapter-guard.js';
import { endJwtSession, forgetOtherJwtSessions, sessionIdOfRow } from '../session/jwt-session-list.js';
import { revokeUserSessions, userRevocationTime } from '../session/revocation.js';
import { endBrowserTrust } from '../two-factor/trusted-browser.js';
import { publicSessionId } from '../account/account-session.js';
import { sendSecurityNotice } from '../account/security-notice.js';
import type { Adapter, AdapterUser, AdapterUserAdmin } from '../types.js';
import { requireMayActOn } from './admin-authorization.js';
import { isBanned } from '../session/ban.js';
import { auditTrailOf, recordAdminAction } from './admin-audit.js';
import type { AdminAuditEntry, AdminOperation, AdminUserDetail, AdminUserList } from '../admin-types.js';
import { listedSessionsOf, userDetail, userSummary } from './user-views.js';

/** One admin call: the request (or the script's stand-in), and who acts (null: a server script). */
export interface AdminCall {
	ctx: RequestContext;
	actor: AdapterUser | null;
}

/**
 * A page of the admin list as `adminApi(…).listUsers()` returns it: without what only a browser's
 * page needs (CSRF token, base path, viewer).
 *
 * @example
 * const { users, total }: AdminUserListData = await adminApi(config, { system: true }).listUsers();
 */
export type AdminUserListData = Omit<AdminUserList, 'csrfToken' | 'basePath' | 'viewer'>;
/**
 * One user's detail as `adminApi(…).getUser()` returns it: without what only a browser's page
 * needs (CSRF token, base path, viewer).
 *
 * @example
 * const { sessions, audit }: AdminUserDetailData = await adminApi(config, { system: true }).getUser(userId);
 */
export type AdminUserDetailData = Omit<AdminUserDetail, 'csrfToken' | 'basePath' | 'viewer'>;

/** Longest search, ban reason, role, user id and credential id taken. */
export const MAX_SEARCH_LENGTH = 200;
export const MAX_BAN_REASON_LENGTH = 500;
export const MAX_ROLE_LENGTH = 64;
const MAX_ID_LENGTH = 255;
const MAX_CREDENTIAL_ID_LENGTH = 1024;
const MAX_NAME_LENGTH = 200;
/** Highest page asked for (a bigger one is a typo or a probe). */
const MAX_PAGE = 1_000_000;
/** Longest ban in days when given as `days`. */
const MAX_BAN_DAYS = 36_500;

/**
 * Control characters and lone surrogates: PostgreSQL refuses a NUL in text, SQLite ends a string
 * at it (a search would match everyone), and a lone surrogate cannot be put in a URL.
 */
const UNSTORABLE = /[\p{Cc}\p{Cs}]/u;

/**
 * The id of a user as given by a caller: a string of 1 to 255 characters without control
 * characters or lone surrogates; `InvalidRequest` otherwise (an array, an object, a huge value). Pure.
 *
 * @example
 * userIdOf('user-1'); // 'user-1'
 */
export function userIdOf(value: unknown): string {
	if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH || UNSTORABLE.test(value)) {
		throw new InvalidRequest(`\`userId\` must be a user id (1 to ${MAX_ID_LENGTH} characters).`);
	}
	return value;
}

/**
 * A role as given: `null`/`''` for none, else 1 to 64 letters, digits, `_ . : -`. Pure.
 *
 * @example
 * roleOf('support'); // 'support'
 * roleOf(''); // null
 */
export function roleOf(value: unknown): string | null {
	if (value === null || value === undefined || value === '') return null;
	if (typeof value !== 'string' || value.length > MAX_ROLE_LENGTH || !/^[\p{L}\p{N}_.:-]+$/u.test(value)) {
		throw new InvalidRequest(`A role is 1 to ${MAX_ROLE_LENGTH} letters, digits or _ . : - (empty for none).`);
	}
	return value;
}

/**
 * A ban's reason: trimmed, at most 500 characters, no control characters but line breaks and
 * tabs; null when empty. Pure.
 *
 * @example
 * banReasonOf('  spam  '); // 'spam'
 */
export function banReasonOf(value: unknown): string | null {
	if (value === null || value === undefined) return null;
	if (typeof value !== 'string') throw new InvalidRequest('A ban reason is text.');
	const reason = value.normalize('NFC').trim();
	if ([...reason].length > MAX_BAN_REASON_LENGTH) throw new InvalidRequest(`A ban reason has at most ${MAX_BAN_REASON_LENGTH} characters.`);
	if (/[^\P{Cc}\n\r\t]|\p{Cs}/u.test(reason)) throw new InvalidRequest('A ban reason cannot contain control characters.');
	return reason || null;
}

/**
 * When a ban ends: `expires` (a Date, an ISO date or time) or `days` from `now`; null for a ban
 * without end. It must be in the future. Pure.
 *
 * @example
 * banExpiryOf({ days: 7 }, Date.UTC(2026, 0, 1)); // 2026-01-08T00:00:00.000Z
 */
export function banExpiryOf(input: { expires?: unknown; days?: unknown }, now: number): Date | null {
	const { expires, days } = input;
	const hasExpires = expires !== undefined && expires !== null && expires !== '';
	const hasDays = days !== undefined && days !== null && days !== '';
	if (hasExpires && hasDays) throw new InvalidRequest('Give a ban either `expires` or `days`, not both.');
	if (hasDays) {
		const count = typeof days === 'string' && /^\d{1,6}$/.test(days) ? Number(days) : days;
		if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_BAN_DAYS) {
			throw new InvalidRequest(`\`days\` is a whole number of days from 1 to ${MAX_BAN_DAYS}.`);
		}
		return new Date(now + count * 24 * 60 * 60 * 1000);
	}
	if (!hasExpires) return null;
	const time = expires instanceof Date ? expires.getTime() : typeof expires === 'string' && expires.length <= 40 ? Date.parse(expires) : Number.NaN;
	if (!Number.isFinite(time)) throw new InvalidRequest('`expires` is a date (ISO 8601, e.g. 2026-12-31 or 2026-12-31T18:00:00Z).');
	if (time <= now) throw new InvalidRequest('A ban must end in the future.');
	return new Date(time);
}

/** The stored user `userId` and their admin record; `UserNotFound` when there is none. */
async function targetOf(call: AdminCall, userId: unknown): Promise<{ user: AdapterUser; record: AdapterUserAdmin | null }> {
	const id = userIdOf(userId);
	const adapter = call.ctx.config.adapter!;
	const user = await adapter.getUser(id);
	if (!user) throw new UserNotFound('No user has this id.');
	return { user, record: await adapter.getUserAdmin(id) };
}

/** The target of a change: it exists, and the actor may act on it. */
async function changeableTarget(call: AdminCall, userId: unknown): Promise<{ user: AdapterUser; record: AdapterUserAdmin | null }> {
	const target = await targetOf(call, userId);
	await requireMayActOn(call.ctx, call.actor?.id ?? null, target.user, target.record);
	return target;
}

/**
 * Writes the user's admin record. A user deleted by another admin since the check (the adapter
 * refuses a record without its user) is `UserNotFound`, as if the deletion had come first.
 */
async function writeAdminRecord(call: AdminCall, changes: Parameters<Required<Adapter>['setUserAdmin']>[0]): Promise<void> {
	const adapter = call.ctx.config.adapter!;
	try {
		await adapter.setUserAdmin(changes);
	} catch (error) {
		if (!(await adapter.getUser(changes.userId))) throw new UserNotFound('No user has this id (deleted meanwhile).', { cause: error });
		throw error;
	}
}

/** Writes the audit row and fires the event of a change that went through. */
function audit(call: AdminCall, action: AdminOperation, subjectId: string, detail?: Record<string, unknown>) {
	return recordAdminAction(call.ctx, { action, actorId: call.actor?.id ?? null, subjectId, detail });
}

/**
 * One page of users (`search` matches a part of the email or name, or the exact id; `page` from 1).
 *
 * @example
 * const list = await listUsers(call, { search: 'ada', page: 1 });
 */
export async function listUsers(call: AdminCall, query: { search?: unknown; page?: unknown } = {}): Promise<AdminUserListData> {
	const { ctx } = call;
	const search = query.search === undefined || query.search === null ? '' : query.search;
	if (typeof search !== 'string' || search.length > MAX_SEARCH_LENGTH || UNSTORABLE.test(search)) {
		throw new InvalidRequest(`A search is text of at most ${MAX_SEARCH_LENGTH} characters.`);
	}
	const page = pageOf(query.page);
	const pageSize = ctx.config.admin!.pageSize;
	const trimmed = search.trim();
	const found = await ctx.config.adapter!.listUsers({ search: trimmed || undefined, limit: pageSize, offset: (page - 1) * pageSize });
	const users = await Promise.all(found.users.map((user) => userSummary(ctx, user)));
	return { users, total: found.total, page, pageSize, query: search };
}

function pageOf(value: unknown): number {
	if (value === undefined || value === null || value === '') return 1;
	const page = typeof value === 'string' && /^\d{1,7}$/.test(value) ? Number(value) : value;
	if (typeof page !== 'number' || !Number.isInteger(page) || page < 1 || page > MAX_PAGE) throw new InvalidRequest('`page` is a whole number from 1.');
	return page;
}

/**
 * One user's detail; `UserNotFound` when there is none.
 *
 * @example
 * const detail = await getUser(call, 'user-1');
 */
export async function getUser(call: AdminCall, userId: unknown): Promise<AdminUserDetailData> {
	const { user } = await targetOf(call, userId);
	return userDetail(call.ctx, user, call.actor);
}

/**
 * Creates a user with `email` (normalized as an email sign-in does: trimmed, lower case, one
 * address), an optional name and role. `UserExists` when a user has the address. Fires `createUser`.
 *
 * @example
 * const user = await createUser(call, { email: 'ada@example.com', name: 'Ada' });
 */
export async function createUser(call: AdminCall, input: { email?: unknown; name?: unknown; role?: unknown }): Promise<AdapterUser> {
	const { ctx } = call;
	const adapter = ctx.config.adapter!;
	const email = emailOf(input.email);
	const name = nameOf(input.name);
	const role = roleOf(input.role);
	if (await adapter.getUserByEmail(email)) throw new UserExists('A user already has this email address.');
	let created: AdapterUser;
	try {
		created = await adapter.createUser({ id: crypto.randomUUID(), email, name, image: null, emailVerified: null });
	} catch (error) {
		if (isUniqueViolation(error)) throw new UserExists('A user already has this email address.');
		throw error;
	}
	await adapter.setUserAdmin({ userId: created.id, createdAt: new Date(ctx.now), role });
	await emitEvent(ctx, 'createUser', { user: created });
	await audit(call, 'create-user', created.id, { email, role });
	return created;
}

function emailOf(value: unknown): string {
	if (typeof value !== 'string' || value.length > 320) throw new InvalidRequest('`email` is one email address.');
	try {
		return normalizeEmailIdentifier(value);
	} catch {
		throw new InvalidRequest('`email` is one email address.');
	}
}

function nameOf(value: unknown): string | null {
	if (value === undefined || value === null) return null;
	if (typeof value !== 'string') throw new InvalidRequest('`name` is text.');
	const name = value.normalize('NFC').replace(/\s+/g, ' ').trim();
	if ([...name].length > MAX_NAME_LENGTH || UNSTORABLE.test(name)) throw new InvalidRequest(`\`name\` has at most ${MAX_NAME_LENGTH} characters.`);
	return name || null;
}

/**
 * Sets the user's stored role (null for none). Under `admins: "role"` a role in `adminRoles`
 * makes the user an admin; from then on other admins cannot change them.
 *
 * @example
 * await setRole(call, 'user-1', 'support');
 */
export async function setRole(call: AdminCall, userId: unknown, role: unknown): Promise<void> {
	const next = roleOf(role);
	const { user, record } = await changeableTarget(call, userId);
	await writeAdminRecord(call, { userId: user.id, role: next });
	await audit(call, 'set-role', user.id, { role: next, previous: record?.role ?? null });
}

/**
 * Bans the user (`reason` for admins only, an optional end) and ends every session of theirs at
 * once: database sessions deleted, JWT sessions revoked, pending second steps void.
 *
 * @example
 * await ban(call, 'user-1', { reason: 'spam', days: 7 });
 */
export async function ban(call: AdminCall, userId: unknown, input: { reason?: unknown; expires?: unknown; days?: unknown } = {}): Promise<void> {
	const reason = banReasonOf(input.reason);
	const banExpires = banExpiryOf(input, call.ctx.now);
	const { user } = await changeableTarget(call, userId);
	await writeAdminRecord(call, { userId: user.id, bannedAt: new Date(call.ctx.now), banReason: reason, banExpires });
	await endEverySession(call.ctx, user.id);
	await audit(call, 'ban', user.id, { reason, expires: banExpires?.toISOString() ?? null });
}

/**
 * Lifts the user's ban (a user without one is left as is).
 *
 * @example
 * await unban(call, 'user-1');
 */
export async function unban(call: AdminCall, userId: unknown): Promise<void> {
	const { user, record } = await changeableTarget(call, userId);
	await writeAdminRecord(call, { userId: user.id, bannedAt: null, banReason: null, banExpires: null });
	await audit(call, 'unban', user.id, { wasBanned: isBanned(record, call.ctx.now) });
}

/**
 * Ends one listed session of the user (`sessionId` from the detail's `sessions`); another user's
 * session id looks exactly like a missing one (`InvalidRequest`).
 *
 * @example
 * await endSession(call, 'user-1', 'kY3…');
 */
export async function endSession(call: AdminCall, userId: unknown, sessionId: unknown): Promise<void> {
	if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > 64) throw new InvalidRequest('`sessionId` is the id of a listed session.');
	const { user } = await changeableTarget(call, userId);
	const { ctx } = call;
	const row = (await listedSessionsOf(ctx, user.id)).find((candidate) => publicSessionId(ctx, candidate.sessionToken) === sessionId);
	if (!row) throw new InvalidRequest('The user has no session with this id.');
	if (ctx.config.session.strategy === 'jwt') {
		const id = sessionIdOfRow(row.sessionToken);
		if (!id) throw new InvalidRequest('The user has no session with this id.');
		await endJwtSession(ctx, id, user.id);
	} else {
		const deleted = await ctx.config.adapter!.deleteSessionOfUser(user.id, row.sessionToken);
		if (!deleted) throw new InvalidRequest('The user has no session with this id.');
	}
	// the ended device may have been trusted to skip the second step: no browser of the user is any more
	await endBrowserTrust(ctx, user.id);
	await audit(call, 'end-session', user.id, { sessionId });
}

/**
 * Ends every session of the user at once (as `revokeSessions`).
 *
 * @example
 * await endSessions(call, 'user-1');
 */
export async function endSessions(call: AdminCall, userId: unknown): Promise<void> {
	const { user } = await changeableTarget(call, userId);
	await endEverySession(call.ctx, user.id);
	await audit(call, 'end-sessions', user.id);
}

/**
 * What `revokeSessions` does, on the resolved config of this call: database sessions deleted,
 * JWT sessions (and pending second steps, trusted browsers, copies of sessions) revoked as of now.
 */
async function endEverySession(ctx: RequestContext, userId: string): Promise<void> {
	if (ctx.config.session.strategy === 'database') {
		// asked of the store first: one that cannot answer stops this before a row is deleted
		const at = await userRevocationTime(ctx, userId);
		await ctx.config.adapter!.deleteSessionsByUserId(userId);
		await revokeUserSessions(ctx, userId, at);
		return;
	}
	await revokeUserSessions(ctx, userId);
	await forgetOtherJwtSessions(ctx, userId, undefined);
}

/**
 * Removes the user's second factor (a lost phone and lost recovery codes), ends every session of
 * theirs, and mails them the security notice an own removal sends. `TwoFactorNotEnabled` when
 * they have none. The user signs in with their first factor alone next time (and is asked to set
 * one up when `twoFactor.required` is on).
 *
 * @example
 * await resetTwoFactor(call, 'user-1');
 */
export async function resetTwoFactor(call: AdminCall, userId: unknown): Promise<void> {
	const { ctx } = call;
	const adapter = ctx.config.adapter!;
	assertAdapterMethods(adapter, ['getTwoFactor', 'deleteTwoFactor']);
	const { user } = await changeableTarget(call, userId);
	if (!(await adapter.getTwoFactor(user.id))) throw new TwoFactorNotEnabled('The user has no second factor.');
	await adapter.deleteTwoFactor(user.id);
	await endEverySession(ctx, user.id);
	await sendSecurityNotice(ctx, user.email, 'two-factor-removed');
	await emitEvent(ctx, 'twoFactor', { user, change: 'removed' });
	await audit(call, 'reset-two-factor', user.id);
}

/**
 * Removes one passkey of the user (its authenticator and its `webauthn` account) and mails them
 * the notice. Another user's passkey looks exactly like a missing one (`InvalidRequest`). An admin
 * may remove the user's last way in: helping a locked-out user is what this is for.
 *
 * @example
 * await removePasskey(call, 'user-1', credentialID);
 */
export async function removePasskey(call: AdminCall, userId: unknown, credentialID: unknown): Promise<void> {
	if (typeof credentialID !== 'string' || credentialID.length === 0 || credentialID.length > MAX_CREDENTIAL_ID_LENGTH || UNSTORABLE.test(credentialID)) {
		throw new InvalidRequest('`credentialID` is the id of one of the user\'s passkeys.');
	}
	const { ctx } = call;
	const adapter = ctx.config.adapter!;
	assertAdapterMethods(adapter, ['getAuthenticator', 'deleteAuthenticator', 'unlinkAccount']);
	const { user } = await changeableTarget(call, userId);
	const passkey = await adapter.getAuthenticator(credentialID);
	if (!passkey || passkey.userId !== user.id) throw new InvalidRequest('The user has no passkey with this credential ID.');
	const account = (await adapter.listAccountsByUserId(user.id)).find((a) => a.type === 'webauthn' && a.providerAccountId === passkey.providerAccountId);
	await adapter.deleteAuthenticator(credentialID);
	if (account) await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId });
	await sendSecurityNotice(ctx, user.email, 'passkey-removed');
	if (account) await emitEvent(ctx, 'unlinkAccount', { user, account });
	await audit(call, 'remove-passkey', user.id, { credentialID });
}

/**
 * Deletes the user and every row of theirs, ending every session first (as `deleteUser`). Their
 * audit trail stays. Fires `deleteUser`.
 *
 * @example
 * await deleteUser(call, 'user-1');
 */
export async function deleteUser(call: AdminCall, userId: unknown): Promise<void> {
	const { ctx } = call;
	const { user } = await changeableTarget(call, userId);
	// recorded before the user goes: JWT sessions and copies of database sessions end through it
	if (ctx.config.session.strategy === 'jwt' || ctx.config.sessionCache) await revokeUserSessions(ctx, user.id);
	const deleted = await ctx.config.adapter!.deleteUser(user.id);
	// null: another admin deleted the user since the check (an adapter answering nothing is taken at its word)
	if (deleted === null) throw new UserNotFound('No user has this id (deleted meanwhile).');
	await emitEvent(ctx, 'deleteUser', { user: deleted || user });
	await audit(call, 'delete-user', user.id, { email: user.email || null });
}

/**
 * The audit trail of `userId` (as actor or subject), newest first; readable after the user is deleted.
 *
 * @example
 * const trail = await listAudit(call, 'user-1');
 */
export async function listAudit(call: AdminCall, userId: unknown): Promise<AdminAuditEntry[]> {
	return auditTrailOf(call.ctx, userIdOf(userId));
}

/**
 * The target of an impersonation: an existing user the actor may act on, not banned.
 *
 * @example
 * const target = await impersonationTarget(call, body.userId);
 */
export async function impersonationTarget(call: AdminCall, userId: unknown): Promise<AdapterUser> {
	if (call.actor === null) throw new InvalidConfiguration('Impersonation needs an admin with a session, not a script.');
	const { user, record } = await changeableTarget(call, userId);
	if (isBanned(record, call.ctx.now)) throw new InvalidRequest('A banned user cannot be impersonated.');
	return user;
}

/**
 * Writes the audit row of an impersonation that started (called by the route after it did).
 *
 * @example
 * await auditImpersonation(call, target.id);
 */
export function auditImpersonation(call: AdminCall, userId: string) {
	return audit(call, 'impersonate', userId, { maxAge: call.ctx.config.admin!.impersonationMaxAge });
}
