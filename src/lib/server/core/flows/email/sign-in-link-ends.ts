// When a saved sign-in link stops working before it expires: its address's user signed out
// everywhere after it was made (the user's revocation time), or the address moved to another
// account by an email change after it was made (one record per address in the revocation store).

import type { RequestContext } from '../../request/context.js';
import { isMadeBeforeRevocation } from '../../session/revocation.js';
import type { ResolvedEmailConfig } from './email-provider.js';

/** Seconds an address record is kept beyond the longest a link lives (clock differences between servers). */
const KEEP_MARGIN_SECONDS = 60;

type LinksContext = Pick<RequestContext, 'config' | 'now'>;

/** The revocation-store key of the sign-in links of `address` (never a user id: the prefix is kitgate's). */
function addressKey(address: string): string {
	return `kitgate.email-links:${address}`;
}

/**
 * Ends every sign-in link to `address` made until now: the address just became `ownerId`'s by an
 * email change, and a link someone asked for earlier was not meant to open that account. Store
 * failures are thrown.
 *
 * @example
 * await endSignInLinksTo(ctx, 'new@example.com', user.id);
 */
export async function endSignInLinksTo(ctx: LinksContext, address: string, ownerId: string): Promise<void> {
	// as long as the longest-lived link of any email provider
	const emailProviders = ctx.config.providers.filter((provider) => provider.type === 'email') as ResolvedEmailConfig[];
	const maxAge = Math.max(0, ...emailProviders.map((provider) => provider.maxAge));
	await ctx.config.revocation.store.revoke(addressKey(address), ctx.now, maxAge + KEEP_MARGIN_SECONDS, { owner: ownerId });
}

/**
 * Why a sign-in link to `address`, dated `datedAt` (ms, `timeAfterRevocations` of its user when it
 * was made), no longer works for `holderId`, the stored user the sign-in resolved to, or undefined
 * when it does: that user's sessions were revoked after it, or the address moved to its account
 * after it. Store failures are thrown.
 *
 * @example
 * const ended = await signInLinkEnded(ctx, user.id, identifier, issuedAt);
 */
export async function signInLinkEnded(ctx: LinksContext, holderId: string, address: string, datedAt: number): Promise<string | undefined> {
	const { store } = ctx.config.revocation;
	const [revokedAt, movedAt] = await Promise.all([store.revokedAt(holderId, ctx.now), store.revokedAt(addressKey(address), ctx.now)]);
	if (movedAt !== null && datedAt <= movedAt) return 'The sign-in link was made before its address became this account\'s.';
	if (isMadeBeforeRevocation(datedAt, revokedAt)) return 'The sign-in link was made before the account signed out everywhere.';
	return undefined;
}
