// Sessions for both strategies: reading (with extension per `updateAge`), creating on sign-in,
// updating on request of the app, and ending on sign-out. Cookies go to `ctx.setCookies`.

import type { RequestContext } from '../request/context.js';
import { isThenable } from '../util/awaitable.js';
import { decodeKitgateSessionToken } from './session-decode.js';
import { foundForToken } from './found-for-token.js';
import { keepToken } from '../config/default-callbacks.js';
import { authjsSessionCookieValue, clearAuthjsSessionCookie, decodeAuthjsSessionToken } from './authjs-sessions.js';
import { CHUNK_SIZE, MAX_CHUNKS, clearChunkedCookie, readChunkedCookie, writeChunkedCookie } from '../request/cookies.js';
import { hasAdapterMethod, type AdapterMethod } from '../store/adapter-guard.js';
import { AdapterError, AuthError, CallbackRouteError, JWTSessionError, UserBanned } from '../errors.js';
import { emitEvent } from '../config/events.js';
import { refreshUpstreamTokens, upstreamSessionError, upstreamTokenError, withUpstreamTokens } from '../flows/oauth/token-refresh.js';
import { isJwtSessionRow, newSessionId, OWNER_CLAIM, ownerOf, recordJwtSession, SESSION_ID_CLAIM, signOutJwtSession, touchJwtSession } from './jwt-session-list.js';
import { issueTimeAfterRevocations, revocationState } from './revocation.js';
import { readSubject, setSubject, subjectOfSignIn, withSubject } from './session-subject.js';
import { dropSessionCacheCookie, readCachedSession, writeCachedSession } from './session-cache.js';
import { isUserBanned } from './ban.js';
import { recordSignIn } from '../flows/sign-in-bookkeeping.js';
import { checkImpersonation, IMPERSONATION_CLAIM, impersonationOfSessionToken, impersonationOfToken, impersonationSessionToken } from '../admin/impersonation-session.js';
import { clearAdminSessionCookie, hasAdminSessionCookie } from '../admin/impersonation-cookie.js';
import { sessionOrganizationOf } from './session-organization.js';
import type { Account, AdapterUser, JWT, Profile, Session, SessionImpersonation, SessionOrganization, User } from '../types.js';


export type { StoredSession } from './stored-session.js';
import type { StoredSession } from './stored-session.js';

/**
 * The claim of a JWT session that holds when its user signed in (seconds), as OpenID Connect's
 * `auth_time`. kitgate's own: set at sign-in, carried over every re-issue whatever the `jwt`
 * callback returns, so sensitive account changes can ask for a recent sign-in.
 */
export const SIGN_IN_TIME_CLAIM = 'auth_time';

/** Longest `User-Agent` kept with a database session. */
const MAX_USER_AGENT_LENGTH = 512;

/** Seconds since epoch for a millisecond time. */
const seconds = (ms: number) => Math.floor(ms / 1000);

/** True when a session last written at `writtenAt` must be extended now (pure; `updateAge` 0 = always). */
export function isSessionStale(writtenAt: number, now: number, updateAgeSeconds: number): boolean {
	return updateAgeSeconds === 0 || now - writtenAt >= updateAgeSeconds * 1000;
}

/** Claims of a JWT session that only kitgate sets: a read keeps them whatever the `jwt` callback returned. */
const KEPT_CLAIMS: readonly string[] = ['sub', SESSION_ID_CLAIM, OWNER_CLAIM, 'iat', IMPERSONATION_CLAIM];
/** The same for an impersonation, whose shown identity is kitgate's too. */
const KEPT_CLAIMS_OF_IMPERSONATION: readonly string[] = [...KEPT_CLAIMS, 'name', 'email', 'picture'];

/** Longest database session token kitgate looks up (generated ones have 36 characters). */
const MAX_SESSION_TOKEN_LENGTH = 512;

/**
 * True when a session cookie value can be one kitgate issued: printable ASCII without spaces (what
 * a cookie may hold), and for database sessions at most 512 characters. Anything else (a NUL byte
 * a database would refuse, say) is no session, never a failing lookup; nor is the token of a JWT
 * session's row. Pure.
 *
 * @example
 * isWellFormedSessionValue('\u0000', 'database'); // false
 */
export function isWellFormedSessionValue(value: string, strategy: 'jwt' | 'database'): boolean {
	if (strategy === 'database' && value.length > MAX_SESSION_TOKEN_LENGTH) return false;
	// a JWT session's row in the sessions table (jwt-sessions.ts) is never a database session
	if (strategy === 'database' && isJwtSessionRow(value)) return false;
	return /^[\x21-\x7e]+$/.test(value);
}

/** The request's session cookie as sent: kitgate's own, else (with `migrateSessionsFrom`) an Auth.js one. */
function rawSessionCookie(ctx: RequestContext): string | undefined {
	const own = readChunkedCookie(ctx.cookies, ctx.cookieNames.sessionToken.name);
	return own === undefined && ctx.config.migrateSessionsFrom ? authjsSessionCookieValue(ctx) : own;
}

/** True when the request's session is read from an Auth.js cookie, which kitgate's then replaces (authjs-cookies.ts). */
function isAuthjsSession(ctx: RequestContext): boolean {
	return ctx.config.migrateSessionsFrom !== undefined && authjsSessionCookieValue(ctx) !== undefined;
}

/** The request's session cookie value, when it is present and well formed. */
export function sessionCookieValue(ctx: RequestContext): string | undefined {
	const raw = rawSessionCookie(ctx);
	return raw && isWellFormedSessionValue(raw, ctx.config.session.strategy) ? raw : undefined;
}

/** True when the request carries a session cookie, well formed or not (to clear a bad one). */
function hasSessionCookie(ctx: RequestContext): boolean {
	return rawSessionCookie(ctx) !== undefined;
}

/** Queues the removal of the session cookie (and an Auth.js one beside it). */
export function clearSessionCookie(ctx: RequestContext): void {
	ctx.setCookies.push(...clearChunkedCookie(ctx.cookies, ctx.cookieNames.sessionToken));
	if (ctx.config.migrateSessionsFrom) clearAuthjsSessionCookie(ctx);
	// the copy of a database session goes with it
	dropSessionCacheCookie(ctx);
}

function writeSessionCookie(ctx: RequestContext, value: string, expires: number): void {
	const option = ctx.cookieNames.sessionToken;
	const chunks = Math.ceil(value.length / CHUNK_SIZE);
	if (chunks > MAX_CHUNKS) {
		throw new JWTSessionError(
			`The session needs ${chunks} cookies (${value.length} bytes); the limit is ${MAX_CHUNKS}. Return less from the jwt callback.`
		);
	}
	if (chunks > 2) {
		// many proxies refuse request headers over 8 KB
		ctx.config.logger.warn('session-cookie-size', `The session cookie needs ${chunks} chunks (${value.length} bytes); slim the jwt callback.`);
	}
	ctx.setCookies.push(
		...writeChunkedCookie(ctx.cookies, { name: option.name, options: { ...option.options, expires: new Date(expires) } }, value)
	);
	// kitgate's cookie takes the place of an Auth.js one
	if (ctx.config.migrateSessionsFrom) clearAuthjsSessionCookie(ctx);
	// a new or extended session: a copy of the old one (another token, or an older expiry) is not kept
	dropSessionCacheCookie(ctx);
}

function withoutRegisteredClaims(token: JWT): JWT {
	const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token;
	return claims;
}

async function encodeSessionToken(ctx: RequestContext, token: JWT, now = ctx.now): Promise<{ value: string; expires: number }> {
	const { jwt } = ctx.config;
	const { iat } = token;
	// a new token gets new registered claims (a sign-in's token has none: no copy made)
	const claims = 'iat' in token || 'exp' in token || 'jti' in token ? withoutRegisteredClaims(token) : token;
	// never issued before the token itself: a session re-issued at a revocation instant (the next
	// whole second, end-other-sessions) and written again within that second must not predate it
	const issuedAt = typeof iat === 'number' && Number.isFinite(iat) ? Math.max(now, iat * 1000) : now;
	const value = await jwt.encode({
		token: claims,
		secret: ctx.config.secrets,
		salt: ctx.cookieNames.sessionToken.name,
		maxAge: jwt.maxAge,
		now: issuedAt
	});
	return { value, expires: issuedAt + jwt.maxAge * 1000 };
}

/**
 * Writes the JWT session `token` again, issued at `issuedAt` (ms; default now): after the user's
 * other sessions were revoked at `issuedAt`, the one in this browser goes on.
 *
 * @example
 * await reissueJwtSession(ctx, token, Math.ceil(ctx.now / 1000) * 1000);
 */
export async function reissueJwtSession(ctx: RequestContext, token: JWT, issuedAt = ctx.now): Promise<void> {
	const { value, expires } = await encodeSessionToken(ctx, token, issuedAt);
	writeSessionCookie(ctx, value, expires);
}

/** Decodes the request's session cookie (JWT strategy); null when absent or invalid. */
export async function decodeSessionCookie(ctx: RequestContext): Promise<JWT | null> {
	const raw = sessionCookieValue(ctx);
	return raw ? decodeSessionToken(ctx, raw, isAuthjsSession(ctx)) : null;
}

/** Decodes a session cookie value: kitgate's (session-decode.ts), or an Auth.js one. */
function decodeSessionToken(ctx: RequestContext, raw: string, fromAuthjs: boolean): JWT | null | Promise<JWT | null> {
	return fromAuthjs ? decodeAuthjsSessionToken(ctx, raw) : decodeKitgateSessionToken(ctx, raw);
}

/**
 * Reads and, when due, extends the stored session; clears the cookie when it is invalid or expired.
 * `useCache`: a read that only shows the session may use its copy (`session.cache`); routes that
 * act on the session read the database.
 */
async function loadStoredSession(ctx: RequestContext, update?: { data: unknown }, useCache = false): Promise<StoredSession | null> {
	const { config } = ctx;
	const raw = sessionCookieValue(ctx);
	if (!raw) {
		if (hasSessionCookie(ctx)) clearSessionCookie(ctx);
		// beside a broken kitgate cookie, an Auth.js one is never read either
		else if (config.migrateSessionsFrom) clearAuthjsSessionCookie(ctx);
		return null;
	}
	// an Auth.js session is re-issued as kitgate's on its first read; one beside kitgate's is only cleared
	const adopt = isAuthjsSession(ctx);
	if (config.migrateSessionsFrom && !adopt) clearAuthjsSessionCookie(ctx);

	if (config.session.strategy === 'jwt') {
		const decoding = decodeSessionToken(ctx, raw, adopt);
		// on the hot path only what is pending is awaited: kitgate's decoder, the memory store and the
		// default callbacks answer at once
		const decoded = isThenable(decoding) ? await decoding : decoding;
		if (!decoded) {
			clearSessionCookie(ctx);
			return null;
		}
		const stale = adopt || isSessionStale((decoded.iat ?? 0) * 1000, ctx.now, config.session.updateAge);
		// issued ahead of now (at a revocation instant): never counts as fresh, so checked until then
		const issuedAhead = (decoded.iat ?? 0) * 1000 > ctx.now;
		// a revoked session ends when it is next re-issued, or on every read with revocationCheck "always"
		// (or with `admin` on: a ban ends every session at once, docs/admin.md "Bans")
		const everyRead = config.revocation.check === 'always' || config.admin !== undefined;
		const checking = stale || update || issuedAhead || everyRead ? revocationState(ctx, decoded) : undefined;
		let revocation = isThenable(checking) ? await checking : checking;
		if (revocation === 'revoked') {
			clearSessionCookie(ctx);
			return null;
		}
		// a re-issue (or an Auth.js session's adoption) also asks whether the user is banned: a ban outlives
		// a revocation store that forgot it (process memory after a restart)
		if (stale && config.admin && (await isUserBanned(ctx, ownerOf(decoded) ?? String(decoded.sub ?? '')))) {
			clearSessionCookie(ctx);
			return null;
		}
		const mark = impersonationOfToken(decoded);
		let impersonation: SessionImpersonation | undefined;
		if (mark) {
			const checked = await checkImpersonation(ctx, mark);
			if (!checked) {
				await endImpersonation(ctx, { token: decoded });
				return null;
			}
			impersonation = checked;
			ctx.impersonation = { user: decoded.name || decoded.email || String(decoded.sub), admin: checked.admin.name || checked.admin.email || checked.admin.id };
		}
		// only a custom jwt callback can change the token; the default one skips the comparison
		const before = config.callbacks.jwt === keepToken ? undefined : JSON.stringify(decoded);
		// the callback may change the token it is handed in place (`Object.assign(token, session)` on an
		// update): kitgate's claims are kept from the token as read, a copy the callback never sees
		const asRead = before === undefined ? decoded : (JSON.parse(before) as JWT);
		const refreshing = refreshUpstreamTokens(ctx, decoded);
		const refreshed = isThenable(refreshing) ? await refreshing : refreshing;
		// a read has no user, account or profile: only the stored token (and, on update, the app's data)
		const calling = config.callbacks.jwt(
			update ? { token: refreshed, account: null, trigger: 'update', session: update.data } : { token: refreshed, account: null }
		);
		const returned = isThenable(calling) ? await calling : calling;
		if (!returned) {
			clearSessionCookie(ctx);
			return null;
		}
		// what `sub` names stays as the sign-in recorded it (session-subject.ts), whatever the callback returned;
		// an app's callback may keep or freeze what it returns, so kitgate's claims are written to a copy
		const token = withSubject(config.callbacks.jwt === keepToken ? returned : { ...returned }, readSubject(asRead));
		// the sign-in time is kitgate's too: whatever the callback returned, it stays what it was
		if (asRead[SIGN_IN_TIME_CLAIM] !== undefined) token[SIGN_IN_TIME_CLAIM] = asRead[SIGN_IN_TIME_CLAIM];
		// a token without one (Auth.js's, an older kitgate's) stays without: never a time the callback chose
		else delete token[SIGN_IN_TIME_CLAIM];
		// so are its subject, id and owner (jwt-sessions.ts): the callback cannot move a session onto another
		// user or id, nor out of its user's revocations
		// and when it was issued: a re-issue is never dated before it, nor at a time the callback (or
		// the client data an update hands it) chose, which would outlive later revocations
		// an impersonation's mark and shown identity too: no update makes it someone else, or unmarked
		for (const claim of mark ? KEPT_CLAIMS_OF_IMPERSONATION : KEPT_CLAIMS) {
			if (asRead[claim] !== undefined) token[claim] = asRead[claim];
			else delete token[claim];
		}
		const changed = refreshed !== decoded || (before !== undefined && JSON.stringify(token) !== before);
		if (update || changed || stale) {
			revocation ??= await revocationState(ctx, asRead);
			if (revocation === 'revoked') {
				clearSessionCookie(ctx);
				return null;
			}
			// a store that cannot answer keeps the session as it is, checked again on the next read
			if (revocation === 'valid') {
				const { value, expires } = await encodeSessionToken(ctx, token);
				writeSessionCookie(ctx, value, expires);
				if (stale && !adopt) await touchJwtSession(ctx, token, expires);
				return { strategy: 'jwt', token, expires, ...(impersonation && { impersonation }) };
			}
		}
		return { strategy: 'jwt', token, expires: (asRead.exp ?? seconds(ctx.now)) * 1000, ...(impersonation && { impersonation }) };
	}

	// an impersonation is checked on every read: never from a copy
	const mark = impersonationOfSessionToken(raw);
	// a plain read may use a copy of the session (`session.cache`), unless it is due for extension
	const cache = useCache && !update && !adopt && !mark ? config.sessionCache : undefined;
	let missedAt: number | undefined;
	if (cache) {
		const reading = readCachedSession(ctx, cache, raw);
		const read = isThenable(reading) ? await reading : reading;
		if (read.hit && read.hit.expires > ctx.now && !isSessionStale(read.hit.expires - config.session.maxAge * 1000, ctx.now, config.session.updateAge)) {
			return { strategy: 'database', sessionToken: raw, ...read.hit };
		}
		if (!read.hit) missedAt = read.missedAt;
	}

	const adapter = config.adapter!;
	const found = foundForToken(await adapter.getSessionAndUser(raw), raw);
	if (!found) {
		clearSessionCookie(ctx);
		return null;
	}
	const { session, user } = found;
	let expires = new Date(session.expires).getTime();
	if (expires <= ctx.now) {
		if (mark) {
			await endImpersonation(ctx, { sessionToken: raw });
			return null;
		}
		await adapter.deleteSession(raw);
		clearSessionCookie(ctx);
		return null;
	}
	let impersonation: SessionImpersonation | undefined;
	if (mark) {
		const checked = await checkImpersonation(ctx, mark);
		if (!checked) {
			await endImpersonation(ctx, { sessionToken: raw });
			return null;
		}
		impersonation = checked;
		ctx.impersonation = { user: user.name || user.email || user.id, admin: checked.admin.name || checked.admin.email || checked.admin.id };
	}
	const writtenAt = expires - config.session.maxAge * 1000;
	// an impersonation is never extended: it ends when its mark says
	if (!mark && (update || isSessionStale(writtenAt, ctx.now, config.session.updateAge))) {
		expires = ctx.now + config.session.maxAge * 1000;
		await adapter.updateSession({ sessionToken: raw, expires: new Date(expires) });
		writeSessionCookie(ctx, raw, expires);
	} else if (adopt) {
		// the same row, now under kitgate's cookie
		writeSessionCookie(ctx, raw, expires);
	}
	const createdAt = session.createdAt ? new Date(session.createdAt).getTime() : undefined;
	const read = {
		user,
		expires,
		...(createdAt !== undefined && Number.isFinite(createdAt) ? { createdAt } : {}),
		// only the id is copied: whether the user is still a member is asked on every read (getSession)
		...(typeof session.activeOrganizationId === 'string' && session.activeOrganizationId !== '' ? { activeOrganizationId: session.activeOrganizationId } : {})
	};
	// ctx.now: when the request began, before the database was asked
	if (cache) await writeCachedSession(ctx, cache, raw, read, missedAt, ctx.now);
	return { strategy: 'database', sessionToken: raw, ...read, ...(impersonation && { impersonation }) };
}

/**
 * Ends an impersonated session of the request (its database row deleted, or its JWT session id
 * revoked) and clears both the session cookie and the kept admin-session cookie.
 *
 * @example
 * await endImpersonation(ctx, { token: decoded });
 */
export async function endImpersonation(ctx: RequestContext, session: { token: JWT } | { sessionToken: string }): Promise<void> {
	if ('token' in session) await signOutJwtSession(ctx, session.token);
	else await Promise.resolve(ctx.config.adapter!.deleteSession(session.sessionToken)).catch(() => undefined);
	clearSessionCookie(ctx);
	clearAdminSessionCookie(ctx);
}

/**
 * Starts a session of `target` marked as an impersonation by `admin` until `expires` (ms), in
 * place of the request's session cookie (the caller has kept the admin's aside). It never counts
 * as a recent sign-in. Returns the session written (to end it with `endImpersonation`), or null
 * when the `jwt` callback refused.
 *
 * @example
 * const started = await startImpersonatedSession(ctx, target, admin, expires);
 */
export async function startImpersonatedSession(
	ctx: RequestContext,
	target: AdapterUser,
	admin: AdapterUser,
	expires: number
): Promise<{ token: JWT } | { sessionToken: string } | null> {
	const { config } = ctx;
	if (config.session.strategy === 'jwt') {
		const initial: JWT = { name: target.name, email: target.email, picture: target.image, sub: target.id };
		const returned = await config.callbacks.jwt({ token: initial, user: target, account: null, trigger: 'signIn' });
		if (!returned) return null;
		const token = withSubject({ ...returned }, 'user');
		token.sub = target.id;
		// never a recent sign-in: sensitive changes ask for one (and are refused while impersonating anyway)
		delete token[SIGN_IN_TIME_CLAIM];
		delete token[OWNER_CLAIM];
		delete token.iat;
		token[SESSION_ID_CLAIM] = newSessionId();
		token[IMPERSONATION_CLAIM] = { admin: { id: admin.id, name: admin.name ?? null, email: admin.email || null }, expires };
		const { value } = await encodeSessionToken(ctx, token, await issueTimeAfterRevocations(ctx, token));
		writeSessionCookie(ctx, value, expires);
		await recordJwtSession(ctx, token, target.id, expires);
		return { token };
	}
	const adapter = config.adapter!;
	const sessionToken = impersonationSessionToken(admin.id, expires);
	const details = hasAdapterMethod(adapter, 'listSessionsByUserId') ? { createdAt: null, userAgent: sessionDetails(ctx).userAgent ?? null } : {};
	try {
		await adapter.createSession({ sessionToken, userId: target.id, expires: new Date(expires), ...details });
	} catch (error) {
		if (error instanceof AuthError) throw error;
		throw new CallbackRouteError('Storing the impersonation session failed; none was started.', { cause: { err: error } });
	}
	writeSessionCookie(ctx, sessionToken, expires);
	return { sessionToken };
}

/**
 * Writes `value` (the admin's kept session) back as the session cookie until `expires` (ms).
 *
 * @example
 * restoreSessionCookie(ctx, kept, adminExpires);
 */
export function restoreSessionCookie(ctx: RequestContext, value: string, expires: number): void {
	writeSessionCookie(ctx, value, expires);
}


/**
 * The session the request carries as stored (JWT claims, or the database row's user), after the
 * same checks and extension as every read, without the `session` callback; null when there is none.
 *
 * @example
 * const stored = await readStoredSession(ctx); // { strategy: 'jwt', token, expires } | …
 */
export function readStoredSession(ctx: RequestContext): Promise<StoredSession | null> {
	return loadStoredSession(ctx);
}

/**
 * The session of the request as the client sees it (after the `session` callback), or null.
 * With `update`, runs the `jwt`/`session` callbacks with `trigger: "update"`.
 */
export async function getSession(ctx: RequestContext, update?: { data: unknown }): Promise<Session | null> {
	const stored = await loadStoredSession(ctx, update, true);
	if (!stored) return null;
	const { callbacks } = ctx.config;
	const expires = isoTime(stored.expires);
	if (stored.strategy === 'jwt') {
		const { token } = stored;
		const base: Session = { user: { name: token.name, email: token.email, image: token.picture }, expires };
		const upstreamError = upstreamTokenError(token);
		if (upstreamError) base.error = upstreamError;
		// only with organizations on: without them the JWT read gains no await
		const organization = ctx.config.organizations ? await sessionOrganizationOf(ctx, stored) : undefined;
		if (organization) base.organization = organization;
		const shaping = callbacks.session(update ? { session: base, token, trigger: 'update', newSession: update.data } : { session: base, token });
		const shaped = isThenable(shaping) ? await shaping : shaping;
		// the marks are kitgate's: shown, or absent, whatever the session callback returned
		const session = withKitgateMarks(stored, shaped, organization, ctx.config.organizations !== undefined);
		const emitted = emitEvent(ctx, 'session', { session, token });
		if (emitted) await emitted;
		return session;
	}
	const { user } = stored;
	// the whole stored user, as Auth.js hands it (apps read session.user.id); the default callback keeps name, email, image
	const base: Session = { user: { ...user }, expires };
	const upstreamError = await upstreamSessionError(ctx, stored);
	if (upstreamError) base.error = upstreamError;
	// asked after any copy of the session: a removed member loses the organization on their next read
	const organization = ctx.config.organizations ? await sessionOrganizationOf(ctx, stored) : undefined;
	if (organization) base.organization = organization;
	const shaped = await callbacks.session(update ? { session: base, user, trigger: 'update', newSession: update.data } : { session: base, user });
	const session = withKitgateMarks(stored, shaped, organization, ctx.config.organizations !== undefined);
	await emitEvent(ctx, 'session', { session, user });
	return session;
}

/** The last expiry formatted: every read of one JWT session shows the same one (its `exp`). */
let lastIsoTime: { ms: number; iso: string } | undefined;

/** `new Date(ms).toISOString()`, formatted once for repeated reads of the same time. */
function isoTime(ms: number): string {
	if (lastIsoTime?.ms === ms) return lastIsoTime.iso;
	const iso = new Date(ms).toISOString();
	lastIsoTime = { ms, iso };
	return iso;
}

/**
 * `shaped` with what kitgate decides of a session: the stored session's impersonation mark and the
 * active organization whose membership was just checked, or without them (ones a callback copied
 * from client data or from the token).
 */
function withKitgateMarks(stored: StoredSession, shaped: Session, organization: SessionOrganization | undefined, organizationsOn: boolean): Session {
	const object = shaped !== null && typeof shaped === 'object';
	// without organizations in the config, an `organization` the app's callback sets is the app's own
	const carriesOrganization = object && organizationsOn && 'organization' in shaped;
	// the common case (nothing to show, nothing forged) keeps the callback's object as it is
	if (!stored.impersonation && !organization && !(object && 'impersonation' in shaped) && !carriesOrganization) return shaped;
	const marks = { ...(stored.impersonation && { impersonation: stored.impersonation }), ...(organization && { organization }) };
	if (!object) return marks as Session;
	const { impersonation: _impersonation, ...rest } = shaped;
	if (organizationsOn) delete rest.organization;
	return { ...rest, ...marks } as Session;
}

/**
 * Adapter methods a sign-in may call about sessions for this request: reading the session it
 * already has (to find the signed-in user) and starting the new one. Flows check them before
 * their first write.
 */
export function sessionMethods(ctx: RequestContext): AdapterMethod[] {
	const hasSession = sessionCookieValue(ctx) !== undefined;
	if (ctx.config.session.strategy === 'database') {
		return hasSession ? ['createSession', 'getSessionAndUser', 'deleteSession'] : ['createSession'];
	}
	return hasSession ? ['getUser'] : [];
}

/** What a completed sign-in hands to `establishSession`. */
export interface SignedInUser {
	user: User | AdapterUser;
	account: Account | null;
	profile?: Profile;
	isNewUser?: boolean;
	/** The stored user a credentials sign-in resolved to, when `user` is authorize()'s (JWT sessions list under it). */
	storedUserId?: string;
}

/**
 * Starts a new session for a signed-in user, replacing any session the request had (no fixation).
 * Returns false when the `jwt` callback refused (returned null).
 */
export async function establishSession(ctx: RequestContext, signedIn: SignedInUser): Promise<boolean> {
	const { config } = ctx;
	const { user, account, profile, isNewUser } = signedIn;
	const previous = sessionCookieValue(ctx);
	// a sign-in in this browser ends an impersonation in it: the admin's kept session goes too
	if (hasAdminSessionCookie(ctx)) clearAdminSessionCookie(ctx);
	if (config.session.strategy === 'jwt') {
		const initial: JWT = { name: user.name, email: user.email, picture: user.image, sub: user.id };
		const returned = withUpstreamTokens(ctx, await config.callbacks.jwt({
			token: initial,
			user,
			account,
			profile,
			trigger: isNewUser ? 'signUp' : 'signIn',
			isNewUser
		}), account);
		if (!returned) {
			clearSessionCookie(ctx);
			return false;
		}
		// records whether `sub` is a stored user's id or authorize()'s (linking reads it: complete-sign-in.ts)
		// the session this one replaces ends, copies of its cookie too (a database session's row is deleted below)
		if (previous) {
			const replaced = await decodeSessionCookie(ctx);
			if (replaced) await signOutJwtSession(ctx, replaced);
		}
		const subject = subjectOfSignIn(account, config.adapter !== undefined, user.email);
		// the token kitgate made itself, handed back by the default callback (no one else holds it),
		// takes its claims as it is; an app's callback may keep or freeze what it returns: a copy then
		const token = config.callbacks.jwt === keepToken && returned === initial ? setSubject(initial, subject) : withSubject(returned, subject);
		// a sign-in that skipped the second step (a trusted browser) records no time: sensitive changes ask for a full one
		if (ctx.secondFactorSkipped) delete token[SIGN_IN_TIME_CLAIM];
		else token[SIGN_IN_TIME_CLAIM] = seconds(ctx.now);
		token[SESSION_ID_CLAIM] = newSessionId();
		// a credentials session's stored user, when `sub` is authorize()'s id: its revocations reach this session
		if (signedIn.storedUserId !== undefined && signedIn.storedUserId !== token.sub) token[OWNER_CLAIM] = signedIn.storedUserId;
		else delete token[OWNER_CLAIM];
		// issued now, never at a time the callback or a profile chose
		if ('iat' in token) delete token.iat;
		// never issued before a revocation of the user that is still ahead (a sign-in in the second after "sign out everywhere else")
		const { value, expires } = await encodeSessionToken(ctx, token, await issueTimeAfterRevocations(ctx, token));
		writeSessionCookie(ctx, value, expires);
		// the stored user the session is listed under: a credentials sign-in names it, any other is it
		const storedUserId = signedIn.storedUserId ?? (subject === 'user' ? (user.id as string) : undefined);
		await recordJwtSession(ctx, token, storedUserId, expires);
		if (storedUserId !== undefined) {
			await refuseBanThatOvertookSignIn(ctx, storedUserId, () => signOutJwtSession(ctx, token));
			await recordSignIn(ctx, storedUserId);
		}
		return true;
	}
	const adapter = config.adapter!;
	if (previous) await Promise.resolve(adapter.deleteSession(previous)).catch(() => undefined);
	const sessionToken = config.session.generateSessionToken();
	const expires = ctx.now + config.session.maxAge * 1000;
	try {
		await adapter.createSession({ sessionToken, userId: user.id as string, expires: new Date(expires), ...sessionDetails(ctx) });
	} catch (error) {
		// a database that fails here is a failed sign-in the user can retry, not a configuration problem
		if (error instanceof AuthError) throw error;
		throw new CallbackRouteError('Storing the new session failed; no session was started.', { cause: { err: error } });
	}
	writeSessionCookie(ctx, sessionToken, expires);
	await refuseBanThatOvertookSignIn(ctx, user.id as string, () => adapter.deleteSession(sessionToken));
	await recordSignIn(ctx, user.id as string);
	return true;
}

/**
 * Asked once the new session is written: a ban that landed after the sign-in's own check (and
 * ended the sessions there were then) would miss this one, so it ends here and `UserBanned` is thrown.
 */
async function refuseBanThatOvertookSignIn(ctx: RequestContext, userId: string, endSession: () => unknown): Promise<void> {
	if (!(await isUserBanned(ctx, userId))) return;
	// a failure to end it is thrown: never a live session of a banned user behind a refusal
	await endSession();
	clearSessionCookie(ctx);
	throw new UserBanned(`User ${userId} was banned while signing in; the new session was ended.`);
}

/**
 * What a new database session row records besides its token: when its user signed in and the
 * browser's `User-Agent`. Only for adapters that list sessions (a kitgate addition, so they know
 * these fields); another adapter might refuse fields it has no column for.
 */
function sessionDetails(ctx: RequestContext): { createdAt?: Date | null; userAgent?: string | null } {
	if (!hasAdapterMethod(ctx.config.adapter!, 'listSessionsByUserId')) return {};
	const userAgent = ctx.headers.get('user-agent');
	// no sign-in time after a skipped second step (a trusted browser): never recent for sensitive changes
	return { createdAt: ctx.secondFactorSkipped ? null : new Date(ctx.now), userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT_LENGTH) : null };
}

/** Ends the request's session (deleting a database session) and fires `signOut`. */
export async function endSession(ctx: RequestContext): Promise<void> {
	const { config } = ctx;
	const raw = sessionCookieValue(ctx);
	clearSessionCookie(ctx);
	if (!raw) return;
	if (config.session.strategy === 'jwt') {
		const token = await decodeSessionCookie(ctx);
		if (token) await signOutJwtSession(ctx, token);
		await emitEvent(ctx, 'signOut', { token });
		return;
	}
	let session: Awaited<ReturnType<NonNullable<typeof config.adapter>['deleteSession']>> = null;
	try {
		session = await config.adapter!.deleteSession(raw);
	} catch (error) {
		// the browser is signed out all the same (its cookie is cleared above); the row expires on its own
		ctx.config.logger.error(new AdapterError('Deleting the session row failed; the browser was signed out anyway.', { cause: { err: error } }));
	}
	await emitEvent(ctx, 'signOut', { session });
}
