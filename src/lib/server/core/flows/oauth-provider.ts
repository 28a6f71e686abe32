// Normalises an OAuth 2 / OIDC provider's options at start-up (defaults for checks and the like).
// The protocol steps themselves live in ./oauth.ts.

import { InvalidConfiguration } from '../errors.js';
import type { OAuthConfig } from '../types.js';

/** Validates and fills in defaults of an OAuth/OIDC provider. */
export function normalizeOAuthProvider(provider: OAuthConfig): OAuthConfig {
	if (!provider.issuer && !provider.wellKnown && !provider.authorization) {
		throw new InvalidConfiguration(
			`OAuth provider "${provider.id}" needs \`issuer\`, \`wellKnown\` or an \`authorization\` endpoint.`
		);
	}
	return { ...provider, checks: provider.checks ?? ['pkce'] };
}
