import type { AdminUserList } from '$lib/index.js';
import { adminNotice, readAdminRoute } from './admin-routes.js';
import type { PageServerLoad } from './$types.js';

// The demo's list of users for admins: `?q=` searches, `?page=` pages (kitgate's GET /auth/admin).
export const load: PageServerLoad = async (event) => {
	const query = new URLSearchParams();
	for (const name of ['q', 'page']) {
		const value = event.url.searchParams.get(name);
		if (value) query.set(name, value);
	}
	return { list: await readAdminRoute<AdminUserList>(event, '', query), ...adminNotice(event.url) };
};
