import { error } from '@sveltejs/kit';
import type { AdminUserDetail } from '$lib/index.js';
import { adminNotice, readAdminRoute } from '../admin-routes.js';
import type { PageServerLoad } from './$types.js';

// One user for admins (`?id=`, kitgate's GET /auth/admin/user): every change comes back here.
export const load: PageServerLoad = async (event) => {
	const id = event.url.searchParams.get('id');
	if (!id) error(404, 'There is no such user.');
	return { detail: await readAdminRoute<AdminUserDetail>(event, '/user', new URLSearchParams({ id })), ...adminNotice(event.url) };
};
