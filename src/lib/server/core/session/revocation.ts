// Signing a user out everywhere: `revokeSessions(userId, config)` deletes database sessions, or
// records a revocation time that JWT sessions issued earlier fail when they are next checked.

import { isThenable } from '../util/awaitable.js';
import { assertAdapterMethods } from '../store/adapter-guard.js';
import { resolveConfig, type ResolvedConfig } from '../config/resolve-config.js';
import type { RequestContext } from '../request/context.js';
import { AdapterError, InvalidConfiguration, MissingAdapter } from '../errors.js';
import { forgetOtherJwtSessions, ownerOf, sessionIdOf, sessionIdRevocationKey } from './jwt-session-list.js';
import type { AuthConfig, JWT } from '../types.js';

/** Seconds a revocation is kept beyond the JWT lifetime (the decoder's clock tolerance and then some). */
const KEEP_MARGIN_SECONDS = 60;

/**
 * True when a token issued at `issuedAtSeconds` (its `iat`) predates a revocation at
 * `revokedAtMs`. Pure. A token without `iat` counts as issued at 0 (revoked). Times are compared at
 * the token's one-second resolution, so a session started in the very second of a revocation is
 * revoked too: revoking errs on the side of signing out.
 *
 * @example
 * isIssuedBeforeRevocation(1_700_000_000, 1_700_000_000_500) // true
 */
export function isIssuedBeforeRevocation(issuedAtSeconds: unknown, revokedAtMs: number | null): boolean {
	if (revokedAtMs === null) return false;
	const issued = typeof issuedAtSeconds === 'number' && Number.isFinite(issuedAtSeconds) ? issuedAtSeconds : 0;
	return issued * 1000 < revokedAtMs;
}

/**
 * When a revocation takes effect: the start of the next whole second, so that every JWT session
 * issued up to now (`iat` has one-second resolution) is revoked, even one issued in this very
 * second; a sign-in after it is issued at that time (`issueTimeAfterRevocations`). Pure.
 *
 * @example
 * revocationTime(1_700_000_000_400); // 1_700_000_001_000
 */
export function revocationTime(now: number): number {
	return (Math.floor(now / 1000) + 1) * 1000;
}

/** How far another server's clock may run ahead of this one's: a session it issued that far "later" is still revoked. */
const CLOCK_MARGIN_MS = 1000;

/**
 * When a new revocation of a user's sessions takes effect, given the one already recorded
 * (`earlier`, or null): the whole second after now plus a clock margin (another server sharing the
 * store may run up to a second ahead), or the second after an earlier revocation still ahead. A
 * session signed in right after that earlier revocation is issued at its time
 * (`issueTimeAfterRevocations`), so a second revocation within the same second must come later to
 * reach it. Pure.
 *
 * @example
 * nextRevocationTime(1_700_000_000_400, 1_700_000_003_000); // 1_700_000_004_000
 */
export function nextRevocationTime(now: number, earlier: number | null): number {
	return revocationTime(Math.max(now + CLOCK_MARGIN_MS, earlier ?? 0));
}

/**
 * True when something dated `datedAt` (ms) — a sign-in link, a pending second step — predates the
 * revocation recorded as `revokedAtMs`. Such things are dated with `timeAfterRevocations` when
 * made, as sessions are: what is made right after a revocation still ahead counts as made at it,
 * so the user's own next step after "sign out everywhere" goes through. Pure.
 *
 * @example
 * isMadeBeforeRevocation(1_700_000_000_000, 1_700_000_060_000); // true
 */
export function isMadeBeforeRevocation(datedAt: number, revokedAtMs: number | null): boolean {
	return revokedAtMs !== null && datedAt < revokedAtMs;
}

/** What a revocation of a user's sessions needs: the resolved config and the time. */
type RevocationContext = { config: ResolvedConfig; now: number };

/**
 * When a revocation of `userId`'s sessions asked for now takes effect (`nextRevocationTime`
 * against the one recorded). Read before anything is deleted, so a store that cannot answer
 * stops the change before it starts. Store failures are thrown.
 *
 * @example
 * const at = await userRevocationTime(ctx, user.id);
 */
export async function userRevocationTime(ctx: RevocationContext, userId: string): Promise<number> {
	return nextRevocationTime(ctx.now, await ctx.config.revocation.store.revokedAt(userId, ctx.now));
}

/**
 * Records that every JWT session of `userId` issued before `at` ends (and every copy of a database
 * session, and every browser trusted to skip the second step before it); a session issued at
 * `at` goes on. `at` defaults to `userRevocationTime`. Returns `at`. Store failures are thrown.
 *
 * @example
 * const at = await revokeUserSessions(ctx, user.id);
 */
export async function revokeUserSessions(ctx: RevocationContext, userId: string, at?: number): Promise<number> {
	const when = at ?? (await userRevocationTime(ctx, userId));
	await ctx.config.revocation.store.revoke(userId, when, ctx.config.jwt.maxAge + KEEP_MARGIN_SECONDS);
	return when;
}

/** What a revocation check found: `unknown` when the store could not answer. */
export type RevocationState = 'valid' | 'revoked' | 'unknown';

/**
 * Whether the JWT session `token` was revoked (its user's sessions everywhere, or this one session by
 * its id), asking the config's revocation store. A store that
 * fails answers `unknown` (logged): the caller keeps the session but must not extend it.
 *
 * @example
 * if ((await revocationState(ctx, token)) === 'revoked') return null;
 */
export function revocationState(ctx: RequestContext, token: JWT): RevocationState | Promise<RevocationState> {
	const sub = typeof token.sub === 'string' && token.sub ? token.sub : undefined;
	const id = sessionIdOf(token);
	const owner = ownerOf(token);
	if (sub === undefined && id === undefined && owner === undefined) return 'valid';
	let asked: (number | null | PromiseLike<number | null>)[];
	try {
		const { store } = ctx.config.revocation;
		// the user's "everywhere" revocation (by `sub`, and by the stored user of a credentials
		// session) and this one session's, asked side by side
		asked = [
			sub === undefined ? null : store.revokedAt(sub, ctx.now),
			owner === undefined ? null : store.revokedAt(owner, ctx.now),
			id === undefined ? null : store.revokedAt(sessionIdRevocationKey(id), ctx.now)
		];
	} catch (error) {
		return storeFailed(ctx, error);
	}
	// the memory store answers at once: nothing to wait for on every read
	if (!asked.some(isThenable)) return revocationOf(token, asked as (number | null)[]);
	return Promise.all(asked).then(
		(times) => revocationOf(token, times),
		(error: unknown) => storeFailed(ctx, error)
	);
}

/** What the revocation times found (by `sub`, by owner, of the session id) say of `token`. */
function revocationOf(token: JWT, [revokedAt, ownerRevokedAt, sessionRevokedAt]: (number | null)[]): RevocationState {
	const revoked = sessionRevokedAt !== null || isIssuedBeforeRevocation(token.iat, revokedAt) || isIssuedBeforeRevocation(token.iat, ownerRevokedAt);
	return revoked ? 'revoked' : 'valid';
}

function storeFailed(ctx: RequestContext, error: unknown): RevocationState {
	ctx.config.logger.error(new AdapterError('The revocation store failed; the session was kept without being extended.', { cause: { err: error } }));
	return 'unknown';
}

/**
 * When something of `userId` granted now is dated: now, or — when the user's sessions were revoked
 * as of a time still ahead (see `nextRevocationTime`) — that time, so what is granted right after
 * the revocation is not caught by it. A store that cannot answer gives now (logged): what was
 * granted then ends at the revocation, erring on signing out.
 *
 * @example
 * const trustedAt = await timeAfterRevocations(ctx, user.id);
 */
export async function timeAfterRevocations(ctx: RequestContext, userId: string | undefined): Promise<number> {
	if (typeof userId !== 'string' || userId === '') return ctx.now;
	try {
		const asked = ctx.config.revocation.store.revokedAt(userId, ctx.now);
		// the memory store answers at once, with nothing to wait for
		const time = isThenable(asked) ? await asked : asked;
		return Math.max(ctx.now, time ?? 0);
	} catch (error) {
		ctx.config.logger.error(new AdapterError('The revocation store failed; dated as of now.', { cause: { err: error } }));
		return ctx.now;
	}
}

/**
 * When a new JWT session of `token`'s user is issued (`timeAfterRevocations`). A credentials
 * session with a stored user is revoked under that user: only its revocations date the session,
 * so one made by authorize()'s id cannot date it past the owner's next one (such a sign-in within
 * the second of a revocation by that id ends with it: errs on signing out).
 *
 * @example
 * const issuedAt = await issueTimeAfterRevocations(ctx, token);
 */
export function issueTimeAfterRevocations(ctx: RequestContext, token: JWT): Promise<number> {
	return timeAfterRevocations(ctx, ownerOf(token) ?? (typeof token.sub === 'string' ? token.sub : undefined));
}

/**
 * Signs `userId` out everywhere. Database sessions: every session row of the user is deleted
 * (adapter method `deleteSessionsByUserId`, else `MissingAdapterMethod`). JWT sessions: sessions
 * issued before now stop working on their next request (with the default
 * `session.revocationCheck: "always"`; with `"refresh"`, at their next re-issue, at most
 * `updateAge` later). Several servers need a shared `session.revocationStore` (or
 * `rateLimit.store`) for JWT revocations.
 *
 * @example
 * import { revokeSessions } from 'kitgate';
 * await revokeSessions(user.id, authConfig); // e.g. after a password change
 */
export async function revokeSessions(userId: string, config: AuthConfig): Promise<void> {
	if (typeof userId !== 'string' || userId.length === 0) {
		throw new InvalidConfiguration('revokeSessions needs the id of the user whose sessions to end.');
	}
	const resolved = resolveConfig(config);
	const now = resolved.now();
	if (resolved.session.strategy === 'database') {
		const adapter = resolved.adapter!;
		assertAdapterMethods(adapter, ['deleteSessionsByUserId']);
		// asked of the store first: one that cannot answer stops this before a row is deleted
		const at = await userRevocationTime({ config: resolved, now }, userId);
		await adapter.deleteSessionsByUserId(userId);
		// recorded for database sessions too, after the rows are gone: browsers trusted to skip the second step stop being so (two-factor/trusted-browser.ts)
		await revokeUserSessions({ config: resolved, now }, userId, at);
		return;
	}
	// as of the whole second after now and a clock margin, or later (nextRevocationTime): a session issued in this very second ends too
	await revokeUserSessions({ config: resolved, now }, userId);
	// the account page no longer lists them
	await forgetOtherJwtSessions({ config: resolved, now }, userId, undefined);
}


/**
 * Deletes a user and ends every session of it: database sessions go with the user's rows, JWT
 * sessions stop on their next request on every server sharing the revocation store (the
 * revocation is recorded before the user is deleted, so no request in between outlives it).
 * Delete users through this rather than the adapter: a user deleted in the database directly
 * keeps its JWT sessions until they expire, unless you also call `revokeSessions`.
 *
 * @example
 * import { deleteUser } from 'kitgate';
 * await deleteUser(user.id, authConfig);
 */
export async function deleteUser(userId: string, config: AuthConfig): Promise<void> {
	if (typeof userId !== 'string' || userId.length === 0) {
		throw new InvalidConfiguration('deleteUser needs the id of the user to delete.');
	}
	const resolved = resolveConfig(config);
	const adapter = resolved.adapter;
	if (!adapter) throw new MissingAdapter('deleteUser removes a stored user and needs an adapter.');
	assertAdapterMethods(adapter, ['deleteUser']);
	// JWT sessions, and copies of database sessions (session.cache), end through it: recorded first
	if (resolved.session.strategy === 'jwt' || resolved.sessionCache) {
		await revokeUserSessions({ config: resolved, now: resolved.now() }, userId);
	}
	await adapter.deleteUser(userId);
}
