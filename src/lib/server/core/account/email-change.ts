// Changing the email address of a signed-in user: a link goes to the new address only (built from
// the app's public URL, as sign-in links are), the old address is told, and only the same user,
// signed in, can confirm it. A link is a stored one-time token bound to the user and the address.

import { stringField, type RequestBody } from '../request/body.js';
import { pageUrl, type Outcome } from '../response/outcome.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import { EmailSignin, InvalidConfiguration, InvalidRequest, Verification } from '../errors.js';
import { emitEvent } from '../config/events.js';
import { hashVerificationToken, MAX_TOKEN_LENGTH, randomVerificationToken } from '../flows/email/email-token.js';
import type { ResolvedEmailConfig } from '../flows/email/email-provider.js';
import { rateLimitedOutcome, takeAttempt } from '../limits/rate-limit.js';
import { normalizeIdentifier } from '../limits/rate-limit-rules.js';
import { reissueJwtSession } from '../session/session.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import type { AccountEmailParams, AdapterUser, EmailConfig } from '../types.js';
import { renderPage, pageSecurityHeaders } from '../../pages/render.js';
import { afterCredentialChange, keepsOtherSessions } from './credential-change.js';
import { isEmailChangeLinkEnded, startEmailChangeLink } from './email-change-links.js';
import { isEmailAddress } from '../flows/email/email-identifier.js';
import { endSignInLinksTo } from '../flows/email/sign-in-link-ends.js';
import { resolveMessages } from '../../pages/messages.js';
import { requireFreshSignIn, type AccountSession } from './account-session.js';

/** Longest address kept from a request. */
const MAX_ADDRESS_LENGTH = 320;

/**
 * The identifier an email-change token is stored under: bound to the user and the new address, so
 * only that user, signed in, can spend it, and no sign-in link (whose identifier is an address) is one.
 *
 * @example
 * emailChangeIdentifier('user-1', 'new@example.com'); // 'kitgate:email-change:user-1:new@example.com'
 */
export function emailChangeIdentifier(userId: string, email: string): string {
	return `kitgate:email-change:${userId}:${email}`;
}

/** The email provider that sends the mails, or a `Configuration` error saying why email changes are off. */
function emailProvider(ctx: RequestContext): ResolvedEmailConfig & Required<Pick<EmailConfig, 'sendAccountEmail'>> {
	const provider = ctx.config.account.emailProvider;
	if (!provider) throw new InvalidConfiguration(`Email changes are off: ${ctx.config.account.emailChangeOff ?? 'no email provider'}.`);
	if (typeof provider.sendAccountEmail !== 'function') {
		throw new InvalidConfiguration(
			`Email provider "${provider.id}" has no \`sendAccountEmail\`, which sends the mails of an email change (docs/account.md).`
		);
	}
	return provider as ResolvedEmailConfig & Required<Pick<EmailConfig, 'sendAccountEmail'>>;
}

/**
 * Starts an email change (`{ email }`): needs a recent sign-in. The confirmation link goes to the
 * new address and a notice to the old one. When another user has the address, that address gets a
 * note instead of the link, the old one the same notice, and the answer is the same (nothing tells
 * about other accounts). Returns a
 * `RateLimited` outcome when too many links were asked for this address.
 *
 * @example
 * const limited = await requestEmailChange(ctx, session, { email: 'new@example.com' });
 */
export async function requestEmailChange(ctx: RequestContext, session: AccountSession, body: RequestBody, returnTo: string): Promise<Outcome | undefined> {
	const provider = emailProvider(ctx);
	const typed = stringField(body, 'email');
	if (!typed || typed.length > MAX_ADDRESS_LENGTH) throw new InvalidRequest('`email` is the new address.');
	let email: string;
	try {
		email = provider.normalizeIdentifier(typed);
	} catch (error) {
		throw new EmailSignin(error instanceof Error ? error.message : 'Not one valid email address.');
	}
	// whatever a custom normalizer returns, only an address becomes one
	if (!isEmailAddress(email) || email.length > MAX_ADDRESS_LENGTH) throw new EmailSignin('Not one valid email address.');
	requireFreshSignIn(ctx, session, 'Changing the email address');
	const { user } = session;
	if (email === user.email) throw new InvalidRequest('This is already the account\'s address.');
	// every request mails the address typed: counted as email links are
	const attempt = await takeAttempt(ctx, 'email', normalizeIdentifier(email));
	if (attempt.limited) return rateLimitedOutcome(ctx, attempt, returnTo);

	const adapter = ctx.config.adapter!;
	const holder = await adapter.getUserByEmail(email);
	if (holder && holder.id !== user.id) {
		await send(ctx, provider, { kind: 'email-in-use', identifier: email, url: ctx.baseUrl, newEmail: email });
		// the old address is told in both cases: its mailbox must not tell whether the new one is taken
		await tellOldAddress(ctx, provider, user, email);
		return undefined;
	}
	const token = randomVerificationToken();
	const expires = new Date(ctx.now + provider.maxAge * 1000);
	const identifier = emailChangeIdentifier(user.id, email);
	const hashed = changeTokenHash(token, ctx.config.secrets[0], user, email);
	// only the newest link works, and credential changes from now on end it
	await startEmailChangeLink(ctx, user.id);
	await adapter.createVerificationToken({ identifier, token: hashed, expires });
	const url = new URL(`${ctx.authUrl}/account/confirm-email`);
	url.searchParams.set('token', token);
	url.searchParams.set('email', email);
	url.searchParams.set('callbackUrl', returnTo);
	try {
		await send(ctx, provider, { kind: 'confirm-email-change', identifier: email, url: url.href, newEmail: email, expires });
	} catch (error) {
		await Promise.resolve(adapter.useVerificationToken({ identifier, token: hashed })).catch(() => undefined);
		throw error;
	}
	await tellOldAddress(ctx, provider, user, email);
	return undefined;
}

/** The notice to the account's current address that a change to `email` was asked for; a failure is logged, not answered. */
async function tellOldAddress(
	ctx: RequestContext,
	provider: ResolvedEmailConfig & Required<Pick<EmailConfig, 'sendAccountEmail'>>,
	user: AccountSession['user'],
	email: string
): Promise<void> {
	if (!user.email) return;
	await send(ctx, provider, { kind: 'email-change-notice', identifier: user.email, url: ctx.baseUrl, newEmail: email }).catch((error: unknown) => {
		ctx.config.logger.error(new EmailSignin('Could not tell the old address about an email change.', { cause: { err: error } }));
	});
}

async function send(
	ctx: RequestContext,
	provider: ResolvedEmailConfig & Required<Pick<EmailConfig, 'sendAccountEmail'>>,
	params: Pick<AccountEmailParams, 'kind' | 'identifier' | 'url' | 'newEmail' | 'expires'>
): Promise<void> {
	try {
		await provider.sendAccountEmail({
			...params,
			provider,
			theme: ctx.config.theme,
			request: ctx.request,
			locale: ctx.config.locale,
			messages: resolveMessages(ctx.config.locale, ctx.config.messages)
		});
	} catch (error) {
		throw new EmailSignin(`Sending the ${params.kind} mail of provider "${provider.id}" failed.`, { cause: { err: error } });
	}
}

/**
 * The page an email-change link opens (GET): signed in, a button that confirms (its POST spends the
 * token); signed out, the sign-in page, coming back here. Opening the link spends nothing.
 *
 * @example
 * return showEmailConfirmation(ctx, session);
 */
export function showEmailConfirmation(ctx: RequestContext, session: AccountSession | null): Outcome {
	const query = ctx.url.searchParams;
	const { token, email } = readLink(query.get('token'), query.get('email'));
	if (!session) return { type: 'redirect', url: pageUrl(ctx, 'signIn', { callbackUrl: ctx.url.href }) };
	const { locale, messages, theme } = ctx.config;
	const table = resolveMessages(locale, messages);
	// the sign-in confirmation page, with the texts of an email change
	const texts = {
		...table,
		'confirm.title': table['account.confirmEmail.title'],
		'confirm.body': table['account.confirmEmail.body'],
		'confirm.button': table['account.confirmEmail.button'],
		'confirm.hint': table['account.confirmEmail.hint']
	};
	const props = {
		theme,
		messages: texts,
		lang: locale ?? 'en',
		action: `${ctx.authUrl}/account/confirm-email`,
		csrfToken: requestCsrf(ctx).token,
		token,
		email,
		callbackUrl: (query.get('callbackUrl') ?? '').slice(0, 2048),
		host: ctx.url.host,
		offerKeepOtherSessions: true
	};
	return { type: 'html', html: renderPage('verify-email', props), headers: pageSecurityHeaders('verify-email', props) };
}

/**
 * Confirms an email change (`{ token, email }`): the token must have been issued to this user for
 * this address while the account had the address it has now, be unused and unexpired, and no
 * credential change may have come after it (`endEmailChangeLinks`). The address becomes the user's, proven (`updateUser`);
 * an `email` account of the old address is unlinked (it would still sign in). Returns a
 * `RateLimited` outcome past the limit of wrong tokens.
 *
 * @example
 * await confirmEmailChange(ctx, session, { token, email });
 */
export async function confirmEmailChange(ctx: RequestContext, session: AccountSession, body: RequestBody, returnTo: string): Promise<Outcome | undefined> {
	const provider = emailProvider(ctx);
	const { token, email } = readLink(stringField(body, 'token'), stringField(body, 'email'));
	const adapter = ctx.config.adapter!;
	const { user } = session;
	const attempt = await takeAttempt(ctx, 'emailToken', normalizeIdentifier(email));
	if (attempt.limited) return rateLimitedOutcome(ctx, attempt, returnTo);
	const identifier = emailChangeIdentifier(user.id, email);
	let stored = null;
	for (const secret of new Set(ctx.config.secrets)) {
		stored = await adapter.useVerificationToken({ identifier, token: changeTokenHash(token, secret, user, email) });
		if (stored) break;
	}
	if (!stored) {
		throw new Verification(
			'No unused email-change token matches this link for the signed-in user: used already, expired, issued to another user or address, ' +
				'or the account\'s address changed since it was made.'
		);
	}
	await attempt.succeeded();
	const expires = new Date(stored.expires).getTime();
	if (expires <= ctx.now) throw new Verification('The email-change link has expired.');
	if (await isEmailChangeLinkEnded(ctx, user.id, expires - provider.maxAge * 1000)) {
		throw new Verification('The email-change link was ended by a newer one, or by a change to the account\'s ways in.');
	}
	const previous = user.email;
	let updated: AdapterUser;
	try {
		updated = await adapter.updateUser({ id: user.id, email, emailVerified: new Date(ctx.now) });
	} catch (error) {
		if (isUniqueViolation(error)) throw new Verification('Another user took this address meanwhile.', { cause: { err: error } });
		throw error;
	}
	await emitEvent(ctx, 'updateUser', { user: updated });
	// a sign-in link to the new address asked for before it became this account's must not open it
	await endSignInLinksTo(ctx, email, user.id);
	if (previous) await unlinkOldEmailAccounts(ctx, updated, previous);
	// this browser's JWT session carries the address: issue it again with the new one
	const reissued = session.stored.strategy === 'jwt' ? { ...session.stored.token, email } : undefined;
	const keepOtherSessions = keepsOtherSessions(body);
	if (reissued && keepOtherSessions) await reissueJwtSession(ctx, reissued);
	// the old address is told: whoever changed it may not be its owner
	await afterCredentialChange(ctx, session, 'email-changed', { keepOtherSessions, token: reissued, notify: previous || null, newEmail: email });
	return undefined;
}

/** Email accounts of the old address would still sign in as this user: they go. */
async function unlinkOldEmailAccounts(ctx: RequestContext, user: AdapterUser, previous: string): Promise<void> {
	const adapter = ctx.config.adapter!;
	const accounts = await adapter.listAccountsByUserId(user.id);
	for (const account of accounts) {
		if (account.type !== 'email' || account.providerAccountId !== previous) continue;
		await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId });
		await emitEvent(ctx, 'unlinkAccount', { user, account });
	}
}

/**
 * The stored hash of an email-change token: its purpose, the user, the address the user has now and
 * the new one are bound into it, so it matches no sign-in token and stops matching once the
 * account's address changes (by this link, another, or any other way).
 */
function changeTokenHash(token: string, secret: string, user: Pick<AdapterUser, 'id' | 'email'>, newEmail: string): string {
	return hashVerificationToken(token, secret, 'email-change', [user.id, user.email ?? '', newEmail]);
}

function readLink(token: string | null | undefined, email: string | null | undefined): { token: string; email: string } {
	if (!token || token.length > MAX_TOKEN_LENGTH || !email || email.length > MAX_ADDRESS_LENGTH) {
		throw new Verification('The email-change link lacks its token or address, or carries a malformed one.');
	}
	return { token, email };
}
