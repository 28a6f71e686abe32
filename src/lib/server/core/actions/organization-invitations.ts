// The invitation routes (docs/organizations.md, "Invitations"): `GET …/organizations/invitation?token=`
// shows what a link offers (signed out too; it never joins), and the POSTs `invite`,
// `revoke-invitation` and `accept-invitation` change them, in the contract's order of checks:
// op known → CSRF → signed-in user → rate limit → membership → permission → the change.

import { repeatedFields, stringField, type RequestBody } from '../request/body.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import { InvalidRequest, UnknownAction } from '../errors.js';
import type { Outcome } from '../response/outcome.js';
import { resolveCallbackUrl, requestedCallbackUrl } from '../response/callback-url.js';
import { failureAnswer } from '../response/failure-answer.js';
import { rateLimitedOutcome, takeAttempt } from '../limits/rate-limit.js';
import { readAccountSession } from '../account/account-session.js';
import { prefersAccountPage } from '../account/account-page.js';
import { setSessionOrganization } from '../organizations/active-organization.js';
import { showInvitationPage } from '../organizations/organization-page.js';
import { acceptInvitation, invitationDetail, invitationMailer, inviteMember, revokeInvitation } from '../organizations/invitations.js';
import type { InvitationDetail, OrganizationOperation } from '../organization-types.js';
import type { AdapterUser } from '../types.js';
import { assertOrganizationCsrf, isScriptCaller, noticeCode, organizationFailure, organizationJson, organizationSuccess, requireOrganizationUser, singleQueryValue } from './organization-answers.js';

/** The fields each change reads; any of them given twice is refused. */
const FIELDS: Record<'invite' | 'revoke-invitation' | 'accept-invitation', readonly string[]> = {
	invite: ['organizationId', 'email', 'role', 'teamId', 'csrfToken', 'callbackUrl'],
	'revoke-invitation': ['organizationId', 'invitationId', 'csrfToken', 'callbackUrl'],
	'accept-invitation': ['token', 'csrfToken', 'callbackUrl']
};

/** The link's page is its one secret: no referrer leaves it, no cache keeps it. */
const INVITATION_PAGE_HEADERS = { 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' };

/**
 * `GET {basePath}/organizations/invitation?token=`: the invitation as `InvitationDetail` JSON,
 * signed in or out. A token that matches nothing is `InvitationInvalid` (404); a revoked, used or
 * expired one its own code (410). Reads only.
 *
 * @example
 * // GET /auth/organizations/invitation?token=… → { "organization": { "name": "Acme", … }, "email": "bo@example.com", … }
 */
export async function showInvitation(ctx: RequestContext): Promise<Outcome> {
	try {
		const token = singleQueryValue(ctx.url.searchParams, 'token');
		const view = await invitationDetail(ctx, token);
		const session = await readAccountSession(ctx);
		const signedInEmail = session?.user.email ?? null;
		const detail: InvitationDetail = {
			organization: { name: view.organization.name, slug: view.organization.slug, logo: view.organization.logo },
			email: view.invitation.email,
			role: view.invitation.role,
			inviterName: view.inviterName,
			expires: view.invitation.expires.toISOString(),
			signedInEmail,
			// what accepting checks: the invited address, proven
			matchesSignedInUser: signedInEmail !== null && Boolean(session?.user.emailVerified) && addressMatches(ctx, signedInEmail, view.invitation.email),
			csrfToken: requestCsrf(ctx).token
		};
		if (prefersAccountPage(ctx.request.headers)) return showInvitationPage(ctx, detail, { error: noticeCode(ctx.query.get('organizationError')) });
		return withHeaders(organizationJson(detail), INVITATION_PAGE_HEADERS);
	} catch (error) {
		return failureAnswer(ctx, error, { json: !prefersAccountPage(ctx.request.headers), headers: INVITATION_PAGE_HEADERS });
	}
}

function withHeaders(outcome: Outcome, headers: Record<string, string>): Outcome {
	return outcome.type === 'redirect' ? outcome : { ...outcome, headers: { ...outcome.headers, ...headers } };
}

/**
 * `POST {basePath}/organizations/<invite|revoke-invitation|accept-invitation>` (CSRF-checked). A
 * form answers 303 to `callbackUrl` with `?organization=invited|invitation-revoked|joined` or
 * `?organizationError=<code>`; a script `{ result, url }` or `{ error }`. Accepting defaults to the
 * organization's settings page; a signed-out browser accepting is sent to sign in, coming back to
 * the invitation page.
 *
 * @example
 * // POST /auth/organizations/invite  csrfToken=…&organizationId=org-1&email=bo@example.com&role=member
 * // → 303 /auth/organizations/settings?id=org-1&organization=invited
 */
export async function changeInvitation(ctx: RequestContext, operation: OrganizationOperation, body: RequestBody): Promise<Outcome> {
	let returnTo: string | undefined;
	let signInReturn: string | undefined;
	try {
		if (operation !== 'invite' && operation !== 'revoke-invitation' && operation !== 'accept-invitation') {
			throw new UnknownAction(`POST ${ctx.url.pathname}: no such invitation change.`);
		}
		const repeated = repeatedFields(body, FIELDS[operation]);
		if (repeated.size > 0) throw new InvalidRequest(`\`${[...repeated][0]}\` was given more than once.`);
		const asked = requestedCallbackUrl(ctx, body);
		if (operation === 'accept-invitation') {
			signInReturn = invitationPageUrl(ctx, stringField(body, 'token'));
			if (asked) returnTo = await resolveCallbackUrl(ctx, asked);
		} else {
			const organizationId = stringField(body, 'organizationId');
			returnTo = asked ? await resolveCallbackUrl(ctx, asked) : organizationId ? settingsUrl(ctx, organizationId) : undefined;
		}
		assertOrganizationCsrf(ctx, body);
		const user = await requireOrganizationUser(ctx);
		const attempt = await takeAttempt(ctx, 'account', `organization\u0000${user.id}`, { byAddress: false });
		if (attempt.limited) return rateLimitedOutcome(ctx, attempt, returnTo, { json: isScriptCaller(ctx.request) });
		return await carryOut(ctx, operation, user, body, returnTo);
	} catch (error) {
		return organizationFailure(ctx, error, returnTo, signInReturn);
	}
}

async function carryOut(
	ctx: RequestContext,
	operation: 'invite' | 'revoke-invitation' | 'accept-invitation',
	user: AdapterUser,
	body: RequestBody,
	returnTo: string | undefined
): Promise<Outcome> {
	const actor = { userId: user.id, user };
	switch (operation) {
		case 'invite': {
			const organizationId = stringField(body, 'organizationId') ?? '';
			await inviteMember(ctx, actor, {
				organizationId,
				email: stringField(body, 'email') ?? '',
				role: stringField(body, 'role'),
				teamId: stringField(body, 'teamId')
			});
			return organizationSuccess(ctx, 'invited', returnTo ?? settingsUrl(ctx, organizationId));
		}
		case 'revoke-invitation': {
			const organizationId = stringField(body, 'organizationId') ?? '';
			await revokeInvitation(ctx, actor, { organizationId, invitationId: stringField(body, 'invitationId') ?? '' });
			return organizationSuccess(ctx, 'invitation-revoked', returnTo ?? settingsUrl(ctx, organizationId));
		}
		case 'accept-invitation': {
			const { organizationId } = await acceptInvitation(ctx, actor, { token: body.token });
			// the new member lands in the organization: it becomes the session's active one
			await setSessionOrganization(ctx, organizationId);
			return organizationSuccess(ctx, 'joined', returnTo ?? settingsUrl(ctx, organizationId), { organizationId });
		}
	}
}

/** The settings page of an organization, under the auth routes. */
function settingsUrl(ctx: RequestContext, organizationId: string): string {
	const url = new URL(`${ctx.authUrl}/organizations/settings`);
	url.searchParams.set('id', organizationId);
	return url.href;
}

/** The invitation page of a token (where a signed-out invitee comes back after signing in); the list without one. */
function invitationPageUrl(ctx: RequestContext, token: string | undefined): string {
	if (!token || token.length > 256) return `${ctx.authUrl}/organizations`;
	const url = new URL(`${ctx.authUrl}/organizations/invitation`);
	url.searchParams.set('token', token);
	return url.href;
}

/** The signed-in address is the invited one, normalized as accepting compares them. */
function addressMatches(ctx: RequestContext, signedInEmail: string, invited: string): boolean {
	try {
		return invitationMailer(ctx).normalizeIdentifier(signedInEmail) === invited;
	} catch {
		return false;
	}
}
