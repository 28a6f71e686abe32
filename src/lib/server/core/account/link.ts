// Starts the explicit link of another OAuth/OIDC provider to the signed-in user: the provider's own
// sign-in, with the user's id sealed into the flow's check cookie (bound to user and browser).

import { stringField, type RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { InvalidProvider, InvalidRequest } from '../errors.js';
import { oauthFlow } from '../flows/oauth/oauth-flow.js';
import type { Outcome } from '../response/outcome.js';
import { requireFreshSignIn, type AccountSession } from './account-session.js';
import { markLinkIntent } from './link-intent.js';

/**
 * Redirects to the provider named `provider` to connect an account of it to the signed-in user;
 * its callback comes back to `callbackUrl`. Needs a recent sign-in: a stolen session must not be
 * able to add its thief's account as a way in.
 *
 * @example
 * return startLink(ctx, session, { provider: 'github' }, 'https://app.example/settings?account=linked');
 */
export async function startLink(ctx: RequestContext, session: AccountSession, body: RequestBody, callbackUrl: string): Promise<Outcome> {
	const id = stringField(body, 'provider');
	if (!id) throw new InvalidRequest('`provider` names the provider to connect.');
	const provider = ctx.config.providerById.get(id);
	if (!provider) throw new InvalidProvider(`There is no provider with the id ${JSON.stringify(id)}.`);
	if (provider.type !== 'oauth' && provider.type !== 'oidc') throw new InvalidProvider(`Provider "${id}" is not an OAuth or OIDC provider: it cannot be connected.`);
	requireFreshSignIn(ctx, session, 'Connecting another account');
	markLinkIntent(ctx, session.user.id);
	// no authorization parameters from the form: the link asks the provider for a plain sign-in
	return (await oauthFlow()).startOAuthSignIn(ctx, provider, {}, callbackUrl);
}
