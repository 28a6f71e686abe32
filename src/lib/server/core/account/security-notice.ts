// The mail that tells a user their account's ways in changed (a passkey added or removed, a
// provider connected or disconnected, the second factor, the address, the password): sent to the
// owner's address, where a thief holding a session cannot stop it, linking only to the site.

import type { RequestContext } from '../request/context.js';
import { EmailSignin } from '../errors.js';
import { resolveMessages } from '../../pages/messages.js';
import type { CredentialChange, EmailConfig } from '../types.js';

/** The email provider that can send account mails: the one of email changes, else the only one with `sendAccountEmail`. */
function noticeProvider(ctx: RequestContext): (EmailConfig & Required<Pick<EmailConfig, 'sendAccountEmail'>>) | undefined {
	const chosen = ctx.config.account.emailProvider;
	if (chosen && typeof chosen.sendAccountEmail === 'function') return chosen as EmailConfig & Required<Pick<EmailConfig, 'sendAccountEmail'>>;
	const able = ctx.config.providers.filter((provider): provider is EmailConfig & Required<Pick<EmailConfig, 'sendAccountEmail'>> => provider.type === 'email' && typeof provider.sendAccountEmail === 'function');
	return able.length === 1 ? able[0] : undefined;
}

/**
 * Mails `address` that `change` happened on its account, with a link to the site (built as sign-in
 * links are: the configured `url`/AUTH_URL, or the host a trusted request names). Nothing when
 * there is no address or no email provider that sends account mails; a failure is logged.
 *
 * @example
 * await sendSecurityNotice(ctx, user.email, 'two-factor-removed');
 */
export async function sendSecurityNotice(ctx: RequestContext, address: string | null | undefined, change: CredentialChange, newEmail?: string): Promise<void> {
	const provider = noticeProvider(ctx);
	if (!provider || !address) return;
	try {
		await provider.sendAccountEmail({
			kind: 'security-notice',
			change,
			identifier: address,
			url: ctx.baseUrl,
			// an address change names the new address (maybe a thief's) to the old one
			newEmail: newEmail ?? address,
			provider,
			theme: ctx.config.theme,
			request: ctx.request,
			locale: ctx.config.locale,
			messages: resolveMessages(ctx.config.locale, ctx.config.messages)
		});
	} catch (error) {
		ctx.config.logger.error(new EmailSignin(`Sending the ${change} notice of provider "${provider.id}" failed.`, { cause: { err: error } }));
	}
}

