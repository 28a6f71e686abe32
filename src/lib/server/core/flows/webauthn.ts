// WebAuthn (passkey) sign-in with @simplewebauthn/server: options with a stored challenge, and
// verification of registration and authentication responses. (Being implemented; see issue 7.)

import type { RequestBody } from '../body.js';
import type { RequestContext } from '../context.js';
import { InvalidProvider } from '../errors.js';
import type { Outcome } from '../outcome.js';
import type { WebAuthnConfig } from '../types.js';

/** GET webauthn-options/:provider?action=register|authenticate — options JSON. */
export async function webAuthnOptions(_ctx: RequestContext, provider: WebAuthnConfig): Promise<Outcome> {
	throw new InvalidProvider(`Passkeys with "${provider.id}" are not available yet.`);
}

/** POST callback/:provider — verifies a registration or authentication response. */
export async function handleWebAuthnCallback(_ctx: RequestContext, provider: WebAuthnConfig, _body: RequestBody): Promise<Outcome> {
	throw new InvalidProvider(`Passkeys with "${provider.id}" are not available yet.`);
}
