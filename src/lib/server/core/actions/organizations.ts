// GET|POST {basePath}/organizations[/:operation] (docs/organizations.md, "Routes"): which module
// answers which page or change. The routes exist only with `organizations` in the config.

import type { RequestBody } from '../request/body.js';
import type { RequestContext } from '../request/context.js';
import { MethodNotAllowed, UnknownAction } from '../errors.js';
import { failureAnswer } from '../response/failure-answer.js';
import type { Outcome } from '../response/outcome.js';
import { prefersAccountPage } from '../account/account-page.js';
import type { OrganizationOperation } from '../organization-types.js';
import { loadOnce } from '../util/load-once.js';

/** The changes of organizations, members and teams (organization-changes.ts). */
const ORGANIZATION_CHANGES = new Set<OrganizationOperation>([
	'create', 'update', 'delete', 'set-role', 'remove-member', 'leave', 'create-team', 'delete-team', 'add-team-member', 'remove-team-member'
]);
/** The changes of invitations (organization-invitations.ts). */
const INVITATION_CHANGES = new Set<OrganizationOperation>(['invite', 'revoke-invitation', 'accept-invitation']);

const changes = loadOnce(() => import('./organization-changes.js'));
const invitations = loadOnce(() => import('./organization-invitations.js'));
const active = loadOnce(() => import('./organization-active.js'));

function isChange(operation: string): boolean {
	return operation === 'set-active' || ORGANIZATION_CHANGES.has(operation as OrganizationOperation) || INVITATION_CHANGES.has(operation as OrganizationOperation);
}

/**
 * `GET {basePath}/organizations` (the user's organizations), `…/settings?id=` (one organization)
 * and `…/invitation?token=` (an invitation's link), as JSON or the built-in pages.
 *
 * @example
 * // GET /auth/organizations → { "organizations": [ … ], "activeOrganizationId": "…", … }
 */
export async function showOrganizations(ctx: RequestContext, operation: string | undefined, _body: RequestBody): Promise<Outcome> {
	const json = !prefersAccountPage(ctx.request.headers);
	if (!ctx.config.organizations) return failureAnswer(ctx, new UnknownAction('The organization routes are off (no `organizations` in the config).'), { json });
	if (operation === undefined) return (await changes()).showOrganizationList(ctx);
	if (operation === 'settings') return (await changes()).showOrganizationSettings(ctx);
	if (operation === 'invitation') return (await invitations()).showInvitation(ctx);
	if (isChange(operation)) return failureAnswer(ctx, new MethodNotAllowed(`GET ${ctx.url.pathname}: organization changes are POSTs.`), { json, headers: { allow: 'POST' } });
	return failureAnswer(ctx, new UnknownAction(`GET ${ctx.url.pathname}: no such organization page.`), { json });
}

/**
 * `POST {basePath}/organizations/:operation`: one change, answered by the module that owns it.
 *
 * @example
 * // POST /auth/organizations/create  csrfToken=…&name=Acme → 303 /auth/organizations/settings?id=…&organization=created
 */
export async function changeOrganizations(ctx: RequestContext, operation: string | undefined, body: RequestBody): Promise<Outcome> {
	const json = !prefersAccountPage(ctx.request.headers);
	if (!ctx.config.organizations) return failureAnswer(ctx, new UnknownAction('The organization routes are off (no `organizations` in the config).'), { json });
	if (operation === 'set-active') return (await active()).setActiveOrganization(ctx, body);
	if (operation && INVITATION_CHANGES.has(operation as OrganizationOperation)) return (await invitations()).changeInvitation(ctx, operation as OrganizationOperation, body);
	if (operation && ORGANIZATION_CHANGES.has(operation as OrganizationOperation)) return (await changes()).changeOrganization(ctx, operation as OrganizationOperation, body);
	return failureAnswer(ctx, new UnknownAction(`POST ${ctx.url.pathname}: no such organization change.`), { json });
}
