// The stage's own remote query: the signed-in user's email, or requireSession()'s 401 (SessionRequired).
import { query } from '$app/server';
import { requireSession } from 'kitgate/sveltekit';

export const me = query(async () => {
	const { user } = await requireSession();
	return user.email ?? '';
});
