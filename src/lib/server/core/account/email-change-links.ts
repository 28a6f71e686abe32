// When a user's outstanding email-change links stop working. Each is bound to the address the user
// had when it was made (a change of the address ends it, email-change.ts). Besides, one record per
// user in the revocation store (the one JWT sessions use) holds the time before which every link
// of that user is void: a new link moves it to just before itself (only the newest link works),
// and a credential change moves it to now. Users who asked for no link recently have no record.

import type { RequestContext } from '../request/context.js';
import type { ResolvedEmailConfig } from '../flows/email/email-provider.js';

/** Seconds a record is kept beyond the longest a link lives (clock differences between servers). */
const KEEP_MARGIN_SECONDS = 60;

type LinksContext = Pick<RequestContext, 'config' | 'now'>;

/** The revocation-store key of a user's email-change links (never a user id: the prefix is kitgate's). */
function linksKey(userId: string): string {
	return `kitgate.email-change:${userId}`;
}

async function recordEnd(ctx: LinksContext, userId: string, at: number): Promise<void> {
	const provider = ctx.config.account.emailProvider as ResolvedEmailConfig | undefined;
	const maxAge = provider?.maxAge ?? 24 * 60 * 60;
	await ctx.config.revocation.store.revoke(linksKey(userId), at, maxAge + KEEP_MARGIN_SECONDS, { owner: userId });
}

/**
 * Before a new email-change link of `userId` is made now: every earlier one ends (only the newest
 * works), and credential changes from now on end this one too. Store failures are thrown.
 *
 * @example
 * await startEmailChangeLink(ctx, user.id);
 */
export async function startEmailChangeLink(ctx: LinksContext, userId: string): Promise<void> {
	await recordEnd(ctx, userId, ctx.now - 1);
}

/**
 * Ends every email-change link of `userId` made until now (a credential change): a link made at
 * or before this time is refused when it is confirmed. Nothing is written for a user without
 * links asked for within their lifetime. Store failures are thrown.
 *
 * @example
 * await endEmailChangeLinks(ctx, user.id);
 */
export async function endEmailChangeLinks(ctx: LinksContext, userId: string): Promise<void> {
	if ((await ctx.config.revocation.store.revokedAt(linksKey(userId), ctx.now)) === null) return;
	await recordEnd(ctx, userId, ctx.now);
}

/**
 * True when a link of `userId` made at `issuedAt` (ms) was ended by a newer link or a credential
 * change. Store failures are thrown: a store that cannot answer proves nothing.
 *
 * @example
 * if (await isEmailChangeLinkEnded(ctx, user.id, issuedAt)) throw new Verification('…');
 */
export async function isEmailChangeLinkEnded(ctx: LinksContext, userId: string, issuedAt: number): Promise<boolean> {
	const endedAt = await ctx.config.revocation.store.revokedAt(linksKey(userId), ctx.now);
	return endedAt !== null && issuedAt <= endedAt;
}
