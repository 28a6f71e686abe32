import { getSession } from '$lib/server/sveltekit/index.js';
import type { PageServerLoad } from './$types.js';

// getSession() works in loads too (no event to pass): SvelteKit's getRequestEvent() finds it
export const load: PageServerLoad = async () => {
	const session = await getSession();
	return { me: session ? { name: session.user.name ?? null } : null };
};
