// The invitation limits alone: per inviter, per organization, per invited address, off with the
// account limits, and a failing store that lets invitations through (logged).
import { describe, expect, test } from 'vitest';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import { resolveRateLimit } from '../limits/rate-limit-rules.js';
import type { RequestContext } from '../request/context.js';
import type { RateLimitStore } from '../types.js';
import { INVITATIONS_PER_ADDRESS, INVITATIONS_PER_INVITER, INVITATIONS_PER_ORGANIZATION, takeInvitationAttempt } from './invitation-limits.js';

function scope(store: RateLimitStore = MemoryRateLimitStore(), option: Parameters<typeof resolveRateLimit>[0] = {}) {
	const errors: unknown[] = [];
	const rateLimit = { ...resolveRateLimit(option), store };
	const config = { rateLimit, secrets: ['limits-secret-limits-secret-limits-secret'], logger: { error: (error: unknown) => errors.push(error) } };
	return { ctx: { config, now: Date.UTC(2026, 5, 1) } as unknown as Pick<RequestContext, 'config' | 'now'>, errors };
}

describe('invitation limits', () => {
	test(`an inviter sends ${INVITATIONS_PER_INVITER} an hour; the next is RateLimited, and the window ends it`, async () => {
		const { ctx } = scope();
		for (let sent = 0; sent < INVITATIONS_PER_INVITER; sent++) await takeInvitationAttempt(ctx, 'org-1', 'user-1', `guest${sent}@example.com`);
		await expect(takeInvitationAttempt(ctx, 'org-1', 'user-1', 'one-more@example.com')).rejects.toMatchObject({ type: 'RateLimited' });
		// another inviter of the same organization is not held up by the first
		await takeInvitationAttempt(ctx, 'org-1', 'user-2', 'two@example.com');
		const later = { ...ctx, now: ctx.now + 60 * 60 * 1000 + 1 };
		await takeInvitationAttempt(later, 'org-1', 'user-1', 'later@example.com');
	});

	test(`an organization sends ${INVITATIONS_PER_ORGANIZATION} an hour, whoever sends them`, async () => {
		const { ctx } = scope();
		for (let sent = 0; sent < INVITATIONS_PER_ORGANIZATION; sent++) await takeInvitationAttempt(ctx, 'org-1', `user-${sent % 10}`, `guest${sent}@example.com`);
		await expect(takeInvitationAttempt(ctx, 'org-1', 'user-new', 'new@example.com')).rejects.toMatchObject({ type: 'RateLimited' });
		await expect(takeInvitationAttempt(ctx, 'org-1', null, 'script@example.com')).rejects.toMatchObject({ type: 'RateLimited' });
		await takeInvitationAttempt(ctx, 'org-2', 'user-new', 'new2@example.com');
	});

	test(`an address receives ${INVITATIONS_PER_ADDRESS} an hour, whichever organizations and inviters send them`, async () => {
		const { ctx } = scope();
		for (let sent = 0; sent < INVITATIONS_PER_ADDRESS; sent++) await takeInvitationAttempt(ctx, `org-${sent}`, `user-${sent}`, 'bo@example.com');
		await expect(takeInvitationAttempt(ctx, 'org-new', 'user-new', 'bo@example.com')).rejects.toMatchObject({ type: 'RateLimited' });
		await expect(takeInvitationAttempt(ctx, 'org-new', null, 'bo@example.com')).rejects.toMatchObject({ type: 'RateLimited' });
		await takeInvitationAttempt(ctx, 'org-new', 'user-new', 'other@example.com');
		await takeInvitationAttempt({ ...ctx, now: ctx.now + 60 * 60 * 1000 + 1 }, 'org-new', 'user-new', 'bo@example.com');
	});

	test('rateLimit: false turns them off', async () => {
		const { ctx } = scope(MemoryRateLimitStore(), false);
		for (let sent = 0; sent <= INVITATIONS_PER_INVITER; sent++) await takeInvitationAttempt(ctx, 'org-1', 'user-1', `guest${sent}@example.com`);
	});

	test('a failing store lets the invitation through and is logged', async () => {
		const failing = { increment: () => Promise.reject(new Error('down')), decrement: async () => undefined, reset: async () => undefined } as unknown as RateLimitStore;
		const { ctx, errors } = scope(failing);
		await takeInvitationAttempt(ctx, 'org-1', 'user-1', 'bo@example.com');
		expect(errors).toHaveLength(1);
	});
});
