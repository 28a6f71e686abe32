// The passkey challenge between the options route and the callback: an encrypted, httpOnly,
// short-lived cookie holding the challenge, the ceremony, the provider and whom it is for.

import { createHash } from 'node:crypto';
import type { RequestContext } from '../../context.js';
import { expiredCookie } from '../../cookies.js';
import { decodeJwt, encodeJwt } from '../../jwt.js';
import type { PasskeyAction } from '../../types.js';

/** What the options route remembers for the callback. */
export interface ChallengeState {
	challenge: string;
	action: PasskeyAction;
	provider: string;
	/** Registration: the user the credential is for (existing or about to be created). Authentication: the user asked for, if any. */
	userId?: string;
	/** Registration of a user who does not exist yet. */
	newUser?: { email: string; name: string | null };
}

/** Seconds a challenge lives when the cookie option sets no `maxAge`. */
const DEFAULT_MAX_AGE = 5 * 60;

/**
 * Queues the challenge cookie: `state` encrypted with the secret, expiring with the cookie.
 *
 * @example
 * await storeChallenge(ctx, { challenge: options.challenge, action: 'authenticate', provider: 'passkey' });
 */
export async function storeChallenge(ctx: RequestContext, state: ChallengeState): Promise<void> {
	const option = ctx.cookieNames.webauthnChallenge;
	const maxAge = option.options.maxAge ?? DEFAULT_MAX_AGE;
	const value = await encodeJwt({ token: { ...state }, secret: ctx.config.secrets, salt: option.name, maxAge, now: ctx.now });
	ctx.setCookies.push({ name: option.name, value, options: { ...option.options, maxAge } });
}

/**
 * Reads the request's challenge and queues its removal. A challenge is used once, whatever the
 * outcome: its first use is recorded in the rate-limit store for its lifetime, so a copied cookie
 * posted again (with a synced passkey's counter of 0, nothing else would notice) is refused. Null
 * when it is missing, forged, expired or used already.
 *
 * @example
 * const state = await takeChallenge(ctx);
 * if (!state) throw new WebAuthnVerificationError('No passkey ceremony in progress.');
 */
export async function takeChallenge(ctx: RequestContext): Promise<ChallengeState | null> {
	const option = ctx.cookieNames.webauthnChallenge;
	const raw = ctx.cookies[option.name];
	ctx.setCookies.push(expiredCookie(option.name, option.options));
	if (!raw) return null;
	const token = await decodeJwt({ token: raw, secret: ctx.config.secrets, salt: option.name, now: ctx.now });
	const state = token ? parseChallengeState(token) : null;
	if (!state || !(await isFirstUse(ctx, state.challenge, option.options.maxAge ?? DEFAULT_MAX_AGE))) return null;
	return state;
}

/** Records the use of `challenge` for `seconds`; true only for its first use (a store that cannot say refuses). */
async function isFirstUse(ctx: RequestContext, challenge: string, seconds: number): Promise<boolean> {
	const key = `kitgate:passkey-challenge:${createHash('sha256').update(challenge).digest('base64url').slice(0, 32)}`;
	try {
		const counted = await ctx.config.rateLimit.store.increment(key, seconds, ctx.now);
		return counted.count === 1 && !counted.refused;
	} catch (error) {
		ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)));
		return false;
	}
}

function parseChallengeState(token: Record<string, unknown>): ChallengeState | null {
	const { challenge, action, provider, userId, newUser } = token;
	if (typeof challenge !== 'string' || typeof provider !== 'string') return null;
	if (action !== 'register' && action !== 'authenticate') return null;
	const state: ChallengeState = { challenge, action, provider };
	if (typeof userId === 'string') state.userId = userId;
	if (newUser && typeof newUser === 'object') {
		const { email, name } = newUser as Record<string, unknown>;
		state.newUser = { email: typeof email === 'string' ? email : '', name: typeof name === 'string' ? name : null };
	}
	return state;
}
