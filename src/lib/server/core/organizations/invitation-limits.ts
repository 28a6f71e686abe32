// How many invitations may be sent (docs/organizations.md, "Invitations"): each one mails an address
// the inviter chose, so a member — or a stolen session — must not turn the app into a mail cannon.
// Counted per inviter, per organization and per invited address in the rate-limit store, under
// keys of their own.

import { base64url } from '../crypto/bytes.js';
import { hmac } from '../crypto/hash.js';
import { isRefused, retryAfterSeconds } from '../limits/rate-limit-rules.js';
import { RateLimited } from '../errors.js';
import type { RequestContext } from '../request/context.js';

/** Invitations one member may send per window. */
export const INVITATIONS_PER_INVITER = 20;
/** Invitations one organization may send per window, whoever sends them. */
export const INVITATIONS_PER_ORGANIZATION = 100;
/**
 * Invitations one address may receive per window, from every organization together: several
 * accounts, each with an organization of its own, must not bomb one mailbox (the sign-in and
 * email-change mails are limited per address too, in their own bucket).
 */
export const INVITATIONS_PER_ADDRESS = 5;
/** The window of the limits: one hour. */
export const INVITATION_WINDOW_SECONDS = 60 * 60;

type LimitScope = Pick<RequestContext, 'config' | 'now'>;

/** The store key of a counter: a keyed hash, as the sign-in limits keep theirs. */
function invitationLimitKey(scope: 'inviter' | 'organization' | 'address', value: string, secret: string): string {
	return `kitgate:invitation:${scope}:${base64url(hmac('sha256', secret, `invitation\u0000${scope}\u0000${value}`)).slice(0, 32)}`;
}

/**
 * Counts one invitation of `organizationId` by `inviterId` (null: a server script, counted for the
 * organization only) to the normalized address `email`; `RateLimited` (with the seconds to wait)
 * past any of the limits. Off when the
 * app turned rate limits off (`rateLimit: false`); a failing store lets it through (logged).
 *
 * @example
 * await takeInvitationAttempt(ctx, 'org-1', user.id, 'bo@example.com');
 */
export async function takeInvitationAttempt(ctx: LimitScope, organizationId: string, inviterId: string | null, email: string): Promise<void> {
	const limits = ctx.config.rateLimit;
	// the account bucket stands for "the app wants limits on changes": `rateLimit: false` or `account: false` turns these off too
	if (!limits.account) return;
	const secret = ctx.config.secrets[0];
	const counters = [
		...(inviterId === null ? [] : [{ key: invitationLimitKey('inviter', inviterId, secret), limit: INVITATIONS_PER_INVITER, what: 'inviter' }]),
		{ key: invitationLimitKey('organization', organizationId, secret), limit: INVITATIONS_PER_ORGANIZATION, what: 'organization' },
		{ key: invitationLimitKey('address', email, secret), limit: INVITATIONS_PER_ADDRESS, what: 'address' }
	];
	for (const counter of counters) {
		let count;
		try {
			count = await limits.store.increment(counter.key, INVITATION_WINDOW_SECONDS, ctx.now);
		} catch (error) {
			ctx.config.logger.error(new RateLimited('The rate-limit store failed; the invitation was let through.', { cause: { err: error } }));
			return;
		}
		if (isRefused(count, counter.limit)) {
			throw new RateLimited(`Too many invitations for this ${counter.what}: wait ${retryAfterSeconds(count.resetAt, ctx.now)} seconds.`);
		}
	}
}
