// GET {basePath}/admin and {basePath}/admin/user in a browser: the built-in admin pages (the
// AdminUsers and AdminUserDetail components in the pages' shell, rendered as every built-in page
// is). The admin routes decide who may see them and load the views; this module only shows them.

import { pageOutcome } from '../response/built-in-pages.js';
import type { RequestContext } from '../request/context.js';
import type { Outcome } from '../response/outcome.js';
import type { AdminUserDetail, AdminUserList } from '../admin-types.js';

/** The notice of the last change: `?admin=` and `?adminError=` of the request, as given. */
export interface AdminPageNotice {
	result?: string | null;
	error?: string | null;
}

/** A result or error code of the query, kept only when it looks like one (`banned`, `AdminTargetForbidden`). */
function code(value: string | null | undefined): string | undefined {
	return value && /^[A-Za-z][A-Za-z-]{0,63}$/.test(value) ? value : undefined;
}

/** The page answer, never cached by a shared cache under another admin's cookie. */
function varied(outcome: Outcome): Outcome {
	return outcome.type === 'html' ? { ...outcome, headers: { ...outcome.headers, vary: 'Accept, Cookie' } } : outcome;
}

/**
 * The built-in list of users: `AdminUsers` with the search, the page and the notice of the last change.
 *
 * @example
 * if (prefersAccountPage(ctx.request.headers)) return showAdminListPage(ctx, list, { result: query.get('admin'), error: query.get('adminError') });
 */
export function showAdminListPage(ctx: RequestContext, list: AdminUserList, notice: AdminPageNotice): Outcome {
	return varied(
		pageOutcome(ctx, 'admin-users', {
			list,
			result: code(notice.result),
			error: code(notice.error),
			callbackUrl: `${ctx.authUrl}/admin`,
			homeUrl: ctx.baseUrl
		})
	);
}

/**
 * The built-in page of one user: `AdminUserDetail`, every change coming back to this page.
 *
 * @example
 * if (prefersAccountPage(ctx.request.headers)) return showAdminUserPage(ctx, detail, { result: query.get('admin'), error: query.get('adminError') });
 */
export function showAdminUserPage(ctx: RequestContext, detail: AdminUserDetail, notice: AdminPageNotice): Outcome {
	const list = `${ctx.authUrl}/admin`;
	return varied(
		pageOutcome(ctx, 'admin-user', {
			detail,
			result: code(notice.result),
			error: code(notice.error),
			callbackUrl: `${list}/user?${new URLSearchParams({ id: detail.user.id })}`,
			listUrl: list,
			homeUrl: ctx.baseUrl
		})
	);
}
