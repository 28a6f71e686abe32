// The worlds of the credentials tests through `Auth()`, each with a clock of its own and a quiet
// logger that keeps what was logged: ada/lovelace as the only valid pair (every authorize call
// recorded), and any username signing in as the user of that id.

import { expect } from 'vitest';
import Credentials from '../../providers/credentials.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import type { AuthConfig, RateLimitOptions, Session } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { quietLogger, setsSession } from './oauth-fixtures.js';

/**
 * What both worlds start from (and other engine tests on a clock of their own): the test secret, a
 * trusted host, `clock`'s time and `log`'s logger.
 *
 * @example
 * const config: AuthConfig = { ...ownClockAndLog({ now: Date.UTC(2030, 0, 1) }, quietLogger()), providers: [] };
 */
export function ownClockAndLog(clock: { now: number }, log: ReturnType<typeof quietLogger>) {
	return { secret: TEST_SECRET, trustHost: true, now: () => clock.now, logger: log.logger };
}

/**
 * A credentials config whose `authorize` records every username it is called with; ada/lovelace is
 * the only valid pair, and "boom" makes it throw (the user database down). Rate limits in a memory
 * store of their own, merged with `rateLimit` (or off); `minFailureMs` 0 unless told ('default':
 * the provider's own floor); `extra` last.
 *
 * @example
 * const { config, calls } = adaCredentialsWorld({ credentials: { perIdentifier: 3 } });
 */
export function adaCredentialsWorld(rateLimit: RateLimitOptions | false = {}, extra: Partial<AuthConfig> = {}, minFailureMs: number | 'default' = 0) {
	const clock = { now: Date.UTC(2030, 5, 1) };
	const calls: string[] = [];
	const log = quietLogger();
	const config: AuthConfig = {
		...ownClockAndLog(clock, log),
		rateLimit: rateLimit === false ? false : { store: MemoryRateLimitStore(), ...rateLimit },
		providers: [
			Credentials({
				...(minFailureMs === 'default' ? {} : { minFailureMs }),
				credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
				authorize: async ({ username, password }) => {
					calls.push(String(username));
					if (username === 'boom') throw new Error('the user database is down');
					return username === 'ada' && password === 'lovelace' ? { id: 'u-ada', name: 'Ada' } : null;
				}
			})
		],
		...extra
	};
	return { config, clock, calls, log };
}

/**
 * A config where any username signs in as the user of that id (no password): JWT sessions
 * re-issued after an hour unless `overrides` say otherwise, a clock of its own (or `clock`), rate
 * limits in a memory store of their own.
 *
 * @example
 * const { config, signedIn, sessionOf } = anyUserWorld({ adapter: MemoryAdapter() });
 * const laptop = await signedIn('ada');
 */
export function anyUserWorld(overrides: Partial<AuthConfig> = {}, clock = { now: Date.UTC(2030, 0, 1, 12) }) {
	const log = quietLogger();
	const config: AuthConfig = {
		...ownClockAndLog(clock, log),
		session: { updateAge: 3600 },
		rateLimit: { store: MemoryRateLimitStore() },
		providers: [
			Credentials({
				minFailureMs: 0,
				authorize: ({ username }) => (typeof username === 'string' && username ? { id: username, name: username, email: `${username}@example.com` } : null)
			})
		],
		...overrides
	};
	/** A browser signed in as `username` (`jar`: the cookies of a browser signed in elsewhere, now on this server). */
	const signedIn = async (username: string, jar = new Map<string, string>()) => {
		const client = testClient(config, 'http://localhost:3000', jar);
		const csrfToken = await client.csrfToken();
		const response = await client.request('/auth/callback/credentials', { form: { csrfToken, username } });
		expect(setsSession(response), `${username} signed in`).toBe(true);
		return client;
	};
	/** What the session route answers `client`. */
	const sessionOf = async (client: ReturnType<typeof testClient>) => {
		const response = await client.request('/auth/session');
		return { response, session: (await response.json()) as Session | null };
	};
	return { config, clock, log, signedIn, sessionOf };
}
