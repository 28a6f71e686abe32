// GET {basePath}/providers: the configured providers with their sign-in and callback URLs, as JSON.

import type { RequestContext } from '../request/context.js';
import type { Outcome } from '../response/outcome.js';

/** Lists providers as `{ [id]: { id, name, type, signinUrl, callbackUrl } }`. */
export function listProviders(ctx: RequestContext): Outcome {
	const body = Object.fromEntries(
		ctx.config.providers.map((p) => [
			p.id,
			{
				id: p.id,
				name: p.name,
				type: p.type,
				signinUrl: `${ctx.authUrl}/signin/${p.id}`,
				callbackUrl: `${ctx.authUrl}/callback/${p.id}`
			}
		])
	);
	return { type: 'json', body };
}
