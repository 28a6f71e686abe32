// The relying party of a passkey provider for one request: RP ID, display name and the origins
// responses must come from. Defaults follow the request's public URL (AUTH_URL / trustHost).

import type { RequestContext } from '../../request/context.js';
import type { WebAuthnConfig } from '../../types.js';

/** The relying party as the ceremony uses it. */
export interface RelyingParty {
	/** RP ID: the domain credentials are scoped to. */
	id: string;
	/** Name the authenticator shows. */
	name: string;
	/** Origins a response may come from. */
	origins: string[];
}

/**
 * The provider's relying party, with defaults from the public URL of the request: RP ID = its
 * host name, origin = its origin, name = the RP ID.
 *
 * @example
 * const rp = relyingPartyOf(ctx, provider); // { id: 'example.com', name: 'example.com', origins: ['https://example.com'] }
 */
export function relyingPartyOf(ctx: RequestContext, provider: WebAuthnConfig): RelyingParty {
	const options = provider.relyingParty ?? {};
	const id = options.id ?? ctx.url.hostname;
	const origins = options.origin === undefined ? [ctx.origin] : Array.isArray(options.origin) ? options.origin : [options.origin];
	return { id, name: options.name ?? id, origins };
}
