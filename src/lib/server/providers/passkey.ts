// The passkey provider: sign in with WebAuthn credentials (experimental, needs an adapter).
// Export path: `kitgate/providers/passkey`.

import { WEBAUTHN_LIBRARY } from '../core/flows/passkey/webauthn-library.js';
import type { WebAuthnConfig } from '../core/types.js';

/** Options of `Passkey()`: everything of a WebAuthn provider, all optional. */
export type PasskeyOptions = Partial<
	Pick<WebAuthnConfig, 'id' | 'name' | 'style' | 'relyingParty' | 'userVerification' | 'authenticatorSelection' | 'timeout' | 'getUserInfo'>
>;

/**
 * A passkey provider (default id `passkey`, name "Passkey"). Needs
 * `experimental: { enableWebAuthn: true }` and an adapter with the authenticator methods.
 *
 * The relying party defaults to the request's public URL (host name as RP ID, origin as the
 * expected origin). Behind a proxy, set `trustHost` (so X-Forwarded-Host/-Proto count) or
 * `AUTH_URL`, or fix `relyingParty.id` and `relyingParty.origin` here.
 *
 * @example
 * Passkey({
 *   relyingParty: { name: "Example", id: "example.com", origin: "https://example.com" },
 *   userVerification: "required"
 * })
 */
export default function Passkey(options: PasskeyOptions = {}): WebAuthnConfig {
	return {
		id: 'passkey',
		name: 'Passkey',
		...options,
		type: 'webauthn',
		// the library comes with the provider: a bundle without a passkey provider never carries it
		[WEBAUTHN_LIBRARY]: () => import('@simplewebauthn/server')
	} as WebAuthnConfig;
}

export { Passkey };
export { defaultPasskeyUserInfo } from '../core/flows/passkey/webauthn-user.js';
