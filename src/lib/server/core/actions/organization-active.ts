// POST {basePath}/organizations/set-active (docs/organizations.md, "Active organization"): makes one
// of the signed-in user's organizations the session's active one, or none. Answered as every
// organization change is (organization-answers.ts).

import { repeatedFields, type RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { InvalidRequest, OrganizationNotFound } from '../errors.js';
import { emitEvent } from '../config/events.js';
import { rateLimitedOutcome, takeAttempt } from '../limits/rate-limit.js';
import { requestedCallbackUrl, resolveCallbackUrl } from '../response/callback-url.js';
import type { Outcome } from '../response/outcome.js';
import { setSessionOrganization } from '../organizations/active-organization.js';
import { assertOrganizationCsrf, isScriptCaller, organizationFailure, organizationSuccess, requireOrganizationUser } from './organization-answers.js';

/** Fields a form may send once only. */
const SINGLE_FIELDS = ['csrfToken', 'callbackUrl', 'organizationId'] as const;

/** Longest organization id looked up: longer is no organization anyone made. */
const MAX_ORGANIZATION_ID_LENGTH = 255;

/**
 * The organization id a body asks for: a string id, or null for none ('' or JSON null).
 * `InvalidRequest` for anything else: absent, another type, over-long, control characters or
 * text no database can store (a lone surrogate). Pure.
 *
 * @example
 * requestedOrganizationId({ organizationId: '' }); // null
 */
export function requestedOrganizationId(body: RequestBody): string | null {
	const value = body.organizationId;
	if (value === null || value === '') return null;
	if (typeof value !== 'string') throw new InvalidRequest('`organizationId` must be a string (empty for none).');
	// eslint-disable-next-line no-control-regex
	if (value.length > MAX_ORGANIZATION_ID_LENGTH || /[\u0000-\u001f\u007f]/.test(value) || !value.isWellFormed()) {
		throw new InvalidRequest('`organizationId` is not an organization id.');
	}
	return value;
}

/**
 * `POST {basePath}/organizations/set-active` with `csrfToken`, `organizationId` ('' for none) and
 * an optional `callbackUrl`. Checked in the order of every organization change: CSRF, a signed-in
 * user (an impersonated one may switch), the rate limit, the membership (`OrganizationNotFound`
 * for an organization the user is not in, exactly as for one that does not exist); then the
 * session is written. Default return: the organization's settings page, or the list when cleared.
 *
 * @example
 * // POST /auth/organizations/set-active  csrfToken=…&organizationId=org-1
 * // → 303 /auth/organizations/settings?id=org-1&organization=switched
 */
export async function setActiveOrganization(ctx: RequestContext, body: RequestBody): Promise<Outcome> {
	let returnTo: string | undefined;
	try {
		assertOrganizationCsrf(ctx, body);
		if (repeatedFields(body, SINGLE_FIELDS).size > 0) throw new InvalidRequest('A field of set-active was sent more than once.');
		const organizationId = requestedOrganizationId(body);
		const user = await requireOrganizationUser(ctx);
		const requested = requestedCallbackUrl(ctx, body);
		// a refusal goes back to the page that asked, else to the list
		returnTo = await resolveCallbackUrl(ctx, requested ?? `${ctx.authUrl}/organizations`);
		// per user only: colleagues behind one address must not use up each other's changes
		const attempt = await takeAttempt(ctx, 'account', `organization\u0000${user.id}`, { byAddress: false });
		if (attempt.limited) return rateLimitedOutcome(ctx, attempt, returnTo, { json: isScriptCaller(ctx.request) });
		if (organizationId !== null) {
			const membership = await ctx.config.adapter!.getMembership(organizationId, user.id);
			// not a member and no such organization answer alike: ids cannot be probed
			if (!membership || membership.member.userId !== user.id) throw new OrganizationNotFound('No organization of this user has that id.');
		}
		await setSessionOrganization(ctx, organizationId);
		if (organizationId !== null) {
			await emitEvent(ctx, 'organizationChange', { action: 'set-active', actorId: user.id, organizationId, subjectUserId: user.id, detail: null });
		}
		const to = requested
			? returnTo
			: await resolveCallbackUrl(ctx, organizationId === null ? `${ctx.authUrl}/organizations` : `${ctx.authUrl}/organizations/settings?id=${encodeURIComponent(organizationId)}`);
		return organizationSuccess(ctx, 'switched', to);
	} catch (error) {
		return organizationFailure(ctx, error, returnTo);
	}
}
