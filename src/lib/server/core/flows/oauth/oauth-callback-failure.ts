// The answer to an OAuth callback that failed, OAuth 2 and 1.0a alike: the failure logged and
// answered by the failure table, and the sign-in's single-use cookies removed all the same.

import type { RequestContext } from '../../request/context.js';
import { failureAnswer } from '../../response/failure-answer.js';
import type { Outcome } from '../../response/outcome.js';
import type { OAuthConfig } from '../../types.js';
import { oauthStepError } from './oauth-errors.js';

/**
 * Logs the failure and answers with the error redirect (back to the sign-in page with
 * `callbackUrl`, when known). Nothing of the failed sign-in is kept but the CSRF cookie and what
 * `clearCookies` queues afterwards: the removal of the sign-in's check cookies.
 *
 * @example
 * } catch (error) {
 *   return answerFailedCallback(ctx, provider, error, callbackUrl, clearChecks);
 * }
 */
export function answerFailedCallback(
	ctx: RequestContext,
	provider: OAuthConfig,
	error: unknown,
	callbackUrl: string | undefined,
	clearCookies: (ctx: RequestContext) => void
): Outcome {
	// kitgate errors pass unchanged; anything else (a bug, a network failure) is an OAuthCallbackError
	const answer = failureAnswer(ctx, oauthStepError('callback', provider.id, 'the sign-in', error), { callbackUrl });
	clearCookies(ctx);
	return answer;
}
