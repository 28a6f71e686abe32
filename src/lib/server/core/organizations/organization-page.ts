// GET {basePath}/organizations, /organizations/settings and /organizations/invitation in a browser:
// the built-in organization pages (the organization components in the pages' shell, rendered as every
// built-in page is). The organization routes decide who may see what and load the views; this module only shows them.

import { pageOutcome } from '../response/built-in-pages.js';
import type { RequestContext } from '../request/context.js';
import type { Outcome } from '../response/outcome.js';
import type { InvitationDetail, OrganizationDetail, OrganizationList } from '../organization-types.js';

/** The notice of the last change: `?organization=` and `?organizationError=` of the request, as given. */
export interface OrganizationPageNotice {
	result?: string | null;
	error?: string | null;
}

/** A result or error code of the query, kept only when it looks like one (`created`, `OrganizationForbidden`). */
function code(value: string | null | undefined): string | undefined {
	return value && /^[A-Za-z][A-Za-z-]{0,63}$/.test(value) ? value : undefined;
}

/** Where the forms post: the path of kitgate's routes (`/auth`), as the admin pages' forms do. */
const routesPath = (ctx: RequestContext) => new URL(ctx.authUrl).pathname.replace(/\/+$/, '');

/** The page answer, never cached by a shared cache under another member's cookie. */
function varied(outcome: Outcome, more: Record<string, string> = {}): Outcome {
	return outcome.type === 'html' ? { ...outcome, headers: { ...outcome.headers, vary: 'Accept, Cookie', ...more } } : outcome;
}

/**
 * The built-in organizations page: `OrganizationSwitcher`, the invitations waiting for the user and
 * `CreateOrganization`, with the notice of the last change.
 *
 * @example
 * if (prefersAccountPage(ctx.request.headers)) return showOrganizationListPage(ctx, list, { result: ctx.query.get('organization'), error: ctx.query.get('organizationError') });
 */
export function showOrganizationListPage(ctx: RequestContext, list: OrganizationList, notice: OrganizationPageNotice): Outcome {
	return varied(
		pageOutcome(ctx, 'organizations', {
			list,
			result: code(notice.result),
			error: code(notice.error),
			basePath: routesPath(ctx),
			callbackUrl: `${ctx.authUrl}/organizations`,
			homeUrl: ctx.baseUrl
		})
	);
}

/**
 * The built-in settings page of one organization: `OrganizationSettings`, every change coming back to this page.
 *
 * @example
 * if (prefersAccountPage(ctx.request.headers)) return showOrganizationSettingsPage(ctx, detail, { result: ctx.query.get('organization'), error: ctx.query.get('organizationError') });
 */
export function showOrganizationSettingsPage(ctx: RequestContext, detail: OrganizationDetail, notice: OrganizationPageNotice): Outcome {
	const list = `${ctx.authUrl}/organizations`;
	return varied(
		pageOutcome(ctx, 'organization-settings', {
			detail,
			result: code(notice.result),
			error: code(notice.error),
			basePath: routesPath(ctx),
			callbackUrl: `${list}/settings?${new URLSearchParams({ id: detail.organization.id })}`,
			listUrl: list,
			homeUrl: ctx.baseUrl
		})
	);
}

/**
 * The built-in invitation page: `OrganizationInvitation` with the token of this request's link in its
 * Join form, sign-in and sign-out links coming back here. It carries the token: no referrer, never stored.
 *
 * @example
 * if (prefersAccountPage(ctx.request.headers)) return showInvitationPage(ctx, detail, { error: ctx.query.get('organizationError') });
 */
export function showInvitationPage(ctx: RequestContext, detail: InvitationDetail, notice: OrganizationPageNotice): Outcome {
	const token = ctx.query.get('token') ?? '';
	const here = `${ctx.authUrl}/organizations/invitation?${new URLSearchParams({ token })}`;
	const back = new URLSearchParams({ callbackUrl: here });
	return varied(
		pageOutcome(ctx, 'organization-invitation', {
			invitation: detail,
			token,
			result: code(notice.result),
			error: code(notice.error),
			basePath: routesPath(ctx),
			signInUrl: `${ctx.authUrl}/signin?${back}`,
			signOutUrl: `${ctx.authUrl}/signout?${back}`,
			homeUrl: ctx.baseUrl
		}),
		{ 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' }
	);
}
