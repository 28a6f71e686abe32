// WebAuthn (passkey) sign-in with @simplewebauthn/server: options with a challenge kept in an
// encrypted cookie (for the button, or for passkey autofill), and verification of registration
// and authentication responses.

import { assertAdapterMethods, type AdapterMethod } from '../../store/adapter-guard.js';
import type { RequestBody } from '../../request/body.js';
import { resolveCallbackUrl, requestedCallbackUrl } from '../../response/callback-url.js';
import { signedInUser } from '../complete-sign-in.js';
import { requireFreshSignInOf } from '../../account/account-session.js';
import type { RequestContext } from '../../request/context.js';
import { sessionMethods } from '../../session/session.js';
import { AccessDenied, InvalidRequest, RateLimited, WebAuthnVerificationError } from '../../errors.js';
import { rateLimitedOutcome, takeAttempt } from '../../limits/rate-limit.js';
import type { Outcome } from '../../response/outcome.js';
import type { PasskeyAction, WebAuthnConfig } from '../../types.js';
import { assertCsrf } from '../../request/request-checks.js';
import { answerWebAuthn, webAuthnFailure } from './webauthn-answer.js';
import { authenticationOptions, verifyAuthentication } from './webauthn-authenticate.js';
import { clientDataChallenge, storeChallenge, takeChallenge } from './webauthn-challenge.js';
import { registrationOptions, verifyRegistration } from './webauthn-register.js';
import { relyingPartyOf } from './webauthn-relying-party.js';
import { normaliseEmail, passkeyUserInfo } from './webauthn-user.js';

/**
 * GET webauthn-options/:provider?action=register|authenticate[&email=][&mediation=conditional] —
 * answers `{ action, options }` and adds the challenge to the challenge cookie. Without `action`:
 * `register` for a signed-in user (adding a passkey), else `authenticate`. The answer never
 * depends on whether an address has an account: authentication always offers every discoverable
 * passkey (no credential ids are listed), and a registration without a session is a new user
 * whatever the email.
 *
 * `mediation=conditional` asks for passkey autofill (an authentication only): a page starts one on
 * every load, so it takes its rate-limit attempt when the callback uses it, not here.
 *
 * @example
 * // GET /auth/webauthn-options/passkey?action=authenticate&mediation=conditional
 * return webAuthnOptions(ctx, provider);
 */
export async function webAuthnOptions(ctx: RequestContext, provider: WebAuthnConfig): Promise<Outcome> {
	return answerWebAuthn(ctx, async () => {
		const adapter = ctx.config.adapter!;
		const query = ctx.url.searchParams;
		const requested = parseAction(query.get('action'));
		const conditional = parseConditional(query.get('mediation'));
		if (conditional && requested === 'register') throw new InvalidRequest('Passkey autofill (`mediation=conditional`) only signs in: `action` must be "authenticate".');
		const email = normaliseEmail(query.get('email'));
		const signedIn = requested === 'authenticate' || conditional ? null : await signedInUser(ctx, adapter);
		const action: PasskeyAction = requested ?? (signedIn ? 'register' : 'authenticate');
		const rp = relyingPartyOf(ctx, provider);
		// every ceremony started counts against the client address, like other sign-in requests
		// (an autofill one when it is used: handleWebAuthnCallback)
		if (!conditional) {
			const attempt = await takeAttempt(ctx, 'passkey', undefined);
			if (attempt.limited) return rateLimitedOutcome(ctx, attempt, undefined, { json: true });
		}

		if (action === 'register') {
			const info = await passkeyUserInfo(ctx, provider, email, signedIn);
			if (!info) throw new InvalidRequest('A passkey is registered for the signed-in user or for an email: give `email` or sign in.');
			// only a custom getUserInfo can name an existing user: adding to it needs its session
			if (info.exists && signedIn?.id !== info.user.id) {
				throw new AccessDenied('A passkey is added to an existing account only by its signed-in user.');
			}
			// a passkey is a way in (and both factors): a stolen, stale session must not add its thief's
			if (info.exists && typeof info.user.id === 'string') await requireFreshSignInOf(ctx, info.user.id, 'Adding a passkey to an account');
			assertAdapterMethods(adapter, callbackMethods(ctx, 'register', !info.exists));
			const { options, state } = await registrationOptions(ctx, provider, rp, info);
			await storeChallenge(ctx, state);
			return { type: 'json', body: { action, options } };
		}
		assertAdapterMethods(adapter, callbackMethods(ctx, 'authenticate', false));
		const { options, state } = await authenticationOptions(ctx, provider, rp, undefined);
		await storeChallenge(ctx, conditional ? { ...state, conditional } : state);
		return { type: 'json', body: { action, options } };
	});
}

/**
 * POST callback/:provider with JSON `{ action, data, csrfToken, callbackUrl? }` — verifies the
 * browser's response against the challenge it signed (one of the browser's outstanding ones) and
 * signs in. Answers `{ url }`, or `{ error }` with a 4xx status. The challenge cookie is cleared
 * whatever the outcome.
 *
 * @example
 * // POST /auth/callback/passkey  { "action": "authenticate", "data": {…}, "csrfToken": "…" }
 * return handleWebAuthnCallback(ctx, provider, body);
 */
export async function handleWebAuthnCallback(ctx: RequestContext, provider: WebAuthnConfig, body: RequestBody): Promise<Outcome> {
	return answerWebAuthn(ctx, async () => {
		if (ctx.method !== 'POST') throw new InvalidRequest('Passkey responses are sent with POST.');
		const state = await takeChallenge(ctx, clientDataChallenge(body.data));
		assertCsrf(ctx, body);
		if (!state) throw new WebAuthnVerificationError('No passkey challenge: it expired, was used already, or was never issued.');
		if (state.provider !== provider.id) throw new WebAuthnVerificationError('The challenge was issued for another provider.');
		if (state.secondFactor) throw new WebAuthnVerificationError('The challenge was issued for a second step, not for a sign-in.');
		if (state.conditional) {
			const attempt = await takeAttempt(ctx, 'passkey', undefined);
			if (attempt.limited) return { ...webAuthnFailure(ctx, new RateLimited(attempt.reason)), headers: { 'retry-after': String(attempt.retryAfter) } };
		}
		const action = body.action === undefined ? state.action : parseAction(body.action);
		if (action !== state.action) throw new WebAuthnVerificationError(`The challenge was issued to ${state.action}, not to ${action}.`);
		const data = body.data;
		if (!data || typeof data !== 'object' || Array.isArray(data)) throw new InvalidRequest('`data` must be the passkey response JSON.');

		const adapter = ctx.config.adapter!;
		assertAdapterMethods(adapter, callbackMethods(ctx, action, Boolean(state.newUser)));
		const callbackUrl = await resolveCallbackUrl(ctx, requestedCallbackUrl(ctx, body));
		const rp = relyingPartyOf(ctx, provider);
		const response = data as Record<string, unknown>;
		return action === 'register'
			? verifyRegistration(ctx, provider, rp, state, response, callbackUrl)
			: verifyAuthentication(ctx, provider, rp, state, response, callbackUrl);
	});
}

/** `mediation=conditional` (passkey autofill); absent or empty is the button's ceremony. */
function parseConditional(value: string | null): boolean {
	if (value === null || value === '') return false;
	if (value === 'conditional') return true;
	throw new InvalidRequest('`mediation` must be "conditional" or absent.');
}

function parseAction(value: unknown): PasskeyAction | undefined {
	if (value === null || value === undefined || value === '') return undefined;
	if (value === 'register' || value === 'authenticate') return value;
	throw new InvalidRequest('`action` must be "register" or "authenticate".');
}

/** Every adapter method a callback may call, checked before its first write (and at options time). */
function callbackMethods(ctx: RequestContext, action: PasskeyAction, newUser: boolean): AdapterMethod[] {
	const methods: AdapterMethod[] =
		action === 'register'
			? ['getAuthenticator', 'createAuthenticator', 'linkAccount', ...(newUser ? (['createUser'] as const) : [])]
			: ['getAuthenticator', 'updateAuthenticatorCounter', 'getUser'];
	return [...methods, ...sessionMethods(ctx)];
}
