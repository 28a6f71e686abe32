// GET {basePath}/session reads the session; POST updates it (`trigger: "update"`), CSRF checked.

import { requestCsrf, type RequestContext } from '../context.js';
import { isCsrfValid } from '../csrf.js';
import { MissingCSRF } from '../errors.js';
import { failureAnswer } from '../failure-answer.js';
import type { RequestBody } from '../body.js';
import type { Outcome } from '../outcome.js';
import { getSession } from '../session.js';

/** Answers the session object, or `null`. */
export async function readSessionAction(ctx: RequestContext): Promise<Outcome> {
	return { type: 'json', body: await getSession(ctx) };
}

/** Updates the session with `body.data` after checking the CSRF token (`MissingCSRF` when it is missing or wrong). */
export async function updateSessionAction(ctx: RequestContext, body: RequestBody): Promise<Outcome> {
	if (!ctx.config.skipCSRFCheck && !isCsrfValid(requestCsrf(ctx), body.csrfToken)) {
		return failureAnswer(ctx, new MissingCSRF('The session update came without its CSRF token.'), { json: true });
	}
	return { type: 'json', body: await getSession(ctx, { data: body.data }) };
}
