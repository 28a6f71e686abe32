// The invitation limits alone: per inviter, per organization, off with the account limits, and a
// failing store that lets invitations through (logged).
import { describe, expect, test } from 'vitest';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import { resolveRateLimit } from '../limits/rate-limit-rules.js';
import type { RequestContext } from '../request/context.js';
import type { RateLimitStore } from '../types.js';
import { INVITATIONS_PER_INVITER, INVITATIONS_PER_ORGANIZATION, takeInvitationAttempt } from './invitation-limits.js';

function scope(store: RateLimitStore = MemoryRateLimitStore(), option: Parameters<typeof resolveRateLimit>[0] = {}) {
	const errors: unknown[] = [];
	const rateLimit = { ...resolveRateLimit(option), store };
	const config = { rateLimit, secrets: ['limits-secret-limits-secret-limits-secret'], logger: { error: (error: unknown) => errors.push(error) } };
	return { ctx: { config, now: Date.UTC(2026, 5, 1) } as unknown as Pick<RequestContext, 'config' | 'now'>, errors };
}

describe('invitation limits', () => {
	test(`an inviter sends ${INVITATIONS_PER_INVITER} an hour; the next is RateLimited, and the window ends it`, async () => {
		const { ctx } = scope();
		for (let sent = 0; sent < INVITATIONS_PER_INVITER; sent++) await takeInvitationAttempt(ctx, 'org-1', 'user-1');
		await expect(takeInvitationAttempt(ctx, 'org-1', 'user-1')).rejects.toMatchObject({ type: 'RateLimited' });
		// another inviter of the same organization is not held up by the first
		await takeInvitationAttempt(ctx, 'org-1', 'user-2');
		const later = { ...ctx, now: ctx.now + 60 * 60 * 1000 + 1 };
		await takeInvitationAttempt(later, 'org-1', 'user-1');
	});

	test(`an organization sends ${INVITATIONS_PER_ORGANIZATION} an hour, whoever sends them`, async () => {
		const { ctx } = scope();
		for (let sent = 0; sent < INVITATIONS_PER_ORGANIZATION; sent++) await takeInvitationAttempt(ctx, 'org-1', `user-${sent % 10}`);
		await expect(takeInvitationAttempt(ctx, 'org-1', 'user-new')).rejects.toMatchObject({ type: 'RateLimited' });
		await expect(takeInvitationAttempt(ctx, 'org-1', null)).rejects.toMatchObject({ type: 'RateLimited' });
		await takeInvitationAttempt(ctx, 'org-2', 'user-new');
	});

	test('rateLimit: false turns them off', async () => {
		const { ctx } = scope(MemoryRateLimitStore(), false);
		for (let sent = 0; sent <= INVITATIONS_PER_INVITER; sent++) await takeInvitationAttempt(ctx, 'org-1', 'user-1');
	});

	test('a failing store lets the invitation through and is logged', async () => {
		const failing = { increment: () => Promise.reject(new Error('down')), decrement: async () => undefined, reset: async () => undefined } as unknown as RateLimitStore;
		const { ctx, errors } = scope(failing);
		await takeInvitationAttempt(ctx, 'org-1', 'user-1');
		expect(errors).toHaveLength(1);
	});
});
