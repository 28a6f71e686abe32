// Props of the admin components. Export path: `kitgate/components` (`AdminUsersProps`, `AdminUserDetailProps`).

import type { AdminUserDetail, AdminUserList } from '../../server/core/admin-types.js';
import type { Messages } from '../types.js';

/**
 * What both admin components take besides their view.
 *
 * @example
 * const shared: AdminComponentProps = { result: url.searchParams.get('admin'), error: url.searchParams.get('adminError'), timeZone: 'Europe/Paris' };
 */
export interface AdminComponentProps {
	/** Where kitgate's routes are (default: the view's `basePath`). */
	basePath?: string;
	/** The `?admin=` of the page: the result of the last change, shown as a notice. */
	result?: string | null;
	/** The `?adminError=` of the page: why the last change was refused, shown as an alert. */
	error?: string | null;
	/** Texts keyed by message id (`admin.*`), over English or what `setMessages` set. */
	messages?: Messages;
	/** The IANA time zone dates are written in (default `UTC`, the same on the server and in the browser). */
	timeZone?: string;
	/** Classes added to the component's root element. */
	class?: string;
}

/**
 * The props of `AdminUsers`.
 *
 * @example
 * const props: AdminUsersProps = { list: data.list, callbackUrl: '/admin', detailPath: '/admin/user', result: data.result };
 */
export interface AdminUsersProps extends AdminComponentProps {
	/** One page of users, as `GET {basePath}/admin` answers an admin (loaded on the server). */
	list: AdminUserList;
	/** This page: the search and the page links lead here, and "Create a user" comes back here (default `{basePath}/admin`). */
	callbackUrl?: string;
	/** The detail page each user links to as `{detailPath}?id=<id>` (default `{basePath}/admin/user`). */
	detailPath?: string;
}

/**
 * The props of `AdminUserDetail`.
 *
 * @example
 * const props: AdminUserDetailProps = { detail: data.detail, callbackUrl: `/admin/user?id=${data.detail.user.id}`, listUrl: '/admin' };
 */
export interface AdminUserDetailProps extends AdminComponentProps {
	/** One user, as `GET {basePath}/admin/user?id=<id>` answers an admin (loaded on the server). */
	detail: AdminUserDetail;
	/** This page: every change comes back here with `?admin=<result>` or `?adminError=<code>`. */
	callbackUrl: string;
	/** The list of users: the link back, and where a deletion goes (default `{basePath}/admin`). */
	listUrl?: string;
	/** Where impersonating goes: a page of the app the user sees (default `/`). */
	impersonateCallbackUrl?: string;
}
