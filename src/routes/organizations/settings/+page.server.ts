import { error } from '@sveltejs/kit';
import type { OrganizationDetail } from '$lib/index.js';
import { organizationNotice, readOrganizationRoute } from '../organization-routes.js';
import type { PageServerLoad } from './$types.js';

// One organization as its member sees it (`?id=`, kitgate's GET /auth/organizations/settings): every change comes back here.
export const load: PageServerLoad = async (event) => {
	const id = event.url.searchParams.get('id');
	if (!id) error(404, 'There is no such organization, or you are not a member of it.');
	return { detail: await readOrganizationRoute<OrganizationDetail>(event, '/settings', new URLSearchParams({ id })), ...organizationNotice(event.url) };
};
