// The one browser event the client helpers fire when they changed the session, so that a session
// state (session.svelte.ts) can follow without the helpers knowing it. Internal to kitgate/client.

import type { Session } from '../server/core/types.js';

/** Name of the `CustomEvent` fired on `window` after `signIn`/`signOut`/`updateSession` changed the session. */
export const SESSION_CHANGED = 'kitgate:session';

/** The event's detail: the new session when the helper knows it (`null`: signed out); without `session`, ask the server. */
export interface SessionChange {
	session?: Session | null;
}

/** Tells whoever listens in this page that the session changed (nothing on the server, where there is no `window`). */
export function announceSessionChange(change: SessionChange): void {
	globalThis.window?.dispatchEvent(new CustomEvent<SessionChange>(SESSION_CHANGED, { detail: change }));
}
