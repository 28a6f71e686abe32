// What both organization pages of the demo do first: read one of kitgate's organization routes as
// JSON on the server (event.fetch goes through kitgate's handle with the user's cookies, and passes
// on the CSRF cookie it may set), so every form of the components works without JavaScript.
// kitgate decides who is a member: an unknown organization and someone else's both answer 404.

import { error, redirect, type RequestEvent } from '@sveltejs/kit';
import { base } from '$app/paths';

/** The JSON answer of `{base}/auth/organizations{route}?{query}` to this request's user, or the page's redirect or error. */
export async function readOrganizationRoute<T>(event: RequestEvent, route: '' | '/settings', query = new URLSearchParams()): Promise<T> {
	const signIn = `${base}/signin?callbackUrl=${encodeURIComponent(event.url.pathname + event.url.search)}`;
	const session = await event.locals.auth();
	if (!session?.user) redirect(303, signIn);
	const search = query.size > 0 ? `?${query}` : '';
	const response = await event.fetch(`${base}/auth/organizations${route}${search}`, { headers: { accept: 'application/json' } });
	// a session the organization routes no longer accept (ended or revoked elsewhere): sign in again
	if (response.status === 401) redirect(303, signIn);
	if (response.status === 404) error(404, 'There is no such organization, or you are not a member of it.');
	// an id kitgate refuses (too long, repeated): its 4xx, never a 500
	if (response.status < 500 && !response.ok) error(response.status, 'That request cannot be answered.');
	if (!response.ok) throw new Error(`GET ${base}/auth/organizations${route} answered ${response.status}`);
	return (await response.json()) as T;
}

/** The notice of the last change: `?organization=<result>` or `?organizationError=<code>`, as the components take them. */
export function organizationNotice(url: URL): { result: string | null; error: string | null } {
	return { result: url.searchParams.get('organization'), error: url.searchParams.get('organizationError') };
}
