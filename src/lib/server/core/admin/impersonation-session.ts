// The mark of an impersonated session and its check on every read (docs/admin.md,
// "Impersonation"). JWT sessions carry the mark as a claim inside the encrypted token; database
// sessions in the token itself (`imp.<admin id>.<end>.<random>`), which only kitgate can make a
// row for. Each read checks the admin session kept aside: valid, not revoked, still an admin.

import { randomToken } from '../crypto/random.js';
import { base64url, fromBase64url, utf8Bytes } from '../crypto/bytes.js';
import type { RequestContext } from '../request/context.js';
import { revocationState } from '../session/revocation.js';
import { decodeKitgateSessionToken } from '../session/session-decode.js';
import { foundForToken } from '../session/found-for-token.js';
import { userOfSessionToken } from '../flows/session-user.js';
import type { AdapterUser, JWT, SessionImpersonation } from '../types.js';
import { readAdminSessionCookie } from './impersonation-cookie.js';
import { isAdminUser } from './admin-authorization.js';

/** The claim of a JWT session that marks it impersonated: `{ admin: { id, name, email }, expires }` (ms). */
export const IMPERSONATION_CLAIM = 'kitgate.impersonation';

/** Database session tokens of impersonations start with this; generated ones never do. */
const TOKEN_PREFIX = 'imp.';

/** Who impersonates, until when (ms). */
export interface ImpersonationMark {
	adminId: string;
	expires: number;
}

/**
 * The mark of a decoded JWT session, or null when it is not impersonated. Pure.
 *
 * @example
 * impersonationOfToken({ sub: 'u1', 'kitgate.impersonation': { admin: { id: 'a1' }, expires: 1 } }); // { adminId: 'a1', expires: 1 }
 */
export function impersonationOfToken(token: JWT): ImpersonationMark | null {
	const claim = token[IMPERSONATION_CLAIM] as { admin?: { id?: unknown }; expires?: unknown } | undefined;
	if (!claim || typeof claim !== 'object') return null;
	const adminId = claim.admin?.id;
	// a malformed mark is still a mark: it reads as an impersonation that is over
	return { adminId: typeof adminId === 'string' ? adminId : '', expires: typeof claim.expires === 'number' ? claim.expires : 0 };
}

/**
 * A new database session token for an impersonation by `adminId` ending at `expires` (ms).
 *
 * @example
 * const sessionToken = impersonationSessionToken(admin.id, expires); // 'imp.YWRtaW4.1767225600.…'
 */
export function impersonationSessionToken(adminId: string, expires: number): string {
	return `${TOKEN_PREFIX}${base64url(utf8Bytes(adminId))}.${Math.floor(expires / 1000)}.${randomToken(32, 'base64url')}`;
}

/** True when a database session token is an impersonation's (it may still be malformed). Pure. */
export function isImpersonationToken(sessionToken: string): boolean {
	return sessionToken.startsWith(TOKEN_PREFIX);
}

/**
 * The mark of a database session token, or null when it is not an impersonation's. A malformed
 * `imp.` token reads as an impersonation that is over. Pure.
 *
 * @example
 * impersonationOfSessionToken(impersonationSessionToken('a1', 1_767_225_600_000)); // { adminId: 'a1', expires: 1767225600000 }
 */
export function impersonationOfSessionToken(sessionToken: string): ImpersonationMark | null {
	if (!isImpersonationToken(sessionToken)) return null;
	const [, admin, end] = sessionToken.split('.');
	const bytes = fromBase64url(admin ?? '');
	let adminId = '';
	try {
		adminId = bytes ? new TextDecoder('utf-8', { fatal: true }).decode(bytes) : '';
	} catch {
		// not UTF-8: no admin, so the impersonation is over
	}
	const seconds = /^\d{1,12}$/.test(end ?? '') ? Number(end) : 0;
	return { adminId, expires: seconds * 1000 };
}

/**
 * The admin behind the kept admin-session cookie when that session is valid now (not expired,
 * not revoked, not itself an impersonation), with its end (ms); null otherwise.
 *
 * @example
 * const kept = await keptAdminSession(ctx); // { user, expires } | null
 */
export async function keptAdminSession(ctx: RequestContext): Promise<{ user: AdapterUser; expires: number } | null> {
	const raw = readAdminSessionCookie(ctx);
	const adapter = ctx.config.adapter;
	if (!raw || !adapter) return null;
	if (ctx.config.session.strategy === 'jwt') {
		const token = await decodeKitgateSessionToken(ctx, raw);
		if (!token || impersonationOfToken(token)) return null;
		// a store that cannot answer is no proof the admin is still signed in
		if ((await revocationState(ctx, token)) !== 'valid') return null;
		const user = await userOfSessionToken(adapter, token);
		const expires = typeof token.exp === 'number' ? token.exp * 1000 : 0;
		return user && expires > ctx.now ? { user, expires } : null;
	}
	if (isImpersonationToken(raw)) return null;
	const found = foundForToken(await adapter.getSessionAndUser(raw), raw);
	const expires = found ? new Date(found.session.expires).getTime() : 0;
	return found && expires > ctx.now ? { user: found.user, expires } : null;
}

/**
 * What `session.impersonation` shows when the impersonation `mark` still holds: before its end,
 * with the admin's own kept session valid and that admin still an admin. Null when it is over.
 *
 * @example
 * const impersonation = await checkImpersonation(ctx, mark); // null: end the session
 */
export async function checkImpersonation(ctx: RequestContext, mark: ImpersonationMark): Promise<SessionImpersonation | null> {
	if (!mark.adminId || mark.expires <= ctx.now) return null;
	const kept = await keptAdminSession(ctx);
	if (!kept || kept.user.id !== mark.adminId) return null;
	if (!(await isAdminUser(ctx, kept.user))) return null;
	const { id, name, email } = kept.user;
	// never beyond the admin's own session
	return { admin: { id, name: name ?? null, email: email || null }, expires: new Date(Math.min(mark.expires, kept.expires)).toISOString() };
}
