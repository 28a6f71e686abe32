// Placeholder of the contract of issue 33: the engine branch replaces this file with the list and
// settings pages and the changes of organizations, members and teams. Until then they answer as
// routes that do not exist.
import type { RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { UnknownAction } from '../errors.js';
import { failureAnswer } from '../response/failure-answer.js';
import type { Outcome } from '../response/outcome.js';
import type { OrganizationOperation } from '../organizations/organization-types.js';

/** `GET {basePath}/organizations`. */
export async function showOrganizationList(ctx: RequestContext): Promise<Outcome> {
	return failureAnswer(ctx, new UnknownAction('Not built yet.'), { json: true });
}

/** `GET {basePath}/organizations/settings?id=`. */
export async function showOrganizationSettings(ctx: RequestContext): Promise<Outcome> {
	return failureAnswer(ctx, new UnknownAction('Not built yet.'), { json: true });
}

/** `POST {basePath}/organizations/<operation>` for organizations, members and teams. */
export async function changeOrganization(ctx: RequestContext, _operation: OrganizationOperation, _body: RequestBody): Promise<Outcome> {
	return failureAnswer(ctx, new UnknownAction('Not built yet.'), { json: true });
}
