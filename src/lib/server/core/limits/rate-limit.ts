// Abuse limits of sign-in attempts at request time: an attempt is counted per identifier and per
// client address in the configured store before it is made, and a limited one gets \`RateLimited\`.

import { isThenable } from '../util/awaitable.js';
import { addressLimitKey, clientAddressOf } from './client-address.js';
import type { RequestContext } from '../request/context.js';
import { RateLimited } from '../errors.js';
import { failureAnswer } from '../response/failure-answer.js';
import type { Outcome } from '../response/outcome.js';
import { isRefused, limitKey, retryAfterSeconds, type AttemptKind } from './rate-limit-rules.js';

/** An attempt that went through: say how it ended so successes do not count. */
export interface Attempt {
	limited: false;
	/** A success: the identifier's failures are forgotten and the address's hit is taken back. */
	succeeded(): Promise<void>;
	/** Not the user's fault (the app failed): both hits are taken back. */
	discarded(): Promise<void>;
}

/** An attempt over a limit. */
export interface LimitedAttempt {
	limited: true;
	retryAfter: number;
	/** Why, for the log. */
	reason: string;
}

const noop = async () => {};
const unlimited: Attempt = { limited: false, succeeded: noop, discarded: noop };

/**
 * Counts an attempt of `kind` for `identifier` and the request's client address before it is
 * made, so concurrent attempts cannot slip past the limit together. A store that fails lets the
 * attempt through (logged): an outage of the counters must not stop every sign-in. With
 * `byAddress: false` only the identifier counts (a checked one, such as an admin's id).
 *
 * @example
 * const attempt = await takeAttempt(ctx, 'credentials', 'ada@example.com');
 * if (attempt.limited) return rateLimitedOutcome(ctx, attempt, callbackUrl);
 */
export async function takeAttempt(
	ctx: RequestContext,
	kind: AttemptKind,
	identifier: string | undefined,
	options: { byAddress?: boolean } = {}
): Promise<Attempt | LimitedAttempt> {
	const limits = ctx.config.rateLimit;
	const rule = limits[kind];
	if (!rule) return unlimited;
	const secret = ctx.config.secrets[0];
	const address = rule.perAddress > 0 && options.byAddress !== false ? clientAddressOf(ctx) : undefined;
	const counted: Counted[] = [];
	// the address first: an attempt its address may not make adds no identifier key, so one client
	// cannot fill a bounded store with made-up identifiers
	if (address) counted.push({ key: limitKey(kind, 'ip', addressLimitKey(address), secret), limit: rule.perAddress, scope: 'ip' });
	if (identifier !== undefined && rule.perIdentifier > 0) counted.push({ key: limitKey(kind, 'id', identifier, secret), limit: rule.perIdentifier, scope: 'id' });
	if (counted.length === 0) return unlimited;

	const { store } = limits;
	const now = ctx.now;
	try {
		for (const entry of counted) {
			const counting = store.increment(entry.key, rule.windowSeconds, now);
			// the memory store answers at once: no promise to wait for on every attempt
			const count = isThenable(counting) ? await counting : counting;
			// counting stops at the first refusal
			if (isRefused(count, entry.limit)) {
				const reason = count.refused
					? 'the rate-limit store is full of live counters (raise maxKeys, or use SqlRateLimitStore).'
					: `over the per-${entry.scope === 'id' ? 'identifier' : 'address'} limit.`;
				return { limited: true, retryAfter: retryAfterSeconds(count.resetAt, now), reason: `${kind} attempt refused: ${reason}` };
			}
		}
	} catch (error) {
		ctx.config.logger.error(new RateLimited('The rate-limit store failed; the attempt was let through.', { cause: { err: error } }));
		return unlimited;
	}
	return { limited: false, succeeded: () => takeBack(ctx, counted, true), discarded: () => takeBack(ctx, counted, false) };
}

/** One counter an attempt adds to. */
interface Counted {
	key: string;
	limit: number;
	scope: 'id' | 'ip';
}

/** Takes an attempt's hits back (a success also forgets the identifier's failures); a failing store is logged. */
async function takeBack(ctx: RequestContext, counted: Counted[], resetIdentifier: boolean): Promise<void> {
	const { store } = ctx.config.rateLimit;
	try {
		const pending: PromiseLike<void>[] = [];
		for (const { key, scope } of counted) {
			const done = scope === 'id' && resetIdentifier ? store.reset(key) : store.decrement(key, ctx.now);
			if (isThenable(done)) pending.push(done);
		}
		if (pending.length) await Promise.all(pending);
	} catch (error) {
		ctx.config.logger.error(new RateLimited('The rate-limit store failed to take back a hit.', { cause: { err: error } }));
	}
}

/**
 * The answer to a limited attempt (a `RateLimited` failure with `Retry-After`).
 *
 * @example
 * return rateLimitedOutcome(ctx, attempt, callbackUrl);
 */
export function rateLimitedOutcome(ctx: RequestContext, attempt: LimitedAttempt, callbackUrl: string | undefined, options: { json?: boolean } = {}): Outcome {
	return failureAnswer(ctx, new RateLimited(attempt.reason), { ...options, callbackUrl, headers: { 'retry-after': String(attempt.retryAfter) } });
}
