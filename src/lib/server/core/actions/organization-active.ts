// Placeholder of the contract of issue 33: the session branch replaces this file with the switch
// of the session's active organization. Until then it answers as a route that does not exist.
import type { RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { UnknownAction } from '../errors.js';
import { failureAnswer } from '../response/failure-answer.js';
import type { Outcome } from '../response/outcome.js';

/** `POST {basePath}/organizations/set-active`. */
export async function setActiveOrganization(ctx: RequestContext, _body: RequestBody): Promise<Outcome> {
	return failureAnswer(ctx, new UnknownAction('Not built yet.'), { json: true });
}
