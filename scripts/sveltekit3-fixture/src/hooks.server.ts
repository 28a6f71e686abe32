// The guide's handle, then protect() as docs/remote-functions.md says ("with the guide's src/auth.ts").
import { sequence } from '@sveltejs/kit/hooks';
import { protect } from 'kitgate/sveltekit';
import { handle as authHandle } from './auth';

export const handle = sequence(authHandle, protect(['/members']));
