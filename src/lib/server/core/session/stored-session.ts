// The shape of a session as read from the request, apart from the code that reads it (session.ts),
// so the modules session.ts calls can name it without an import circle.
import type { AdapterUser, JWT, SessionImpersonation } from '../types.js';

/**
 * A session as read from the request, before the `session` callback shapes it. `createdAt`: when
 * its user signed in (ms), where the adapter keeps it.
 */
export type StoredSession =
	| { strategy: 'jwt'; token: JWT; expires: number; impersonation?: SessionImpersonation }
	| {
			strategy: 'database';
			user: AdapterUser;
			sessionToken: string;
			expires: number;
			createdAt?: number;
			/** The row's active organization (docs/organizations.md), when it has one. */
			activeOrganizationId?: string;
			impersonation?: SessionImpersonation;
	  };
