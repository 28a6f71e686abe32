// The session state never goes back to an older session: a refresh (a focus refresh, say) that was
// under way when the page learned of a change answers what the server said before the change, so
// what it answers is dropped, and a change that needs the server asks it again instead of sharing it.

import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Session } from '../server/core/types.js';
import { followSessionChange, SessionState } from './session.svelte.js';

const ada = (): Session => ({ user: { name: 'Ada', email: 'ada@example.com' }, expires: '2100-01-01T00:00:00.000Z' });

/** A `fetch` whose `GET …/session` answers wait until the test lets them go, one by one. */
function heldSessionFetch() {
	const held: { url: string; answer: (session: Session | null) => void }[] = [];
	vi.stubGlobal('fetch', (input: string) =>
		new Promise<Response>((resolve) => held.push({ url: String(input), answer: (session) => resolve(Response.json(session)) }))
	);
	return held;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('a refresh under way when the session changed', () => {
	test('a sign-out in this page is not undone by a refresh that was asked before it', async () => {
		const held = heldSessionFetch();
		const state = new SessionState(() => ada());
		const refreshing = state.refresh();
		// the user signs out here (SignOut, or signOut({ redirect: false })) while the refresh is out
		state.set(null);
		// the server answers the refresh with the session the request carried before the sign-out
		held[0].answer(ada());
		await refreshing;
		expect(state.data).toBeNull();
		expect(state.status).toBe('unauthenticated');
	});

	test('an update in this page is not undone by an older refresh', async () => {
		const held = heldSessionFetch();
		const state = new SessionState(() => ada());
		const refreshing = state.refresh();
		state.set({ ...ada(), user: { name: 'Countess', email: 'ada@example.com' } });
		held[0].answer(ada());
		await refreshing;
		expect(state.data?.user.name).toBe('Countess');
	});

	test('a refresh asked after a change does not share the request asked before it', async () => {
		const held = heldSessionFetch();
		const state = new SessionState(() => null);
		const before = state.refresh();
		state.set(null);
		const after = state.refresh();
		expect(held).toHaveLength(2);
		// answered out of order: the newer answer stays
		held[1].answer(ada());
		held[0].answer(null);
		await Promise.all([before, after]);
		expect(state.data?.user.email).toBe('ada@example.com');
	});
});

describe('a sign-in announced while a focus refresh is under way', () => {
	test('asks the server again rather than taking the answer of the request sent before the sign-in', async () => {
		const held = heldSessionFetch();
		const state = new SessionState(() => null);
		// the window got focus: a refresh goes out with the cookie of nobody
		const focusRefresh = state.refresh();
		// signIn('credentials', …, { redirect: false }) succeeded: it announces a change the server knows
		followSessionChange(state, {});
		expect(held).toHaveLength(2);
		held[0].answer(null);
		await focusRefresh;
		held[1].answer(ada());
		await settle();
		expect(state.data?.user.email).toBe('ada@example.com');
	});

	test('the session an announcement carries is shown, and an older refresh does not replace it', async () => {
		const held = heldSessionFetch();
		const state = new SessionState(() => ada());
		const focusRefresh = state.refresh();
		followSessionChange(state, { session: null });
		held[0].answer(ada());
		await focusRefresh;
		expect(state.data).toBeNull();
	});
});
