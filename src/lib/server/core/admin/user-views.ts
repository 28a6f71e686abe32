// What admins read about users: a list entry (`AdminUserSummary`) and one user's detail
// (`AdminUserDetail`), built from the adapter's rows: no token, no key, no second-factor secret.

import { hasAdapterMethod } from '../store/adapter-guard.js';
import { isJwtSessionRow, listJwtSessions } from '../session/jwt-session-list.js';
import type { RequestContext } from '../request/context.js';
import type { AdapterAuthenticator, AdapterSession, AdapterUser, AdapterUserAdmin } from '../types.js';
import { isAdminUser, mayActOn } from './admin-authorization.js';
import { isBanned } from '../session/ban.js';
import { auditTrailOf } from './admin-audit.js';
import type { AdminUserDetail, AdminUserSummary } from '../admin-types.js';
import { isoTime, passkeyInfo, sessionInfo } from '../account/overview.js';

/** Who is looking: the admin, or null for a server script. */
export type Viewer = AdapterUser | null;

/**
 * A user as the admin list shows them, from the user, their admin record and whether they have a
 * second factor.
 *
 * @example
 * const summary = await userSummary(ctx, user);
 */
export async function userSummary(ctx: RequestContext, user: AdapterUser, record?: AdapterUserAdmin | null): Promise<AdminUserSummary> {
	const adapter = ctx.config.adapter!;
	const stored = record === undefined ? await adapter.getUserAdmin(user.id) : record;
	const banned = isBanned(stored, ctx.now);
	const [admin, twoFactor] = await Promise.all([isAdminUser(ctx, user, stored), hasTwoFactor(ctx, user.id)]);
	return {
		id: user.id,
		name: user.name ?? null,
		email: user.email || null,
		image: user.image ?? null,
		role: stored?.role ?? null,
		isAdmin: admin,
		status: banned ? 'banned' : 'active',
		banExpires: banned ? isoTime(stored?.banExpires) : null,
		twoFactor
	};
}

async function hasTwoFactor(ctx: RequestContext, userId: string): Promise<boolean> {
	const adapter = ctx.config.adapter!;
	if (!hasAdapterMethod(adapter, 'getTwoFactor')) return false;
	return Boolean(await adapter.getTwoFactor(userId));
}

/**
 * One user's detail as an admin reads it (without the CSRF token and the viewer, which the route
 * adds): accounts, passkeys, second factor, sessions, audit trail, and what the viewer may do.
 *
 * @example
 * const detail = await userDetail(ctx, user, admin);
 */
export async function userDetail(ctx: RequestContext, user: AdapterUser, viewer: Viewer): Promise<Omit<AdminUserDetail, 'csrfToken' | 'basePath' | 'viewer'>> {
	const adapter = ctx.config.adapter!;
	const record = await adapter.getUserAdmin(user.id);
	const summary = await userSummary(ctx, user, record);
	const [accounts, passkeys, twoFactor, sessions, audit] = await Promise.all([
		adapter.listAccountsByUserId(user.id),
		hasAdapterMethod(adapter, 'listAuthenticatorsByUserId') ? adapter.listAuthenticatorsByUserId(user.id) : ([] as AdapterAuthenticator[]),
		hasAdapterMethod(adapter, 'getTwoFactor') ? adapter.getTwoFactor(user.id) : undefined,
		listedSessionsOf(ctx, user.id),
		auditTrailOf(ctx, user.id)
	]);
	const canAct = mayActOn(viewer?.id ?? null, { id: user.id, isAdmin: summary.isAdmin });
	const banned = summary.status === 'banned';
	return {
		user: {
			...summary,
			emailVerified: isoTime(user.emailVerified),
			createdAt: isoTime(record?.createdAt),
			lastSignInAt: isoTime(record?.lastSignInAt),
			bannedAt: banned ? isoTime(record?.bannedAt) : null,
			banReason: banned ? (record?.banReason ?? null) : null
		},
		accounts: accounts
			.filter((account) => account.type !== 'webauthn')
			.map((account) => ({
				provider: account.provider,
				providerName: ctx.config.providerById.get(account.provider)?.name ?? account.provider,
				type: account.type,
				providerAccountId: account.providerAccountId
			})),
		// an admin may remove any of them (docs/admin.md)
		passkeys: passkeys.map((passkey) => passkeyInfo(passkey, true)),
		twoFactor: twoFactor === undefined ? null : twoFactor ? { enabled: true, enabledAt: isoTime(twoFactor.createdAt) } : { enabled: false, enabledAt: null },
		sessions: sessions.map((row) => sessionInfo(ctx, row, false, sessionMaxAge(ctx))).sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '')),
		audit,
		canAct,
		// a script has no session to keep aside: only an admin impersonates
		canImpersonate: canAct && viewer !== null && !banned
	};
}

/**
 * The sessions of `userId` an admin can list and end one by one: database sessions (their rows),
 * or JWT sessions when they are recorded (`account.listJwtSessions`); expired ones left out.
 *
 * @example
 * const rows = await listedSessionsOf(ctx, user.id);
 */
export async function listedSessionsOf(ctx: RequestContext, userId: string): Promise<AdapterSession[]> {
	if (ctx.config.session.strategy === 'jwt') return listJwtSessions(ctx, userId);
	const adapter = ctx.config.adapter!;
	const rows = await adapter.listSessionsByUserId(userId);
	return rows.filter((row) => !isJwtSessionRow(row.sessionToken) && new Date(row.expires).getTime() > ctx.now);
}


/** How long a session lives unless used (the strategy's own max age), for a session's last extension. */
function sessionMaxAge(ctx: RequestContext): number {
	return ctx.config.session.strategy === 'jwt' ? ctx.config.jwt.maxAge : ctx.config.session.maxAge;
}
