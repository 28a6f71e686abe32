// The email provider: sign in with a one-time link, sent over SMTP with nodemailer (an optional
// peer, loaded on first use) or by your own sender (an HTTP mail API). Export path: `kitgate/providers/email`.

import { PROVIDER_WITH_ENV, missingVariablesError, processEnv, providerEnvPrefix } from '../core/config/env.js';
import { describeUnknownKeys, exactKeys, unknownKeys } from '../core/config/option-keys.js';
import { InvalidConfiguration } from '../core/errors.js';
import { nodeRequire, runtimeName } from '../core/util/runtime.js';
import { DEFAULT_EMAIL_MAX_AGE } from '../core/flows/email/email-provider.js';
import { normalizeEmailIdentifier } from '../core/flows/email/email-identifier.js';
import { randomVerificationToken } from '../core/flows/email/email-token.js';
import type { AccountEmailParams, EmailConfig, ProviderStyle, SendVerificationRequestParams } from '../core/types.js';
import { renderAccountEmail, renderVerificationEmail } from './email-message.js';

export { normalizeEmailIdentifier } from '../core/flows/email/email-identifier.js';
export { renderAccountEmail, renderVerificationEmail, type AccountEmailInput, type VerificationEmail, type VerificationEmailInput } from './email-message.js';

/**
 * SMTP settings as nodemailer's `createTransport` takes them (the common fields are typed here;
 * any other nodemailer option passes through).
 *
 * @example
 * const server: SmtpServerOptions = { host: 'smtp.example.com', port: 587, auth: { user: 'apikey', pass: process.env.SMTP_PASSWORD } };
 */
export interface SmtpServerOptions {
	host?: string;
	port?: number;
	/** True for implicit TLS (port 465); false to upgrade with STARTTLS when offered. */
	secure?: boolean;
	auth?: { user: string; pass: string };
	/** Refuse to send unless the server offers STARTTLS. */
	requireTLS?: boolean;
	/** Never use STARTTLS (local test servers only). */
	ignoreTLS?: boolean;
	tls?: Record<string, unknown>;
	/** Milliseconds to wait for the connection / greeting / any socket activity. */
	connectionTimeout?: number;
	greetingTimeout?: number;
	socketTimeout?: number;
	[option: string]: unknown;
}

/**
 * Options of `Email()`: `server` and `from` for SMTP, or your own `sendVerificationRequest`.
 *
 * @example
 * const options: EmailOptions = { server: 'smtps://user:pass@smtp.example.com', from: 'no-reply@example.com', maxAge: 900 };
 */
export interface EmailOptions {
	/** Provider id (default `email`): part of the URLs, e.g. `/auth/signin/email`. */
	id?: string;
	/** Label of the sign-in button (default `Email`). */
	name?: string;
	style?: ProviderStyle;
	/** Lifetime of a link in seconds (default 24 hours). */
	maxAge?: number;
	/** Makes the one-time token (default: 32 random bytes, hex). */
	generateVerificationToken?: EmailConfig['generateVerificationToken'];
	/** Turns what the user typed into one address, or throws (default: `normalizeEmailIdentifier`). */
	normalizeIdentifier?: EmailConfig['normalizeIdentifier'];
	/** SMTP server: a URL (`smtps://user:pass@smtp.example.com`) or nodemailer transport options (default: `AUTH_EMAIL_SERVER`). */
	server?: string | SmtpServerOptions;
	/** Sender address, e.g. `"Example" <no-reply@example.com>` (default: `AUTH_EMAIL_FROM`, else `no-reply@<host of the link>`). */
	from?: string;
	/** Sends the link yourself (e.g. with an HTTP mail API); then `server` is not used and nodemailer is not needed. */
	sendVerificationRequest?: EmailConfig['sendVerificationRequest'];
	/**
	 * Sends the mails of an email change yourself (see `renderAccountEmail`). With `server`, the
	 * built-in ones go out over SMTP; with your own `sendVerificationRequest` and no
	 * `sendAccountEmail`, email changes are refused (docs/account.md).
	 */
	sendAccountEmail?: EmailConfig['sendAccountEmail'];
}

/** Every option of `Email()`, checked against `EmailOptions` by the compiler. */
const EMAIL_OPTION_KEYS = exactKeys<EmailOptions>()([
	'id', 'name', 'style', 'maxAge', 'generateVerificationToken', 'normalizeIdentifier',
	'server', 'from', 'sendVerificationRequest', 'sendAccountEmail'
]);

/** The part of nodemailer the default sender uses. */
interface MailTransport {
	sendMail(message: { to: string; from: string; subject: string; text: string; html: string }): Promise<unknown>;
}

/**
 * An email provider (default id `email`): the user types an address and gets a link that signs
 * them in once, within `maxAge` seconds (default 24 hours). Needs an adapter (it stores the tokens).
 * With `server`, the built-in mail (see `renderVerificationEmail`) goes out over SMTP with
 * nodemailer; with `sendVerificationRequest`, you send it yourself.
 *
 * @example
 * import Email from 'kitgate/providers/email';
 *
 * Email({ server: process.env.EMAIL_SERVER, from: 'Example <no-reply@example.com>' });
 * // or, with an HTTP mail API:
 * Email({
 *   sendVerificationRequest: async (params) => {
 *     const { subject, text, html } = renderVerificationEmail(params);
 *     const response = await fetch('https://api.mail.example/v1/send', {
 *       method: 'POST',
 *       headers: { authorization: `Bearer ${process.env.MAIL_API_KEY}`, 'content-type': 'application/json' },
 *       body: JSON.stringify({ from: 'no-reply@example.com', to: params.identifier, subject, text, html })
 *     });
 *     if (!response.ok) throw new Error(`mail API answered ${response.status}`);
 *   }
 * });
 */
export default function Email(options: EmailOptions = {}): EmailConfig {
	const build = (env: Record<string, string | undefined>, strict: boolean): EmailConfig => {
		const { sendVerificationRequest, sendAccountEmail, ...rest } = options;
		if (strict) {
			const unknown = unknownKeys(options, EMAIL_OPTION_KEYS);
			if (unknown.length > 0) throw new InvalidConfiguration(`Email provider "${rest.id ?? 'email'}": ${describeUnknownKeys(unknown)}.`);
		}
		const prefix = providerEnvPrefix(rest.id ?? 'email');
		const server = options.server ?? env[`${prefix}_SERVER`];
		const from = options.from ?? env[`${prefix}_FROM`];
		// nothing is required while the app is built: the engine rebuilds this with its environment
		const smtp = sendVerificationRequest === undefined && strict ? smtpSenders(rest.id ?? 'email', server, from) : undefined;
		const send = sendVerificationRequest ?? smtp?.verification ?? notYetResolved;
		// built-in account mails only where the built-in sign-in mail goes out: the same SMTP transport
		const accountSend = sendAccountEmail ?? smtp?.account ?? (sendVerificationRequest === undefined && !strict ? notYetResolved : undefined);
		return {
			id: 'email',
			name: 'Email',
			maxAge: DEFAULT_EMAIL_MAX_AGE,
			generateVerificationToken: randomVerificationToken,
			normalizeIdentifier: normalizeEmailIdentifier,
			...rest,
			...(server !== undefined ? { server } : {}),
			...(from !== undefined ? { from } : {}),
			type: 'email',
			sendVerificationRequest: send,
			...(accountSend ? { sendAccountEmail: accountSend } : {})
		};
	};
	const provider = build(processEnv(), false);
	Object.defineProperty(provider, PROVIDER_WITH_ENV, { value: (env: Record<string, string | undefined>) => build(env, true) });
	return provider;
}

/** The sender of a provider the engine has not resolved yet (it never sends). */
async function notYetResolved(): Promise<never> {
	throw new InvalidConfiguration('This email provider was used without being resolved by kitgate: pass it in `providers`.');
}

export { Email };

/** The default senders: the built-in mails through one nodemailer transport, made on first use. */
function smtpSenders(
	providerId: string,
	server: EmailOptions['server'],
	from: string | undefined
): { verification: EmailConfig['sendVerificationRequest']; account: NonNullable<EmailConfig['sendAccountEmail']> } {
	if (server === undefined || server === null || server === '') {
		const name = `${providerEnvPrefix(providerId)}_SERVER`;
		throw missingVariablesError([
			{
				name,
				what:
					`Email provider "${providerId}" needs \`server\`: an SMTP URL such as smtp://user:pass@smtp.example.com:587 ` +
					`(option \`server\`, or ${name}), or nodemailer transport options; or pass your own \`sendVerificationRequest\`.`
			}
		]);
	}
	if (typeof server !== 'string' && typeof server !== 'object') {
		throw new InvalidConfiguration(`Email provider "${providerId}": \`server\` must be an SMTP URL or an options object.`);
	}
	const load = nodemailerLoader(providerId);
	let transport: MailTransport | undefined;
	const mail = async (to: string, url: string, message: { subject: string; text: string; html: string }) => {
		transport ??= load().createTransport(server as never) as MailTransport;
		await transport.sendMail({ to, from: from ?? `no-reply@${new URL(url).hostname}`, ...message });
	};
	return {
		verification: (params: SendVerificationRequestParams) => mail(params.identifier, params.url, renderVerificationEmail(params)),
		account: (params: AccountEmailParams) => mail(params.identifier, params.url, renderAccountEmail(params))
	};
}

/**
 * Checks now that nodemailer can be found (a missing optional peer fails at start-up, with what to
 * install), and returns a loader that requires it on first send.
 */
function nodemailerLoader(providerId: string): () => { createTransport: (options: unknown) => unknown } {
	const require = nodeRequire(import.meta.url);
	if (!require) {
		throw new InvalidConfiguration(
			`Email provider "${providerId}" sends mail over SMTP with nodemailer, which needs Node.js; this is ${runtimeName()}. ` +
				'Give `sendVerificationRequest` (and `sendAccountEmail` for account mails) that call your mail service\'s HTTP API instead of `server` (docs/deploying.md).'
		);
	}
	try {
		require.resolve('nodemailer');
	} catch (error) {
		throw new InvalidConfiguration(
			`Email provider "${providerId}" sends mail over SMTP with nodemailer, which is not installed: run \`npm install nodemailer\`, ` +
				'or pass your own `sendVerificationRequest`.',
			{ cause: { err: error } }
		);
	}
	return () => require('nodemailer') as { createTransport: (options: unknown) => unknown };
}
