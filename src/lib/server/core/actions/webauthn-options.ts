// GET {basePath}/webauthn-options/:provider: the options a browser needs to create or use a passkey.

import type { RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { InvalidProvider } from '../errors.js';
import { webAuthnOptions } from '../flows/passkey/webauthn.js';
import type { Outcome } from '../response/outcome.js';
import { findProvider } from '../request/request-checks.js';

/** Answers the WebAuthn options JSON for a `webauthn` provider. */
export async function getWebAuthnOptions(ctx: RequestContext, providerId: string | undefined, _body: RequestBody): Promise<Outcome> {
	const provider = findProvider(ctx, providerId);
	if (provider.type !== 'webauthn') throw new InvalidProvider(`Provider "${provider.id}" is not a passkey provider.`);
	return webAuthnOptions(ctx, provider);
}
