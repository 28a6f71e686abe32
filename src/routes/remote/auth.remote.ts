// Sign-in and sign-out as remote forms: one line each (docs/remote-functions.md).
import { form } from '$app/server';
import { signInRemote, signOutRemote } from '$lib/server/sveltekit/index.js';

export const signIn = form('unchecked', signInRemote);
export const signOut = form('unchecked', signOutRemote);
