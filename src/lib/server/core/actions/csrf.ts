// GET {basePath}/csrf: the CSRF token for the next POST (and its cookie when the request had none).

import { requestCsrf, type RequestContext } from '../request/context.js';
import type { Outcome } from '../response/outcome.js';

/** Answers `{ csrfToken }`. */
export function getCsrfToken(ctx: RequestContext): Outcome {
	return { type: 'json', body: { csrfToken: requestCsrf(ctx).token } };
}
