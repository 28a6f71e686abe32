import { redirect } from '@sveltejs/kit';
import { base } from '$app/paths';
import type { PageServerLoad } from './$types.js';

// Route protection belongs in each page's load: anonymous visitors go to the sign-in page (303).
export const load: PageServerLoad = async (event) => {
	const session = await event.locals.auth();
	if (!session?.user) {
		redirect(303, `${base}/signin?callbackUrl=${encodeURIComponent(event.url.pathname)}`);
	}
	// the active organization with the user's role: checked against the membership on every request
	return { user: session.user, organization: session.organization ?? null };
};
