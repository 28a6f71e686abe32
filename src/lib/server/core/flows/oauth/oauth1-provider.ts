// OAuth 1.0a providers at start-up: which providers sign in with OAuth 1.0a, and the check of
// their settings. Config-time only; the flow itself is `oauth1.ts`.

import { providerEnvPrefix } from '../../config/env.js';
import { InvalidConfiguration } from '../../errors.js';
import type { OAuthConfig } from '../../types.js';
import { isAllowedEndpoint } from './endpoint-rules.js';

/**
 * True for providers that sign in with OAuth 1.0a (`version: "1.0a"` or `"1.0"`).
 *
 * @example
 * isOAuth1Provider(Twitter()) // true; Twitter({ version: "2.0" }) → false
 */
export function isOAuth1Provider(provider: OAuthConfig): boolean {
	return provider.version === '1.0a' || provider.version === '1.0';
}

/**
 * Checks an OAuth 1.0a provider at start-up: consumer key and secret, and `requestToken`,
 * `authorization`, `token` and `userinfo` (URL, or `userinfo.request`) as https URLs (plain http
 * only on loopback). Throws `InvalidConfiguration` saying what to set; returns the provider.
 *
 * @example
 * // flows/oauth/oauth-provider.ts, normalizeOAuthProvider
 * if (isOAuth1Provider(provider)) return checkOAuth1Provider(provider);
 */
export function checkOAuth1Provider(provider: OAuthConfig): OAuthConfig {
	const fail = (message: string): never => {
		throw new InvalidConfiguration(`OAuth 1.0a provider "${provider.id}": ${message}`);
	};
	const prefix = providerEnvPrefix(provider.id);
	if (typeof provider.clientId !== 'string' || !provider.clientId) {
		fail(`\`clientId\` (the consumer key / API key) is required: set ${prefix}_ID or pass \`clientId\`.`);
	}
	if (typeof provider.clientSecret !== 'string' || !provider.clientSecret) {
		fail(`\`clientSecret\` (the consumer secret / API key secret) is required: every request is signed with it. Set ${prefix}_SECRET or pass \`clientSecret\`.`);
	}
	const endpoints: [string, unknown][] = [
		['requestToken', provider.requestToken],
		['authorization', provider.authorization],
		['token', provider.token],
		['userinfo', provider.userinfo]
	];
	for (const [name, option] of endpoints) {
		const handled = name === 'userinfo' && typeof option === 'object' && typeof (option as { request?: unknown }).request === 'function';
		const raw = typeof option === 'string' ? option : (option as { url?: unknown } | undefined)?.url;
		if (raw === undefined && handled) continue;
		const url = typeof raw === 'string' ? URL.parse(raw) : null;
		if (!url) fail(`\`${name}\` must be an absolute URL.`);
		if (!isAllowedEndpoint(url!)) fail(`\`${name}\` must use https (plain http only on 127.0.0.1/localhost); got ${String(raw)}.`);
	}
	for (const name of ['profile', 'account'] as const) {
		if (provider[name] !== undefined && typeof provider[name] !== 'function') fail(`\`${name}\` must be a function.`);
	}
	return provider;
}

