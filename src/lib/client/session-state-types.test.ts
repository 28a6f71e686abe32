// The app's augmented `Session` reaches the session state's `data` with no type argument, as it
// reaches `locals.auth()`: the augmentation below is the one an app writes (`declare module 'kitgate'`,
// here by the file that declares the interface). Checked by `npm run check`; the runtime test keeps vitest honest.

import { describe, expect, expectTypeOf, test } from 'vitest';
import type { Session } from '../server/core/types.js';
import { SessionState, getSessionContext, setSessionContext, useSession } from './session.svelte.js';

declare module '../server/core/types.js' {
	interface Session {
		/** What the app's `session` callback adds (an optional field, so the rest of the project is unchanged). */
		plan?: 'free' | 'pro';
	}
}

describe("the app's Session type", () => {
	test('flows into data, useSession, getSessionContext and setSessionContext', () => {
		const state = new SessionState(() => ({ user: { email: 'ada@example.com' }, expires: '2100-01-01T00:00:00.000Z', plan: 'pro' as const }) satisfies Session);
		expectTypeOf(state.data).toEqualTypeOf<Session | null>();
		expectTypeOf<NonNullable<SessionState['data']>['plan']>().toEqualTypeOf<'free' | 'pro' | undefined>();
		// as a component calls them (not called here: they need a component)
		const inComponent = {
			use: () => useSession(),
			get: () => getSessionContext(),
			set: (data: { session: Session | null }) => setSessionContext(() => data.session)
		};
		expectTypeOf(inComponent.use).returns.toEqualTypeOf<SessionState<Session>>();
		expectTypeOf(inComponent.get).returns.toEqualTypeOf<SessionState<Session> | undefined>();
		expectTypeOf(inComponent.set).returns.toEqualTypeOf<SessionState<Session>>();
		expectTypeOf<NonNullable<ReturnType<typeof inComponent.use>['data']>['plan']>().toEqualTypeOf<'free' | 'pro' | undefined>();
		// a field the augmentation does not allow is refused
		// @ts-expect-error 'gold' is not a plan
		const wrong: Session = { user: {}, expires: '', plan: 'gold' };
		expect([state.data?.plan, wrong.plan]).toEqual(['pro', 'gold']);
	});
});
