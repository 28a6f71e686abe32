// GET {basePath}/organizations[/settings] and POST {basePath}/organizations/<change> for
// organizations, members and teams (docs/organizations.md, "Routes"). Every change is checked in
// the contract's order: the operation, CSRF, the signed-in user, the rate limit, then the
// operation module decides membership, permission and input (organization-operations.ts).

import { repeatedFields, stringField, type RequestBody } from '../request/body.js';
import { requestedCallbackUrl, resolveCallbackUrl } from '../response/callback-url.js';
import { requestCsrf, type RequestContext } from '../request/context.js';
import { InvalidRequest, UnknownAction } from '../errors.js';
import type { Outcome } from '../response/outcome.js';
import { rateLimitedOutcome, takeAttempt } from '../limits/rate-limit.js';
import { readAccountSession } from '../account/account-session.js';
import { activeOrganizationIdOf, setSessionOrganization } from '../organizations/active-organization.js';
import { SessionRequired } from '../errors.js';
import * as operations from '../organizations/organization-operations.js';
import type { OrganizationCall } from '../organizations/organization-operations.js';
import type { OrganizationOperation, OrganizationResult } from '../organization-types.js';
import { assertOrganizationCsrf, isScriptCaller, noticeCode, organizationFailure, organizationJson, organizationSuccess, singleQueryValue } from './organization-answers.js';
import { prefersAccountPage } from '../account/account-page.js';
import { showOrganizationListPage, showOrganizationSettingsPage } from '../organizations/organization-page.js';

/** Fields a form may not repeat: kitgate and an app reading the request must see the same values. */
const SINGLE_FIELDS = ['csrfToken', 'callbackUrl', 'organizationId', 'memberId', 'teamId', 'userId', 'role', 'name', 'slug', 'logo', 'metadata'];

/** What each change answers on success. */
const RESULTS: Partial<Record<OrganizationOperation, OrganizationResult>> = {
	create: 'created',
	update: 'updated',
	delete: 'deleted',
	'set-role': 'role-changed',
	'remove-member': 'member-removed',
	leave: 'left',
	'create-team': 'team-created',
	'delete-team': 'team-deleted',
	'add-team-member': 'team-member-added',
	'remove-team-member': 'team-member-removed'
};

async function signedIn(ctx: RequestContext): Promise<{ call: OrganizationCall; activeOrganizationId: string | null }> {
	const session = await readAccountSession(ctx);
	if (!session) throw new SessionRequired('The organization routes need a signed-in user.');
	return { call: { ctx, actor: session.user }, activeOrganizationId: activeOrganizationIdOf(session.stored) };
}

/** The notice of the last change a browser page shows: `?organization=` and `?organizationError=`. */
function noticeOf(ctx: RequestContext): { result: string | null; error: string | null } {
	return { result: noticeCode(ctx.query.get('organization')), error: noticeCode(ctx.query.get('organizationError')) };
}

/**
 * `GET {basePath}/organizations`: the signed-in user's organizations (`OrganizationList`).
 *
 * @example
 * // GET /auth/organizations → { "organizations": [ … ], "activeOrganizationId": null, "canCreate": true, … }
 */
export async function showOrganizationList(ctx: RequestContext): Promise<Outcome> {
	try {
		const { call, activeOrganizationId } = await signedIn(ctx);
		const list = await operations.listOrganizations(call, { activeOrganizationId, csrfToken: requestCsrf(ctx).token });
		return prefersAccountPage(ctx.request.headers) ? showOrganizationListPage(ctx, list, noticeOf(ctx)) : organizationJson(list);
	} catch (error) {
		return organizationFailure(ctx, error, undefined, ctx.url.href);
	}
}

/**
 * `GET {basePath}/organizations/settings?id=<organizationId>`: one organization as its member
 * sees it (`OrganizationDetail`); `OrganizationNotFound` for an unknown id and a non-member alike.
 *
 * @example
 * // GET /auth/organizations/settings?id=org-1 → { "organization": { … }, "role": "owner", "members": [ … ], … }
 */
export async function showOrganizationSettings(ctx: RequestContext): Promise<Outcome> {
	try {
		const { call, activeOrganizationId } = await signedIn(ctx);
		const id = singleQueryValue(ctx.query, 'id');
		const detail = await operations.getOrganizationDetail(call, id ?? '', { activeOrganizationId, csrfToken: requestCsrf(ctx).token });
		return prefersAccountPage(ctx.request.headers) ? showOrganizationSettingsPage(ctx, detail, noticeOf(ctx)) : organizationJson(detail);
	} catch (error) {
		return organizationFailure(ctx, error, undefined, ctx.url.href);
	}
}

/**
 * `POST {basePath}/organizations/<operation>` for organizations, members and teams. Forms answer
 * a redirect to `callbackUrl` (default: the organization's settings page; the list after delete
 * and leave) with `?organization=<result>` or `?organizationError=<code>`; scripts get
 * `{ result, url }` or `{ error }`.
 *
 * @example
 * // POST /auth/organizations/set-role  csrfToken=…&organizationId=org-1&memberId=m-2&role=admin
 * // → 303 /auth/organizations/settings?id=org-1&organization=role-changed
 */
export async function changeOrganization(ctx: RequestContext, operation: OrganizationOperation, body: RequestBody): Promise<Outcome> {
	let returnTo: string | undefined;
	try {
		if (!RESULTS[operation]) throw new UnknownAction(`POST ${ctx.url.pathname}: no such organization change.`);
		assertOrganizationCsrf(ctx, body);
		if (repeatedFields(body, SINGLE_FIELDS).size > 0) throw new InvalidRequest('A field of the organization change was sent more than once.');
		const { call } = await signedIn(ctx);
		// per user only: members behind one address (an office NAT) must not use up each other's changes
		const attempt = await takeAttempt(ctx, 'account', `organization\u0000${call.actor!.id}`, { byAddress: false });
		const requested = requestedCallbackUrl(ctx, body);
		returnTo = await resolveCallbackUrl(ctx, requested ?? defaultReturn(ctx, operation, body));
		if (attempt.limited) return withRateLimited(rateLimitedOutcome(ctx, attempt, returnTo, { json: isScriptCaller(ctx.request) }), returnTo);
		return await carryOut(call, operation, body, returnTo, requested !== undefined);
	} catch (error) {
		return organizationFailure(ctx, error, returnTo);
	}
}

async function carryOut(call: OrganizationCall, op: OrganizationOperation, body: RequestBody, returnTo: string, requested: boolean): Promise<Outcome> {
	const { ctx } = call;
	const result = RESULTS[op]!;
	const organizationId = body.organizationId;
	switch (op) {
		case 'create': {
			const organization = await operations.createOrganization(call, { name: body.name, slug: body.slug, logo: body.logo });
			// the creator works in it next: it becomes the session's active organization
			await setSessionOrganization(ctx, organization.id);
			// the new organization's page, unless the form named where to go
			const to = requested ? returnTo : settingsUrl(ctx, organization.id);
			return organizationSuccess(ctx, result, to, { organizationId: organization.id, slug: organization.slug });
		}
		case 'update':
			await operations.updateOrganization(call, organizationId, { name: body.name, slug: body.slug, logo: body.logo, metadata: body.metadata });
			break;
		case 'delete':
			await operations.deleteOrganization(call, organizationId);
			break;
		case 'set-role':
			await operations.setMemberRole(call, organizationId, body.memberId, body.role);
			break;
		case 'remove-member':
			await operations.removeMember(call, organizationId, body.memberId);
			break;
		case 'leave':
			await operations.leaveOrganization(call, organizationId);
			break;
		case 'create-team': {
			const team = await operations.createTeam(call, organizationId, body.name);
			return organizationSuccess(ctx, result, returnTo, { teamId: team.id });
		}
		case 'delete-team':
			await operations.deleteTeam(call, organizationId, body.teamId);
			break;
		case 'add-team-member':
			await operations.addTeamMember(call, organizationId, body.teamId, body.userId);
			break;
		case 'remove-team-member':
			await operations.removeTeamMember(call, organizationId, body.teamId, body.userId);
			break;
		default:
			throw new UnknownAction(`No organization change "${op}".`);
	}
	return organizationSuccess(ctx, result, returnTo);
}

/** Where a change goes back to without `callbackUrl`: the organization's page; the list after create failing, delete, leave. */
function defaultReturn(ctx: RequestContext, op: OrganizationOperation, body: RequestBody): string {
	const organizationId = stringField(body, 'organizationId');
	if (op === 'delete' || op === 'leave' || op === 'create' || !organizationId) return `${ctx.authUrl}/organizations`;
	return settingsUrl(ctx, organizationId);
}

function settingsUrl(ctx: RequestContext, organizationId: string): string {
	// not encodeURIComponent: it throws on a lone surrogate, which a JSON body can carry
	return `${ctx.authUrl}/organizations/settings?${new URLSearchParams({ id: organizationId })}`;
}

/** A rate-limited redirect turned into `?organizationError=RateLimited` on the page it came from. */
function withRateLimited(outcome: Outcome, returnTo: string): Outcome {
	if (outcome.type !== 'redirect') return outcome;
	const url = new URL(returnTo);
	url.searchParams.delete('organization');
	url.searchParams.set('organizationError', 'RateLimited');
	return { ...outcome, url: url.href };
}
