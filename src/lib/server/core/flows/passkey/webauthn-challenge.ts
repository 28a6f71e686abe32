// The passkey challenges between the options route and the callback: an encrypted, httpOnly,
// short-lived cookie holding the few latest challenges this browser was given (the ceremony, the
// provider and whom each is for). Several are outstanding at once when a page runs passkey
// autofill beside its button, or two tabs sign in; the callback takes the one its response signed.

import { base64url, fromAnyBase64, stringsEqual, utf8Text } from '../../crypto/bytes.js';
import { digest } from '../../crypto/hash.js';
import type { RequestContext } from '../../request/context.js';
import { expiredCookie } from '../../request/cookies.js';
import { decodeJwt, encodeJwt } from '../../crypto/jwt.js';
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
	/** Issued for passkey autofill (conditional mediation): its rate-limit attempt is taken when it is used, not when issued. */
	conditional?: boolean;
	/** Issued to finish a pending sign-in (this `signInId`) with a passkey as its second factor: never a sign-in of its own. */
	secondFactor?: string;
}

/** Seconds a challenge lives when the cookie option sets no `maxAge`. */
const DEFAULT_MAX_AGE = 5 * 60;

/** How many challenges a browser may hold at once: autofill, a button, another tab. Older ones are dropped. */
export const OUTSTANDING_CHALLENGES = 3;

/** A stored challenge with the second it expires at (each keeps its own lifetime, whatever is added later). */
type StoredState = ChallengeState & { expiresAt: number };

/**
 * Queues the challenge cookie: `state` first, then the request's other unexpired challenges (at
 * most `OUTSTANDING_CHALLENGES` in all), encrypted with the secret.
 *
 * @example
 * await storeChallenge(ctx, { challenge: options.challenge, action: 'authenticate', provider: 'passkey' });
 */
export async function storeChallenge(ctx: RequestContext, state: ChallengeState): Promise<void> {
	const option = ctx.cookieNames.webauthnChallenge;
	const maxAge = option.options.maxAge ?? DEFAULT_MAX_AGE;
	const nowSeconds = Math.floor(ctx.now / 1000);
	const kept = await readStates(ctx);
	const states: StoredState[] = [{ ...state, expiresAt: nowSeconds + maxAge }, ...kept].slice(0, OUTSTANDING_CHALLENGES);
	const value = await encodeJwt({ token: { states }, secret: ctx.config.secrets, salt: option.name, maxAge, now: ctx.now });
	ctx.setCookies.push({ name: option.name, value, options: { ...option.options, maxAge } });
}

/**
 * Takes the request's challenge `challenge` (the one the browser's response signed) and queues
 * the removal of the whole cookie. A challenge is used once, whatever the outcome: its first use
 * is recorded in the rate-limit store for its lifetime, so a copied cookie posted again (with a
 * synced passkey's counter of 0, nothing else would notice) is refused. Null when it is missing,
 * forged, expired, used already, or not among the browser's challenges.
 *
 * @example
 * const state = await takeChallenge(ctx, clientDataChallenge(body.data));
 * if (!state) throw new WebAuthnVerificationError('No passkey ceremony in progress.');
 */
export async function takeChallenge(ctx: RequestContext, challenge: string | undefined): Promise<ChallengeState | null> {
	const option = ctx.cookieNames.webauthnChallenge;
	const states = await readStates(ctx);
	ctx.setCookies.push(expiredCookie(option.name, option.options));
	if (challenge === undefined) return null;
	// constant time: the stored challenges are compared with what a client sent
	const found = states.find((state) => stringsEqual(state.challenge, challenge));
	if (!found || !(await isFirstUse(ctx, found.challenge, option.options.maxAge ?? DEFAULT_MAX_AGE))) return null;
	const { expiresAt: _expiresAt, ...state } = found;
	return state;
}

/**
 * The challenge a WebAuthn response signed: `challenge` of its base64url `clientDataJSON`.
 * Undefined for anything that is not such a response (the callback then refuses it).
 *
 * @example
 * clientDataChallenge({ response: { clientDataJSON: 'eyJjaGFsbGVuZ2UiOiJhYmMifQ' } }) // 'abc'
 */
export function clientDataChallenge(data: unknown): string | undefined {
	const encoded = (data as { response?: { clientDataJSON?: unknown } } | null | undefined)?.response?.clientDataJSON;
	if (typeof encoded !== 'string' || !encoded) return undefined;
	try {
		const bytes = fromAnyBase64(encoded);
		const clientData: unknown = bytes ? JSON.parse(utf8Text(bytes)) : undefined;
		const challenge = (clientData as { challenge?: unknown } | null)?.challenge;
		return typeof challenge === 'string' && challenge ? challenge : undefined;
	} catch {
		return undefined;
	}
}

/** The unexpired challenges of the request's cookie, newest first; none when it is missing or forged. */
async function readStates(ctx: RequestContext): Promise<StoredState[]> {
	const option = ctx.cookieNames.webauthnChallenge;
	const raw = ctx.cookies[option.name];
	if (!raw) return [];
	const token = await decodeJwt({ token: raw, secret: ctx.config.secrets, salt: option.name, now: ctx.now });
	const stored = token?.states;
	if (!Array.isArray(stored)) return [];
	const nowSeconds = Math.floor(ctx.now / 1000);
	return stored.map(parseStoredState).filter((state): state is StoredState => state !== null && state.expiresAt > nowSeconds);
}

/** Records the use of `challenge` for `seconds`; true only for its first use (a store that cannot say refuses). */
async function isFirstUse(ctx: RequestContext, challenge: string, seconds: number): Promise<boolean> {
	const key = `kitgate:passkey-challenge:${base64url(digest('sha256', challenge)).slice(0, 32)}`;
	try {
		const counted = await ctx.config.rateLimit.store.increment(key, seconds, ctx.now);
		return counted.count === 1 && !counted.refused;
	} catch (error) {
		ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)));
		return false;
	}
}

function parseStoredState(value: unknown): StoredState | null {
	if (!value || typeof value !== 'object') return null;
	const { challenge, action, provider, userId, newUser, conditional, secondFactor, expiresAt } = value as Record<string, unknown>;
	if (typeof challenge !== 'string' || typeof provider !== 'string' || typeof expiresAt !== 'number') return null;
	if (action !== 'register' && action !== 'authenticate') return null;
	const state: StoredState = { challenge, action, provider, expiresAt };
	if (typeof userId === 'string') state.userId = userId;
	if (newUser && typeof newUser === 'object') {
		const { email, name } = newUser as Record<string, unknown>;
		state.newUser = { email: typeof email === 'string' ? email : '', name: typeof name === 'string' ? name : null };
	}
	if (conditional === true) state.conditional = true;
	if (typeof secondFactor === 'string') state.secondFactor = secondFactor;
	return state;
}
