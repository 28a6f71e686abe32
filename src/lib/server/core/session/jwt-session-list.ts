// Which JWT sessions a user has, so the account page can list them and end one. Each JWT session
// carries a random id (claim `kitgate.sid`). With `account.listJwtSessions` on, a sign-in records a
// row for it in the adapter's sessions table — token `jwt:<id>`, which is never read as a database
// session — and its re-issues move the row's expiry (its "last seen"). Ending one session revokes
// its id in the revocation store; signing out revokes the id too (best effort), so a copied cookie
// dies with it.

import { randomToken } from '../crypto/random.js';
import { hasAdapterMethod } from '../store/adapter-guard.js';
import type { RequestContext } from '../request/context.js';
import { AdapterError } from '../errors.js';
import type { AdapterSession, JWT } from '../types.js';

/** The claim a JWT session's id is kept in; the `jwt` callback cannot change it. */
export const SESSION_ID_CLAIM = 'kitgate.sid';

/**
 * The claim naming the stored user of a credentials JWT session whose `sub` is authorize()'s own
 * id: revocations of that user (`revokeSessions`, end-other-sessions) reach it. kitgate's, like the id.
 */
export const OWNER_CLAIM = 'kitgate.user';

/**
 * The stored user a JWT session's revocations are keyed by, when it is not `sub`. Pure.
 *
 * @example
 * ownerOf({ sub: 'member-7', 'kitgate.user': 'u1' }); // 'u1'
 */
export function ownerOf(token: JWT): string | undefined {
	const owner = token[OWNER_CLAIM];
	return typeof owner === 'string' && owner !== '' && owner !== token.sub ? owner : undefined;
}

/** Row tokens of JWT sessions start with this; a database-session cookie never does. */
const ROW_PREFIX = 'jwt:';

/** Revocation-store keys of single sessions: distinct from user ids, which carry no such prefix. */
const REVOCATION_PREFIX = 'kitgate.sid:';

/** Seconds a revocation outlives the JWT lifetime (the decoder's clock tolerance and then some). */
const KEEP_MARGIN_SECONDS = 60;

/** What the functions that need no request read: the resolved config and the time. */
type ConfigAndClock = Pick<RequestContext, 'config' | 'now'>;

/** Longest `User-Agent` a row keeps. */
const MAX_USER_AGENT_LENGTH = 512;

/**
 * A new session id: 128 random bits, base64url.
 *
 * @example
 * token[SESSION_ID_CLAIM] = newSessionId();
 */
export function newSessionId(): string {
	return randomToken(16, 'base64url');
}

/**
 * The id of the JWT session `token`, or undefined (a token from before ids, an Auth.js one). Pure.
 *
 * @example
 * sessionIdOf({ 'kitgate.sid': 'k3…' }); // 'k3…'
 */
export function sessionIdOf(token: JWT): string | undefined {
	const id = token[SESSION_ID_CLAIM];
	return typeof id === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(id) ? id : undefined;
}

/**
 * The sessions-table token of the JWT session `id`. Pure.
 *
 * @example
 * rowToken('k3…'); // 'jwt:k3…'
 */
export function rowToken(id: string): string {
	return `${ROW_PREFIX}${id}`;
}

/**
 * True when `sessionToken` is a JWT session's row, not a database session. Pure.
 *
 * @example
 * isJwtSessionRow('jwt:k3…'); // true
 */
export function isJwtSessionRow(sessionToken: string): boolean {
	return sessionToken.startsWith(ROW_PREFIX);
}

/** The session id a row token names. Pure. */
function idOfRow(sessionToken: string): string {
	return sessionToken.slice(ROW_PREFIX.length);
}

/**
 * Records the new JWT session `token` of stored user `userId`, expiring at `expires` (ms). A failed
 * write is logged and the sign-in goes on: the session works, it is only missing from the list.
 *
 * @example
 * await recordJwtSession(ctx, token, user.id, expires);
 */
export async function recordJwtSession(ctx: RequestContext, token: JWT, userId: string | undefined, expires: number): Promise<void> {
	const id = sessionIdOf(token);
	if (!ctx.config.account.listJwtSessions || !id || !userId) return;
	const userAgent = ctx.headers.get('user-agent');
	try {
		await ctx.config.adapter!.createSession({
			sessionToken: rowToken(id),
			userId,
			expires: new Date(expires),
			createdAt: new Date(ctx.now),
			userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT_LENGTH) : null
		});
	} catch (error) {
		ctx.config.logger.error(new AdapterError('Recording a JWT session in the sessions table failed; the session works but is not listed.', { cause: { err: error } }));
	}
}

/**
 * Moves the row of the re-issued JWT session `token` to its new expiry (ms): the list shows when it
 * was last seen. Failures are logged only.
 *
 * @example
 * await touchJwtSession(ctx, token, expires);
 */
export async function touchJwtSession(ctx: RequestContext, token: JWT, expires: number): Promise<void> {
	const id = sessionIdOf(token);
	const adapter = ctx.config.adapter;
	if (!ctx.config.account.listJwtSessions || !id || !adapter || !hasAdapterMethod(adapter, 'updateSession')) return;
	try {
		await adapter.updateSession({ sessionToken: rowToken(id), expires: new Date(expires) });
	} catch (error) {
		ctx.config.logger.error(new AdapterError('Updating a JWT session row failed.', { cause: { err: error } }));
	}
}

/**
 * The JWT sessions of `userId` the sessions table lists (expired ones left out).
 *
 * @example
 * const rows = await listJwtSessions(ctx, user.id);
 */
export async function listJwtSessions(ctx: ConfigAndClock, userId: string): Promise<AdapterSession[]> {
	if (!ctx.config.account.listJwtSessions) return [];
	const rows = await ctx.config.adapter!.listSessionsByUserId(userId);
	return rows.filter((row) => isJwtSessionRow(row.sessionToken) && new Date(row.expires).getTime() > ctx.now);
}

/**
 * Ends the JWT session `id` wherever its cookie is (the account page's "end this session"): the id
 * is revoked, so every token carrying it fails its next check, and its row is deleted.
 *
 * @example
 * await endJwtSession(ctx, 'k3…', user.id);
 */
export async function endJwtSession(ctx: RequestContext, id: string, owner: string): Promise<void> {
	// any token with this id predates this time: none is issued once the record exists (a re-issue checks first)
	const at = ctx.now + KEEP_MARGIN_SECONDS * 1000;
	await ctx.config.revocation.store.revoke(sessionIdRevocationKey(id), at, ctx.config.jwt.maxAge + 2 * KEEP_MARGIN_SECONDS, { owner });
	await forgetJwtSessionRow(ctx, id);
}

/**
 * Signs the JWT session `token` out (this browser signed out, or signed in again over it): its id is
 * revoked as a best-effort record a bounded store may drop first when full — so a flood of
 * sign-outs never pushes out a revocation someone asked for — and its row is deleted. Copies of the
 * cookie stop working on their next check. Failures are logged only: the cookie is cleared anyway.
 *
 * @example
 * await signOutJwtSession(ctx, token);
 */
export async function signOutJwtSession(ctx: RequestContext, token: JWT): Promise<void> {
	const id = sessionIdOf(token);
	if (!id) return;
	try {
		const at = ctx.now + KEEP_MARGIN_SECONDS * 1000;
		// kept apart per user: a bounded store drops the records of whoever signs out the most first
		const owner = ownerOf(token) ?? (typeof token.sub === 'string' ? token.sub : id);
		await ctx.config.revocation.store.revoke(sessionIdRevocationKey(id), at, ctx.config.jwt.maxAge + 2 * KEEP_MARGIN_SECONDS, { evictable: true, owner });
	} catch (error) {
		ctx.config.logger.error(new AdapterError('Revoking a signed-out JWT session failed; its cookie was cleared.', { cause: { err: error } }));
	}
	await forgetJwtSessionRow(ctx, id);
}

/** Deletes the row of the JWT session `id`; failures are logged only. */
async function forgetJwtSessionRow(ctx: RequestContext, id: string): Promise<void> {
	const adapter = ctx.config.adapter;
	if (!ctx.config.account.listJwtSessions || !adapter) return;
	await Promise.resolve(adapter.deleteSession(rowToken(id))).catch((error: unknown) => {
		ctx.config.logger.error(new AdapterError('Deleting a JWT session row failed.', { cause: { err: error } }));
	});
}

/**
 * Deletes the rows of `userId`'s JWT sessions except `keepId`'s (after every other session was
 * revoked at once). Failures are logged only: the sessions are revoked either way.
 *
 * @example
 * await forgetOtherJwtSessions(ctx, user.id, sessionIdOf(token));
 */
export async function forgetOtherJwtSessions(ctx: ConfigAndClock, userId: string, keepId: string | undefined): Promise<AdapterSession[]> {
	if (!ctx.config.account.listJwtSessions) return [];
	const adapter = ctx.config.adapter!;
	const ended: AdapterSession[] = [];
	try {
		for (const row of await listJwtSessions(ctx, userId)) {
			if (keepId !== undefined && row.sessionToken === rowToken(keepId)) continue;
			const deleted = await adapter.deleteSessionOfUser(userId, row.sessionToken);
			if (deleted) ended.push(deleted);
		}
	} catch (error) {
		ctx.config.logger.error(new AdapterError('Deleting JWT session rows failed; the sessions are revoked anyway.', { cause: { err: error } }));
	}
	return ended;
}

/**
 * The revocation-store key of the single session `id` (never a user id). Pure.
 *
 * @example
 * store.revokedAt(sessionIdRevocationKey(id), now);
 */
export function sessionIdRevocationKey(id: string): string {
	return REVOCATION_PREFIX + id;
}

/**
 * The session id of a JWT-session row token, for revoking the session the row stands for. Pure.
 *
 * @example
 * sessionIdOfRow('jwt:k3…'); // 'k3…'
 */
export function sessionIdOfRow(sessionToken: string): string | undefined {
	return isJwtSessionRow(sessionToken) ? idOfRow(sessionToken) : undefined;
}
