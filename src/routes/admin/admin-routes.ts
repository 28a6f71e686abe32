// What both admin pages of the demo do first: read one of kitgate's admin routes as JSON on the
// server (event.fetch goes through kitgate's handle with the admin's cookies), so every form of
// AdminUsers and AdminUserDetail works without JavaScript. kitgate decides who is an admin: anyone
// else gets its 403 here too.

import { error, redirect, type RequestEvent } from '@sveltejs/kit';
import { base } from '$app/paths';

/** The JSON answer of `{base}/auth/admin{route}?{query}` to this request's user, or the page's redirect or error. */
export async function readAdminRoute<T>(event: RequestEvent, route: '' | '/user', query: URLSearchParams): Promise<T> {
	const signIn = `${base}/signin?callbackUrl=${encodeURIComponent(event.url.pathname + event.url.search)}`;
	const session = await event.locals.auth();
	if (!session?.user) redirect(303, signIn);
	const response = await event.fetch(`${base}/auth/admin${route}?${query}`, { headers: { accept: 'application/json' } });
	// a session the admin routes no longer accept (ended or revoked elsewhere): sign in again
	if (response.status === 401) redirect(303, signIn);
	if (response.status === 403) error(403, 'Only admins can open this page.');
	if (response.status === 404) error(404, 'There is no such user.');
	// a search or page kitgate refuses (too long, not a number): its 4xx, never a 500
	if (response.status < 500 && !response.ok) error(response.status, 'That request cannot be answered.');
	if (!response.ok) throw new Error(`GET ${base}/auth/admin${route} answered ${response.status}`);
	return (await response.json()) as T;
}

/** The notice of the last change: `?admin=<result>` or `?adminError=<code>`, as the components take them. */
export function adminNotice(url: URL): { result: string | null; error: string | null } {
	return { result: url.searchParams.get('admin'), error: url.searchParams.get('adminError') };
}
