// Email magic-link sign-in: sending the one-time link (POST signin/:id), the confirmation page a
// link opens (GET callback/:id, safe for mail scanners) and spending the token (its POST).

import { assertAdapterMethods, type AdapterMethod, type GuardedAdapter } from '../../store/adapter-guard.js';
import { stringField, type RequestBody } from '../../request/body.js';
import { pageOutcome } from '../../response/built-in-pages.js';
import { resolveCallbackUrl } from '../../response/callback-url.js';
import { completeSignIn, neededMethods } from '../complete-sign-in.js';
import { requestCsrf, type RequestContext } from '../../request/context.js';
import { AuthError, CallbackRouteError, EmailSignin, InvalidConfiguration, Verification } from '../../errors.js';
import { failureAnswer } from '../../response/failure-answer.js';
import { pageUrl, type Outcome } from '../../response/outcome.js';
import { rateLimitedOutcome, takeAttempt } from '../../limits/rate-limit.js';
import { timeAfterRevocations } from '../../session/revocation.js';
import { signInLinkEnded } from './sign-in-link-ends.js';
import { normalizeIdentifier } from '../../limits/rate-limit-rules.js';
import { checkSignInAllowed } from '../sign-in-callback.js';
import type { Account, AdapterUser, EmailConfig, VerificationToken } from '../../types.js';
import { resolveMessages } from '../../../pages/messages.js';
import type { ResolvedEmailConfig } from './email-provider.js';
import { isEmailAddress } from './email-identifier.js';
import { MAX_TOKEN_LENGTH, hashVerificationToken } from './email-token.js';

/** Adapter methods sending a link needs, checked before anything is stored. */
const SEND_METHODS: AdapterMethod[] = ['getUserByEmail', 'createVerificationToken', 'useVerificationToken'];
/** Longest address a link may carry, and longest typed value echoed back into the sign-in form. */
const MAX_ECHOED_INPUT = 320;

/**
 * POST signin/:id (CSRF already checked): normalises the address, asks the `signIn` callback
 * (`email.verificationRequest: true`), stores the token's keyed hash, sends the link and redirects
 * to the verify-request page. Known and unknown addresses get the same answer; requests beyond
 * `rateLimit.email` get `RateLimited`, whoever the address belongs to. An address that
 * cannot be used, or a mail that cannot be sent, ends on the sign-in page with `EmailSignin`;
 * a token whose mail was not sent is deleted again.
 *
 * @example
 * case 'email': return startEmailSignIn(ctx, provider, body, await resolveCallbackUrl(ctx, body.callbackUrl));
 */
export async function startEmailSignIn(ctx: RequestContext, provider: EmailConfig, body: RequestBody, callbackUrl: string): Promise<Outcome> {
	const email = provider as ResolvedEmailConfig;
	const adapter = ctx.config.adapter!;
	assertAdapterMethods(adapter, SEND_METHODS);

	const typed = stringField(body, 'email') ?? '';
	let identifier: string;
	try {
		identifier = checkedIdentifier(email.normalizeIdentifier(typed));
	} catch (error) {
		// back to the form with what was typed
		const echoed = typed.slice(0, MAX_ECHOED_INPUT) || undefined;
		const failure = new EmailSignin(error instanceof Error ? error.message : 'Not one valid email address.');
		return failureAnswer(ctx, failure, { callbackUrl, params: { email: echoed } });
	}
	// counted for the address typed, whether or not it has an account: the answer tells nothing
	const attempt = await takeAttempt(ctx, 'email', normalizeIdentifier(identifier));
	if (attempt.limited) return rateLimitedOutcome(ctx, attempt, callbackUrl);

	const holder = await adapterStep(() => adapter.getUserByEmail(identifier), 'Looking up the user by email failed.');
	const user: AdapterUser = holder ?? { id: crypto.randomUUID(), email: identifier, emailVerified: null };
	const account = emailAccount(provider, identifier);
	const denied = await checkSignInAllowed(ctx, { user, account, email: { verificationRequest: true } });
	if (denied) return { type: 'redirect', url: denied.redirect };

	const token = await newToken(email);
	const hashed = hashVerificationToken(token, ctx.config.secrets[0], 'sign-in');
	// dated as sessions are (after a revocation of the holder still ahead): its making time is `expires - maxAge`
	const expires = new Date((holder ? await timeAfterRevocations(ctx, holder.id) : ctx.now) + email.maxAge * 1000);
	await adapterStep(() => adapter.createVerificationToken({ identifier, token: hashed, expires }), 'Storing the sign-in token failed.');

	const url = linkUrl(ctx, provider, { token, email: identifier, callbackUrl });
	try {
		await email.sendVerificationRequest({
			identifier,
			url,
			expires,
			provider: email,
			token,
			theme: ctx.config.theme,
			request: ctx.request,
			locale: ctx.config.locale,
			messages: resolveMessages(ctx.config.locale, ctx.config.messages)
		});
	} catch (error) {
		const discarded = await discardToken(ctx, adapter, identifier, hashed);
		const failure = new EmailSignin(
			`Sending the sign-in email of provider "${provider.id}" failed` +
				(discarded ? '; its one-time token was deleted again.' : '; deleting its one-time token failed too (see the next error).') +
				' Check the mail server settings (`server`) or the custom sendVerificationRequest.',
			{ cause: { err: error } }
		);
		return failureAnswer(ctx, failure, { callbackUrl });
	}
	return { type: 'redirect', url: pageUrl(ctx, 'verifyRequest', { provider: provider.id, type: 'email' }) };
}

/**
 * GET|POST callback/:id. GET (what a click, or a mail scanner, does) shows a confirmation page and
 * spends nothing; its button POSTs (CSRF checked by the route) and only that spends the token:
 * once, for the address it was issued to, before it expires. Then the user is created or found,
 * the `email` account linked, `emailVerified` set on the first success, and the session started.
 * A link that cannot be used is `Verification` (error page), and nothing is written.
 *
 * @example
 * case 'email': return handleEmailCallback(ctx, provider, body);
 */
export async function handleEmailCallback(ctx: RequestContext, provider: EmailConfig, body: RequestBody): Promise<Outcome> {
	return ctx.method === 'POST' ? useLink(ctx, provider, body) : showConfirmation(ctx, provider);
}

/** The confirmation page of a link; the link's fields travel on in its form. */
function showConfirmation(ctx: RequestContext, provider: EmailConfig): Outcome {
	const query = ctx.url.searchParams;
	const { token, identifier } = readLink(query.get('token'), query.get('email'));
	return pageOutcome(ctx, 'verify-email', {
		action: `${ctx.authUrl}/callback/${encodeURIComponent(provider.id)}`,
		csrfToken: requestCsrf(ctx).token,
		token,
		email: identifier,
		callbackUrl: (query.get('callbackUrl') ?? '').slice(0, 2048),
		host: ctx.url.host
	});
}

async function useLink(ctx: RequestContext, provider: EmailConfig, body: RequestBody): Promise<Outcome> {
	const adapter = ctx.config.adapter!;
	const { token, identifier } = readLink(stringField(body, 'token'), stringField(body, 'email'));
	// every method the sign-in may call, so a missing one fails before the token is spent
	assertAdapterMethods(adapter, ['useVerificationToken', 'updateUser', ...neededMethods(ctx)]);
	const callbackUrl = await resolveCallbackUrl(ctx, stringField(body, 'callbackUrl'));

	// failed uses are counted per address, so a short code (a custom generateVerificationToken) cannot be guessed
	const attempt = await takeAttempt(ctx, 'emailToken', normalizeIdentifier(identifier));
	if (attempt.limited) return rateLimitedOutcome(ctx, attempt, callbackUrl);
	const stored = await spendToken(ctx, adapter, identifier, token);
	if (stored) await attempt.succeeded();
	if (!stored) {
		throw new Verification(
			'No unused sign-in token matches this link: it was used already, was issued for another address, ' +
				'was never issued, or the secret it was hashed with is no longer configured.'
		);
	}
	const expires = new Date(stored.expires);
	if (!(expires.getTime() > ctx.now)) {
		throw new Verification(`The sign-in link expired at ${Number.isNaN(expires.getTime()) ? 'an unknown time' : expires.toISOString()}.`);
	}
	const issuedAt = expires.getTime() - (provider as ResolvedEmailConfig).maxAge * 1000;
	return completeSignIn(ctx, {
		provider,
		profile: { email: identifier },
		user: { id: identifier, email: identifier },
		account: emailAccount(provider, identifier),
		callbackUrl,
		// a link saved by someone who once read the mailbox dies when its user signs out everywhere,
		// or when the address moved to this account after it was made
		refuseFor: async (user) => {
			const ended = await signInLinkEnded(ctx, user.id, identifier, issuedAt);
			if (ended) throw new Verification(ended);
		}
	});
}

/**
 * The token and address of a link, or `Verification` when either is missing or oversized. The
 * address is used as written: the link carries the normalised one, and any other value simply
 * matches no stored token (custom `normalizeIdentifier`s need not be idempotent).
 */
function readLink(token: string | null | undefined, email: string | null | undefined): { token: string; identifier: string } {
	if (!token || token.length > MAX_TOKEN_LENGTH || !email || email.length > MAX_ECHOED_INPUT) {
		throw new Verification('The sign-in link lacks its token or address, or carries a malformed one.');
	}
	return { token, identifier: email };
}

/** Uses the link's token once: its hash under the current secret, then under older ones (rotation). */
async function spendToken(
	ctx: RequestContext,
	adapter: GuardedAdapter,
	identifier: string,
	token: string
): Promise<VerificationToken | null> {
	for (const secret of new Set(ctx.config.secrets)) {
		const hashed = hashVerificationToken(token, secret, 'sign-in');
		const stored = await adapterStep(() => adapter.useVerificationToken({ identifier, token: hashed }), 'Using the sign-in token failed.', CallbackRouteError);
		if (stored) return stored;
	}
	return null;
}

/** Deletes a token whose mail was not sent; false (and logged) when that fails too. */
async function discardToken(ctx: RequestContext, adapter: GuardedAdapter, identifier: string, hashed: string): Promise<boolean> {
	try {
		await adapter.useVerificationToken({ identifier, token: hashed });
		return true;
	} catch (error) {
		ctx.config.logger.error(
			new EmailSignin(`Could not delete the unsent sign-in token of ${identifier}; it expires on its own.`, { cause: { err: error } })
		);
		return false;
	}
}

/** A fresh token from the provider's generator, checked. */
async function newToken(provider: ResolvedEmailConfig): Promise<string> {
	const token = await provider.generateVerificationToken();
	if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
		throw new InvalidConfiguration(
			`generateVerificationToken of email provider "${provider.id}" must return a string of 1 to ${MAX_TOKEN_LENGTH} characters.`
		);
	}
	return token;
}

/** `{authUrl}/callback/{id}?token=…&email=…&callbackUrl=…`: everything the confirmation needs. */
function linkUrl(ctx: RequestContext, provider: EmailConfig, fields: { token: string; email: string; callbackUrl: string }): string {
	const url = new URL(`${ctx.authUrl}/callback/${encodeURIComponent(provider.id)}`);
	for (const [name, value] of Object.entries(fields)) url.searchParams.set(name, value);
	return url.href;
}

function emailAccount(provider: EmailConfig, identifier: string): Account {
	return { provider: provider.id, type: 'email', providerAccountId: identifier };
}

/**
 * What `normalizeIdentifier` returned, if it is one email address: a custom normalizer that checks
 * no grammar (as Auth.js's docs show) must not make an identifier of anything else.
 */
function checkedIdentifier(identifier: unknown): string {
	if (typeof identifier !== 'string' || !identifier) throw new EmailSignin('normalizeIdentifier returned no address.');
	if (!isEmailAddress(identifier)) throw new EmailSignin('normalizeIdentifier returned a value that is not one email address.');
	return identifier;
}

/** Runs an adapter call; a failure that is not already a kitgate error becomes `Failure` with its cause. */
async function adapterStep<T>(
	step: () => PromiseLike<T> | T,
	message: string,
	Failure: new (message: string, options?: ErrorOptions) => AuthError = EmailSignin
): Promise<T> {
	try {
		return await step();
	} catch (error) {
		if (error instanceof AuthError) throw error;
		throw new Failure(message, { cause: { err: error } });
	}
}
