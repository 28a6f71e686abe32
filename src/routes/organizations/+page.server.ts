import type { OrganizationList } from '$lib/index.js';
import { organizationNotice, readOrganizationRoute } from './organization-routes.js';
import type { PageServerLoad } from './$types.js';

// The demo's organizations page: the user's organizations, the active one, the invitations waiting
// for them (kitgate's GET /auth/organizations). Switching and creating come back here.
export const load: PageServerLoad = async (event) => {
	return { list: await readOrganizationRoute<OrganizationList>(event, ''), ...organizationNotice(event.url) };
};
