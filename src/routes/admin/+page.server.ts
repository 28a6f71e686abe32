import { error, redirect } from '@sveltejs/kit';
import { base } from '$app/paths';
import type { AdminUserDetail, AdminUserList } from '$lib/index.js';
import type { PageServerLoad } from './$types.js';

// The demo's admin page: the list of users (`?q=` searches, `?page=` pages) or one user (`?id=`),
// read on the server from kitgate's admin routes as JSON (event.fetch goes through kitgate's handle
// with the admin's cookies), so every form of AdminUsers and AdminUserDetail works without
// JavaScript. kitgate decides who is an admin: anyone else gets its 403 here too.
export const load: PageServerLoad = async (event) => {
	const here = `${base}/admin`;
	const session = await event.locals.auth();
	if (!session?.user) redirect(303, `${base}/signin?callbackUrl=${encodeURIComponent(here + event.url.search)}`);
	const id = event.url.searchParams.get('id');
	const query = id
		? new URLSearchParams({ id })
		: new URLSearchParams({ q: event.url.searchParams.get('q') ?? '', page: event.url.searchParams.get('page') ?? '1' });
	const response = await event.fetch(`${base}/auth/admin${id ? '/user' : ''}?${query}`, { headers: { accept: 'application/json' } });
	// a session the admin routes no longer accept (ended or revoked elsewhere): sign in again
	if (response.status === 401) redirect(303, `${base}/signin?callbackUrl=${encodeURIComponent(here)}`);
	if (response.status === 403) error(403, 'Only admins can open this page.');
	if (response.status === 404) error(404, 'There is no such user.');
	// a search or page kitgate refuses (too long, not a number): its 4xx, never a 500
	if (response.status < 500 && !response.ok) error(response.status, 'That request cannot be answered.');
	if (!response.ok) throw new Error(`GET ${base}/auth/admin answered ${response.status}`);
	const notice = { result: event.url.searchParams.get('admin'), error: event.url.searchParams.get('adminError') };
	return id ? { view: 'user' as const, detail: (await response.json()) as AdminUserDetail, ...notice } : { view: 'list' as const, list: (await response.json()) as AdminUserList, ...notice };
};
