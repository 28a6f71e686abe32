// What `GET {basePath}/account` answers: the signed-in user's connected accounts, passkeys and
// sessions, and which changes are open to them now.

import { hasAdapterMethod, type GuardedAdapter } from '../store/adapter-guard.js';
import { listJwtSessions, rowToken, sessionIdOf } from '../session/jwt-session-list.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import { splitTransports } from '../flows/passkey/webauthn-register.js';
import type { AdapterAccount, AdapterAuthenticator, AdapterSession, Provider } from '../types.js';
import { publicSessionId, type AccountSession } from './account-session.js';
import { twoFactorOf } from '../two-factor/second-factor.js';
import type { AccountOverview, ConnectedAccount, PasskeyInfo, SessionInfo, TwoFactorStatus } from '../account-types.js';
import { authenticatorName, describeUserAgent } from './describe-device.js';
import { isFreshSignIn } from './freshness.js';
import { canRemove, waysIn, type WayIn } from './ways-in.js';

/** The user's accounts, passkeys and the ways in they make, read once per request. */
export interface UserHoldings {
	accounts: AdapterAccount[];
	passkeys: AdapterAuthenticator[];
	ways: WayIn[];
}

/**
 * Reads what the user holds: accounts, passkeys (when a passkey provider is configured) and the
 * ways in they make with this configuration.
 *
 * @example
 * const { ways } = await readHoldings(ctx, session);
 */
export async function readHoldings(ctx: RequestContext, session: AccountSession): Promise<UserHoldings> {
	const adapter = ctx.config.adapter!;
	const passkeyProvider = hasPasskeys(ctx.config.providers);
	const [accounts, passkeys] = await Promise.all([
		adapter.listAccountsByUserId(session.user.id),
		passkeyProvider ? adapter.listAuthenticatorsByUserId(session.user.id) : ([] as AdapterAuthenticator[])
	]);
	return { accounts, passkeys, ways: waysIn(session.user, accounts, passkeys, ctx.config.providers) };
}

/** True when a passkey provider is configured. */
export function hasPasskeys(providers: Provider[]): boolean {
	return providers.some((provider) => provider.type === 'webauthn');
}

/**
 * The overview of the signed-in user's account.
 *
 * @example
 * return { type: 'json', body: await accountOverview(ctx, session) };
 */
export async function accountOverview(ctx: RequestContext, session: AccountSession): Promise<AccountOverview> {
	const { config } = ctx;
	const adapter = config.adapter!;
	const holdings = await readHoldings(ctx, session);
	const { user } = session;
	const fresh = isFreshSignIn(session.signedInAt, ctx.now, config.account.freshSignInMaxAge);
	return {
		user: {
			id: user.id,
			name: user.name ?? null,
			email: user.email || null,
			emailVerified: user.emailVerified ? new Date(user.emailVerified).toISOString() : null,
			image: user.image ?? null
		},
		sessionStrategy: config.session.strategy,
		signedInAt: isoTime(session.signedInAt),
		freshUntil: fresh && session.signedInAt !== null ? isoTime(session.signedInAt + config.account.freshSignInMaxAge * 1000) : null,
		accounts: connectedAccounts(ctx, holdings),
		linkable: config.providers
			.filter((provider) => provider.type === 'oauth' || provider.type === 'oidc')
			.map((provider) => ({ id: provider.id, name: provider.name })),
		passkeys: passkeyInfos(holdings),
		sessions: await sessionInfos(ctx, adapter, session),
		canChangeEmail: config.account.emailProvider !== undefined,
		canDeleteAccount: config.account.deleteAccount,
		csrfToken: requestCsrf(ctx).token,
		basePath: config.basePath,
		passkeyProvider: config.providers.find((provider) => provider.type === 'webauthn')?.id ?? null,
		twoFactor: await twoFactorStatus(ctx, session)
	};
}

async function twoFactorStatus(ctx: RequestContext, session: AccountSession): Promise<TwoFactorStatus | null> {
	if (!hasAdapterMethod(ctx.config.adapter!, 'getTwoFactor')) return null;
	const record = await twoFactorOf(ctx, session.user.id);
	if (!record) return { enabled: false, enabledAt: null, recoveryCodesLeft: 0 };
	return { enabled: true, enabledAt: isoTime(record.createdAt), recoveryCodesLeft: record.recoveryCodes.length };
}

function connectedAccounts(ctx: RequestContext, holdings: UserHoldings): ConnectedAccount[] {
	return holdings.accounts
		.filter((account) => account.type !== 'webauthn')
		.map((account) => {
			const oauth = account.type === 'oauth' || account.type === 'oidc';
			return {
				provider: account.provider,
				providerName: ctx.config.providerById.get(account.provider)?.name ?? account.provider,
				type: account.type,
				providerAccountId: account.providerAccountId,
				canUnlink: oauth && canRemove(holdings.ways, { kind: 'account', provider: account.provider, providerAccountId: account.providerAccountId })
			};
		});
}

function passkeyInfos(holdings: UserHoldings): PasskeyInfo[] {
	const several = holdings.passkeys.length > 1;
	return holdings.passkeys.map((passkey) => passkeyInfo(passkey, several && canRemove(holdings.ways, { kind: 'passkey', credentialID: passkey.credentialID })));
}

/** One passkey as listed: no public key, no counter; `removable` says whether it may be removed now. */
export function passkeyInfo(passkey: AdapterAuthenticator, removable: boolean): PasskeyInfo {
	return {
		credentialID: passkey.credentialID,
		name: passkey.name ?? null,
		authenticatorName: authenticatorName(passkey.aaguid),
		createdAt: isoTime(passkey.createdAt),
		lastUsedAt: isoTime(passkey.lastUsedAt),
		credentialDeviceType: passkey.credentialDeviceType,
		credentialBackedUp: passkey.credentialBackedUp,
		transports: splitTransports(passkey.transports) ?? [],
		canRemove: removable
	};
}

async function sessionInfos(ctx: RequestContext, adapter: GuardedAdapter, session: AccountSession): Promise<SessionInfo[]> {
	const { stored } = session;
	if (stored.strategy === 'jwt') {
		const ownId = sessionIdOf(stored.token);
		const own = ownId === undefined ? undefined : rowToken(ownId);
		const others = (await listJwtSessions(ctx, session.user.id)).filter((row) => row.sessionToken !== own).map((row) => sessionInfo(ctx, row, false, ctx.config.jwt.maxAge));
		// this browser from its own token (a session from before ids, or one whose row failed to write, is listed too)
		const device = describeUserAgent(ctx.headers.get('user-agent'));
		const id = own !== undefined && ctx.config.account.listJwtSessions ? publicSessionId(ctx, own) : 'current';
		const current: SessionInfo = { id, current: true, createdAt: isoTime(session.signedInAt), lastSeenAt: isoTime(ctx.now), expires: isoTime(stored.expires) as string, ...device };
		return [current, ...others.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''))];
	}
	const rows: AdapterSession[] = hasAdapterMethod(adapter, 'listSessionsByUserId') ? await adapter.listSessionsByUserId(session.user.id) : [];
	const infos = rows
		.filter((row) => new Date(row.expires).getTime() > ctx.now)
		.map((row) => sessionInfo(ctx, row, row.sessionToken === stored.sessionToken, ctx.config.session.maxAge));
	// the current session is listed even by an adapter that cannot list
	if (!infos.some((info) => info.current)) {
		infos.push(sessionInfo(ctx, { sessionToken: stored.sessionToken, userId: session.user.id, expires: new Date(stored.expires), createdAt: stored.createdAt ? new Date(stored.createdAt) : null }, true, ctx.config.session.maxAge));
	}
	return infos.sort((a, b) => Number(b.current) - Number(a.current) || (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
}

/** One session row as listed: created, last seen (its last extension: expires − `maxAge` seconds), device. */
export function sessionInfo(ctx: RequestContext, row: AdapterSession, current: boolean, maxAge: number): SessionInfo {
	const expires = new Date(row.expires).getTime();
	const lastWrite = expires - maxAge * 1000;
	const createdAt = row.createdAt ? new Date(row.createdAt).getTime() : null;
	return {
		id: publicSessionId(ctx, row.sessionToken),
		current,
		createdAt: isoTime(createdAt),
		lastSeenAt: isoTime(current ? ctx.now : createdAt !== null ? Math.max(lastWrite, createdAt) : lastWrite),
		expires: isoTime(expires) as string,
		...describeUserAgent(row.userAgent)
	};
}

/** An ISO time of a Date, a parseable string or epoch milliseconds; null when absent or invalid. */
export function isoTime(value: number | Date | string | null | undefined): string | null {
	if (value === null || value === undefined) return null;
	const time = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
	return Number.isFinite(time) ? new Date(time).toISOString() : null;
}
