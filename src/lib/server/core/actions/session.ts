// GET {basePath}/session reads the session; POST updates it (`trigger: "update"`), CSRF checked.
// Both are the one session read of `session-check.ts`, as `getSession` and `locals.auth()` are.

import type { RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import type { Outcome } from '../response/outcome.js';
import { assertCsrf } from '../request/request-checks.js';
import { readSession, sessionAnswer, type SessionCheck } from '../session-check.js';

/** Answers the session object, or `null` (or the failure's `{ error }`). */
export async function readSessionAction(ctx: RequestContext): Promise<Outcome> {
	return sessionOutcome(await readSession(ctx));
}

/** Updates the session with `body.data` after checking the CSRF token (`MissingCSRF` when it is missing or wrong). */
export async function updateSessionAction(ctx: RequestContext, body: RequestBody): Promise<Outcome> {
	assertCsrf(ctx, body);
	return sessionOutcome(await readSession(ctx, { data: body.data }));
}

function sessionOutcome(check: SessionCheck): Outcome {
	return { type: 'json', ...sessionAnswer(check) };
}
