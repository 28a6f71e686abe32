import { fail } from '@sveltejs/kit';
import { CredentialsSignin } from '$lib/index.js';
import { signIn } from '../../auth.js';
import type { Actions, PageServerLoad } from './$types.js';

export const load: PageServerLoad = ({ url }) => ({ callbackUrl: url.searchParams.get('callbackUrl') ?? undefined });

export const actions: Actions = {
	// kitgate throws CredentialsSignin to the caller (as the spec says); show it on this page
	default: async (event) => {
		// read before signIn consumes the body: without JavaScript the page re-renders at /signin, without its query
		const callbackUrl = (await event.request.clone().formData()).get('callbackUrl');
		try {
			return await signIn(event);
		} catch (error) {
			if (error instanceof CredentialsSignin) {
				return fail(401, { error: 'CredentialsSignin', code: error.code, callbackUrl: typeof callbackUrl === 'string' ? callbackUrl : undefined });
			}
			throw error;
		}
	}
};
