import { redirect } from '@sveltejs/kit';
import { base } from '$app/paths';
import type { PasskeySummary } from '$lib/client/passkey.js';
import type { PageServerLoad } from './$types.js';

// The account page: signed-in users only; their passkeys are read on the server so the list
// shows without JavaScript (event.fetch goes through kitgate's handle with the user's cookies).
export const load: PageServerLoad = async (event) => {
	const session = await event.locals.auth();
	if (!session?.user) redirect(303, `${base}/signin?callbackUrl=${encodeURIComponent(event.url.pathname)}`);
	const response = await event.fetch(`${base}/auth/webauthn-authenticators/passkey`);
	const passkeys = response.ok ? ((await response.json()) as { authenticators: PasskeySummary[] }).authenticators : [];
	return { user: session.user, passkeys };
};
