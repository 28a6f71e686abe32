// Checks an email provider's options at start-up and fills in the defaults (lifetime, token
// generator, address normalisation), so the flow in ./email.ts can rely on them.

import { InvalidConfiguration } from '../../errors.js';
import type { EmailConfig } from '../../types.js';
import { normalizeEmailIdentifier } from './email-identifier.js';
import { randomVerificationToken } from './email-token.js';

/**
 * Lifetime of a sign-in link when the provider sets none: 24 hours, in seconds.
 *
 * @example
 * const expires = new Date(now + (provider.maxAge ?? DEFAULT_EMAIL_MAX_AGE) * 1000);
 */
export const DEFAULT_EMAIL_MAX_AGE = 24 * 60 * 60;

/**
 * An email provider after `normalizeEmailProvider`: every option the flow reads is set.
 *
 * @example
 * const email = provider as ResolvedEmailConfig; // inside the flow, after resolveConfig
 */
export type ResolvedEmailConfig = EmailConfig &
	Required<Pick<EmailConfig, 'maxAge' | 'generateVerificationToken' | 'normalizeIdentifier'>>;

/**
 * Validates an email provider and returns it with defaults: `maxAge` 24 hours,
 * `generateVerificationToken` (32 random bytes, hex) and `normalizeIdentifier` (one address,
 * trimmed, lower-cased). Throws `InvalidConfiguration` naming the provider and the fix.
 *
 * @example
 * normalizeEmailProvider({ id: 'email', name: 'Email', type: 'email', sendVerificationRequest: send });
 * // → { ..., maxAge: 86400, generateVerificationToken: [Function], normalizeIdentifier: [Function] }
 */
export function normalizeEmailProvider(provider: EmailConfig): ResolvedEmailConfig {
	const fail = (message: string): never => {
		throw new InvalidConfiguration(`Email provider "${provider.id}": ${message}`);
	};
	if (typeof provider.sendVerificationRequest !== 'function') {
		fail('needs a `sendVerificationRequest` function (or use Email({ server, from }) from kitgate/providers/email).');
	}
	const maxAge = provider.maxAge ?? DEFAULT_EMAIL_MAX_AGE;
	if (typeof maxAge !== 'number' || !Number.isFinite(maxAge) || maxAge <= 0) {
		fail(`maxAge must be a positive number of seconds; got ${JSON.stringify(provider.maxAge)}.`);
	}
	for (const name of ['generateVerificationToken', 'normalizeIdentifier'] as const) {
		if (provider[name] !== undefined && typeof provider[name] !== 'function') fail(`${name} must be a function.`);
	}
	return {
		...provider,
		maxAge,
		generateVerificationToken: provider.generateVerificationToken ?? randomVerificationToken,
		normalizeIdentifier: provider.normalizeIdentifier ?? normalizeEmailIdentifier
	};
}
