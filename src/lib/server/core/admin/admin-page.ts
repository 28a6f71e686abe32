// PLACEHOLDER of the engine branch, replaced at merge by the UI branch's admin pages: the admin
// list and detail as JSON in a plain `<pre>` page, only so the browser answers exist until then.

import type { RequestContext } from '../request/context.js';
import type { Outcome } from '../response/outcome.js';
import type { AdminUserDetail, AdminUserList } from './admin-types.js';

/** The notice of the last change a page shows: its result or its error code. */
export interface AdminNotice {
	result?: string | null;
	error?: string | null;
}

function escape(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function prePage(data: unknown, notice: AdminNotice): Outcome {
	const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Admin</title></head><body><pre>${escape(JSON.stringify({ notice, data }, null, 2))}</pre></body></html>`;
	return { type: 'html', html, headers: { vary: 'Accept, Cookie' } };
}

/**
 * The admin list page (placeholder).
 *
 * @example
 * return showAdminListPage(ctx, list, { result: null, error: null });
 */
export function showAdminListPage(_ctx: RequestContext, list: AdminUserList, notice: AdminNotice): Outcome {
	return prePage(list, notice);
}

/**
 * One user's admin page (placeholder).
 *
 * @example
 * return showAdminUserPage(ctx, detail, { result: 'banned' });
 */
export function showAdminUserPage(_ctx: RequestContext, detail: AdminUserDetail, notice: AdminNotice): Outcome {
	return prePage(detail, notice);
}
