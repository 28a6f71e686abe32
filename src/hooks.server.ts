// Every request of the demo goes through kitgate's handle; protect() then guards a path prefix
// (the remote functions demo's guarded page).
import { sequence } from '@sveltejs/kit/hooks';
import { protect } from '$lib/server/sveltekit/index.js';
import { handle as authHandle } from './auth.js';

export const handle = sequence(authHandle, protect(['/remote/private']));
