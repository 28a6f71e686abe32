// The passkey challenge between the options route and the callback: an encrypted, httpOnly,
// short-lived cookie holding the challenge, the ceremony, the provider and whom it is for.

import type { RequestContext } from '../context.js';
import { expiredCookie } from '../cookies.js';
import { decodeJwt, encodeJwt } from '../jwt.js';
import type { PasskeyAction } from '../types.js';

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
 * Reads the request's challenge and queues its removal (a challenge is used once, whatever the
 * outcome). Null when it is missing, forged or expired.
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
	return token ? parseChallengeState(token) : null;
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
