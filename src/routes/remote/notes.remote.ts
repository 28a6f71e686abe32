// The demo's remote functions that need a session: a query and a command answer 401 without one,
// a form sends the visitor to sign in (303) and back.
import { command, form, query } from '$app/server';
import { getSession, requireSession } from '$lib/server/sveltekit/index.js';

/** Who is signed in, or null (never refuses). */
export const whoAmI = query(async () => {
	const session = await getSession();
	return session ? { name: session.user.name ?? null } : null;
});

/** The signed-in user's name; 401 (code SessionRequired) without a session. */
export const myName = query(async () => {
	const { user } = await requireSession();
	return user.name ?? null;
});

const likes = new Map<string, number>();

/** Counts a like for the signed-in user; 401 without a session. */
export const like = command(async () => {
	const { user } = await requireSession();
	const count = (likes.get(String(user.email)) ?? 0) + 1;
	likes.set(String(user.email), count);
	return count;
});

/** Saves a note; without a session, a 303 to the sign-in page and back here. */
export const saveNote = form('unchecked', async (data) => {
	const { user } = await requireSession({ redirectToSignIn: true });
	return { note: String(data.note ?? ''), by: user.name ?? null };
});
