import { redirect } from '@sveltejs/kit';
import { base } from '$app/paths';
import type { AccountOverview } from '$lib/index.js';
import type { PageServerLoad } from './$types.js';

// The account page: signed-in users only. The overview of kitgate's account route is read on the
// server (event.fetch goes through kitgate's handle with the user's cookies, and passes on the CSRF
// cookie it may set), so every form of AccountSettings works without JavaScript.
export const load: PageServerLoad = async (event) => {
	const signIn = `${base}/signin?callbackUrl=${encodeURIComponent(event.url.pathname)}`;
	const session = await event.locals.auth();
	if (!session?.user) redirect(303, signIn);
	const response = await event.fetch(`${base}/auth/account`, { headers: { accept: 'application/json' } });
	// a session the account routes no longer accept (ended or revoked elsewhere): sign in again
	if (response.status === 401) redirect(303, signIn);
	if (!response.ok) throw new Error(`GET ${base}/auth/account answered ${response.status}`);
	return {
		user: session.user,
		overview: (await response.json()) as AccountOverview,
		result: event.url.searchParams.get('account'),
		error: event.url.searchParams.get('accountError')
	};
};
