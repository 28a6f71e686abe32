// Placeholder of the contract of issue 33: the invitations branch replaces this file with the
// invitation routes (invite, revoke, the link's page, accept). Until then they answer as routes
// that do not exist.
import type { RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { UnknownAction } from '../errors.js';
import { failureAnswer } from '../response/failure-answer.js';
import type { Outcome } from '../response/outcome.js';
import type { OrganizationOperation } from '../organizations/organization-types.js';

/** `GET {basePath}/organizations/invitation?token=`. */
export async function showInvitation(ctx: RequestContext): Promise<Outcome> {
	return failureAnswer(ctx, new UnknownAction('Not built yet.'), { json: true });
}

/** `POST {basePath}/organizations/<invite|revoke-invitation|accept-invitation>`. */
export async function changeInvitation(ctx: RequestContext, _operation: OrganizationOperation, _body: RequestBody): Promise<Outcome> {
	return failureAnswer(ctx, new UnknownAction('Not built yet.'), { json: true });
}
