import { requireSession } from '$lib/server/sveltekit/index.js';
import type { PageServerLoad } from './$types.js';

// protect() has let only signed-in users through; requireSession() gives their session
export const load: PageServerLoad = async () => ({ name: (await requireSession({ redirectToSignIn: true })).user.name ?? null });
