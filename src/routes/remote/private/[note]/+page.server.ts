import { getSession } from '$lib/server/sveltekit/index.js';
import type { PageServerLoad } from './$types.js';

// no check of its own: this page relies on protect(['/remote/private']) alone, as most guarded pages do
export const load: PageServerLoad = async ({ params }) => ({ note: params.note, name: (await getSession())?.user.name ?? null });
