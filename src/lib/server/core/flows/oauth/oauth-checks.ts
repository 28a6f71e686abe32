// The values that tie an OAuth callback to the browser that started it (PKCE verifier, state, nonce,
// OAuth 1.0a's request token) and the callback URL: short-lived encrypted cookies, bound to the provider, read once.

import * as oauth from 'oauth4webapi';
import type { RequestContext } from '../../request/context.js';
import { expiredCookie } from '../../request/cookies.js';
import { InvalidCheck } from '../../errors.js';
import { decodeJwt, encodeJwt } from '../../crypto/jwt.js';
import type { CookieOption, JWT, OAuthCheck } from '../../types.js';

/** Seconds a sign-in may take at the identity provider before its check cookies expire. */
export const CHECK_MAX_AGE = 15 * 60;

/** The cookies of one sign-in attempt, by what they hold. */
type CheckCookie = 'pkceCodeVerifier' | 'state' | 'nonce' | 'callbackUrl';
const CHECK_COOKIES: readonly CheckCookie[] = ['pkceCodeVerifier', 'state', 'nonce', 'callbackUrl'];

/** Parameters the checks add to the authorization request. */
export interface AuthorizationCheckParams {
	code_challenge?: string;
	code_challenge_method?: 'S256';
	state?: string;
	nonce?: string;
}

/** What the callback compares the provider's answer with, in oauth4webapi's terms. */
export interface ExpectedChecks {
	codeVerifier: string | typeof oauth.nopkce;
	state: string | typeof oauth.expectNoState;
	nonce: string | typeof oauth.expectNoNonce;
	callbackUrl: string;
	/** The user who was signed in when the sign-in started, in this browser (an explicit "connect"). */
	linkRequestedBy?: string;
}

/** What a sign-in start keeps besides the checks. */
export interface SignInStart {
	/** Where to go after the sign-in. */
	callbackUrl: string;
	/** The id of the user signed in now, when there is one: a new account may then join that user. */
	linkUserId?: string;
	/** Wraps the random state (redirect proxy). */
	makeState?: (random: string) => Promise<string> | string;
}

/**
 * Makes fresh values for `checks`, queues their cookies (and the callback URL's, which also carries
 * the signed-in user's id) and returns the parameters for the authorization URL.
 *
 * @example
 * const params = await createChecks(ctx, 'github', ['pkce', 'state'], { callbackUrl: 'https://app.example.com/' });
 * url.searchParams.set('code_challenge', params.code_challenge!);
 */
export async function createChecks(
	ctx: RequestContext,
	providerId: string,
	checks: readonly OAuthCheck[],
	start: SignInStart
): Promise<AuthorizationCheckParams> {
	const { callbackUrl, linkUserId, makeState = (random: string) => random } = start;
	const params: AuthorizationCheckParams = {};
	const values: Partial<Record<CheckCookie, string>> = { callbackUrl };
	if (checks.includes('pkce')) {
		values.pkceCodeVerifier = oauth.generateRandomCodeVerifier();
		params.code_challenge = await oauth.calculatePKCECodeChallenge(values.pkceCodeVerifier);
		params.code_challenge_method = 'S256';
	}
	if (checks.includes('state')) params.state = values.state = await makeState(oauth.generateRandomState());
	if (checks.includes('nonce')) params.nonce = values.nonce = oauth.generateRandomNonce();

	for (const cookie of CHECK_COOKIES) {
		const option = ctx.cookieNames[cookie];
		const value = values[cookie];
		if (value !== undefined) {
			await sealCheckCookie(ctx, option, providerId, { value, ...(cookie === 'callbackUrl' && linkUserId ? { user: linkUserId } : {}) });
		} else {
			// a value left by an earlier attempt with other checks must not be used by this one
			clearCheckCookie(ctx, option);
		}
	}
	return params;
}

/**
 * Reads the check values of the sign-in with `providerId` and queues the removal of every check
 * cookie (single use). Throws `InvalidCheck` when a value `checks` needs is missing, expired,
 * tampered with, or was made for another provider. The callback URL defaults to the site URL.
 *
 * @example
 * const expected = await useChecks(ctx, 'github', ['pkce']);
 * oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, expected.codeVerifier);
 */
export async function useChecks(ctx: RequestContext, providerId: string, checks: readonly OAuthCheck[]): Promise<ExpectedChecks> {
	const values: Partial<Record<CheckCookie, string>> = {};
	let linkRequestedBy: string | undefined;
	for (const cookie of CHECK_COOKIES) {
		const payload = await takeCheckCookie(ctx, ctx.cookieNames[cookie], providerId);
		if (typeof payload?.value !== 'string') continue;
		values[cookie] = payload.value;
		if (cookie === 'callbackUrl' && typeof payload.user === 'string') linkRequestedBy = payload.user;
	}

	const need = (cookie: CheckCookie, label: string): string => {
		const value = values[cookie];
		if (value === undefined) {
			throw new InvalidCheck(
				`The ${label} cookie of this sign-in with "${providerId}" is missing, expired or invalid. ` +
					'Start the sign-in again from this browser (cookies must be enabled).'
			);
		}
		return value;
	};
	return {
		codeVerifier: checks.includes('pkce') ? need('pkceCodeVerifier', 'PKCE code verifier') : oauth.nopkce,
		state: checks.includes('state') ? need('state', 'state') : oauth.expectNoState,
		nonce: checks.includes('nonce') ? need('nonce', 'nonce') : oauth.expectNoNonce,
		// not a check: without it (a form-post return that dropped Lax cookies) the user lands on the site
		callbackUrl: values.callbackUrl ?? ctx.baseUrl,
		linkRequestedBy
	};
}

/**
 * Queues the removal of the check cookies the request carries.
 *
 * @example
 * clearChecks(ctx); // after a failed callback
 */
export function clearChecks(ctx: RequestContext): void {
	for (const cookie of CHECK_COOKIES) clearCheckCookie(ctx, ctx.cookieNames[cookie]);
}

/**
 * Queues `option`'s cookie holding `payload`, encrypted with the secret and bound to `providerId`;
 * cookie and sealed value live no longer than a sign-in may take (`CHECK_MAX_AGE`).
 *
 * @example
 * await sealCheckCookie(ctx, ctx.cookieNames.state, 'github', { value: state });
 */
export async function sealCheckCookie(
	ctx: RequestContext,
	option: CookieOption,
	providerId: string,
	payload: Record<string, unknown>
): Promise<void> {
	// the sealed value expires with its cookie: a copy kept past Max-Age is refused too
	const maxAge = Math.min(option.options.maxAge ?? CHECK_MAX_AGE, CHECK_MAX_AGE);
	const sealed = await encodeJwt({
		token: { ...payload, provider: providerId },
		secret: ctx.config.secrets,
		salt: option.name,
		maxAge,
		now: ctx.now
	});
	ctx.setCookies.push({ name: option.name, value: sealed, options: { ...option.options, maxAge } });
}

/**
 * Reads `option`'s cookie once: what it holds when it is valid and was sealed for `providerId`
 * (else undefined), and its removal is queued either way.
 *
 * @example
 * const payload = await takeCheckCookie(ctx, ctx.cookieNames.state, 'github'); // { value: '…', provider: 'github', … }
 */
export async function takeCheckCookie(ctx: RequestContext, option: CookieOption, providerId: string): Promise<JWT | undefined> {
	const raw = ctx.cookies[option.name];
	clearCheckCookie(ctx, option);
	if (!raw) return undefined;
	const payload = await decodeJwt({ token: raw, secret: ctx.config.secrets, salt: option.name, now: ctx.now });
	return payload?.provider === providerId ? payload : undefined;
}

/**
 * Queues the removal of `option`'s cookie when the request carries it (once).
 *
 * @example
 * clearCheckCookie(ctx, ctx.cookieNames.nonce);
 */
export function clearCheckCookie(ctx: RequestContext, option: CookieOption): void {
	const queued = ctx.setCookies.some((cookie) => cookie.name === option.name);
	if (ctx.cookies[option.name] !== undefined && !queued) ctx.setCookies.push(expiredCookie(option.name, option.options));
}
