// The world of the `session.cache` tests: a real adapter whose session reads are counted (and can
// be held after the row was read), a clock of its own a day after the last world's, credentials
// sign-ins for Ada, Bob and any number of attacker accounts (eve-0, eve-1, …), and the floods of
// sign-outs the attacks use. Two worlds can share one adapter, clock and revocation store (two
// servers of one app).

import { expect } from 'vitest';
import Credentials from '../../providers/credentials.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import type { Adapter, AuthConfig, RevocationStore, Session, SessionCacheOptions, SessionCacheStore } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';

export const SECOND = 1000;

type Jar = Map<string, string>;

/** Worlds made so far in this test file (each starts its clock a day after the last). */
let worlds = 0;

const USERS: Record<string, { id: string; name: string; email: string }> = {
	ada: { id: 'ada-1', name: 'Ada', email: 'ada@example.com' },
	bob: { id: 'bob-1', name: 'Bob', email: 'bob@example.com' }
};

/** A real adapter whose getSessionAndUser calls are counted, and can be held at a gate after the row was read. */
function instrumented(adapter: Adapter) {
	const reads = { count: 0 };
	let gate: { wait: Promise<void>; open: () => void; reached: () => void; arrived: Promise<void> } | undefined;
	const wrapped: Adapter = {
		...adapter,
		getSessionAndUser: async (token: string) => {
			reads.count++;
			const found = await adapter.getSessionAndUser!(token);
			if (gate) {
				const held = gate;
				gate = undefined;
				held.reached();
				await held.wait;
			}
			return found;
		}
	};
	/** The next getSessionAndUser reads its row, then waits until `open()`. */
	const holdNextRead = () => {
		let open!: () => void;
		let reached!: () => void;
		const wait = new Promise<void>((resolve) => (open = resolve));
		const arrived = new Promise<void>((resolve) => (reached = resolve));
		gate = { wait, open, reached, arrived };
		return gate;
	};
	return { adapter: wrapped, reads, holdNextRead };
}

/** What two worlds (two servers of one app) share: the adapter, the clock and the revocation store. */
export type SharedServer = { raw: Adapter; clock: { now: number }; revocationStore: RevocationStore & object };

/**
 * One app with database sessions and `session.cache` set to `cache`, on an adapter from
 * `makeAdapter` (or the one `shared` with another world). The session callback adds `userId` and
 * `verified` (how emailVerified came back: 'date' for a Date).
 *
 * @example
 * const { browser, reads } = sessionCacheWorld(() => MemoryAdapter(), { maxAge: 60 });
 * const ada = browser();
 * await ada.signIn();
 */
export function sessionCacheWorld(makeAdapter: () => Adapter, cache: SessionCacheOptions, overrides: Partial<AuthConfig> = {}, shared?: SharedServer) {
	// a day apart per world: the ends of copies this process recorded (per process, by user id) stay in their own past
	const clock = shared?.clock ?? { now: Date.UTC(2031, 0, 2, 3, 4, 5) + worlds++ * 86_400_000 };
	const raw = shared?.raw ?? makeAdapter();
	const { adapter, reads, holdNextRead } = instrumented(raw);
	// a store of its own: the process's default one holds other tests' records of the same user id
	const revocationStore = shared?.revocationStore ?? MemoryRateLimitStore();
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		now: () => clock.now,
		rateLimit: { store: revocationStore as ReturnType<typeof MemoryRateLimitStore> },
		session: { maxAge: 30 * 86400, updateAge: 86400, cache },
		providers: [
			Credentials({
				credentials: { username: {}, password: { type: 'password' } },
				authorize: ({ username }) => USERS[username as string] ?? (/^eve-\d+$/.test(String(username)) ? { id: String(username), name: 'Eve', email: `${username}@evil.example` } : null)
			})
		],
		callbacks: { session: ({ session, user }) => ({ ...session, userId: user?.id, verified: user?.emailVerified instanceof Date ? 'date' : String(user?.emailVerified) }) },
		...overrides
	};
	const browser = (origin?: string) => {
		const client = testClient(config, origin);
		const signIn = async (username = 'ada') => {
			const csrfToken = await client.csrfToken();
			const response = await client.request('/auth/callback/credentials', { form: { csrfToken, username, password: 'x' } });
			expect(response.status).toBe(302);
			// a sign-in writes the user: copies made within a second of a write are not trusted (clock margin)
			clock.now += 2 * SECOND;
		};
		const session = async () => (await client.request('/auth/session')).json() as Promise<(Session & Record<string, unknown>) | null>;
		const signOut = async () => {
			const csrfToken = await client.csrfToken();
			return client.request('/auth/signout', { form: { csrfToken } });
		};
		return { client, signIn, session, signOut };
	};
	/** How many times the database is asked for a session during `read`. */
	const readsDuring = async (read: () => Promise<unknown>) => {
		reads.count = 0;
		await read();
		return reads.count;
	};
	/** A browser signed in as `username`. */
	const signedIn = async (username = 'ada', origin?: string) => {
		const b = browser(origin);
		await b.signIn(username);
		return b;
	};
	/** A browser signed in as `username` that has read its session once (so it holds a copy). */
	const withCopy = async (username = 'ada', origin?: string) => {
		const b = await signedIn(username, origin);
		await b.session();
		return b;
	};
	/** A browser holding exactly these cookies (a thief replaying what it stole). */
	const replay = (jar: Jar, origin?: string) => {
		const b = browser(origin);
		for (const [name, value] of jar) b.client.jar.set(name, value);
		return b;
	};
	/**
	 * `count` anonymous sign-outs, each with a made-up session cookie: no account, no session, only
	 * a CSRF token. Each makes kitgate record a "copy is stale" revocation (deleteSession succeeded).
	 */
	const anonymousSignOuts = async (count: number) => {
		const attacker = browser();
		const csrfToken = await attacker.client.csrfToken();
		for (let i = 0; i < count; i++) {
			attacker.client.jar.set('kitgate.session-token', `made-up-${i}-${crypto.randomUUID()}`);
			const response = await attacker.client.request('/auth/signout', { form: { csrfToken } });
			expect(response.status).toBe(302);
		}
	};
	/**
	 * `accounts` attacker accounts (eve-0, eve-1, …) each sign in and out `times` times: real
	 * sessions of real users, each sign-out a record owned by its own user.
	 */
	const accountSignOuts = async (accounts: number, times = 1, from = 0) => {
		for (let i = from; i < from + accounts; i++) {
			for (let t = 0; t < times; t++) {
				const eve = browser();
				const csrfToken = await eve.client.csrfToken();
				expect((await eve.client.request('/auth/callback/credentials', { form: { csrfToken, username: `eve-${i}`, password: 'x' } })).status).toBe(302);
				expect((await eve.client.request('/auth/signout', { form: { csrfToken } })).status).toBe(302);
			}
		}
	};
	return { clock, raw, adapter, reads, readsDuring, holdNextRead, config, browser, signedIn, withCopy, replay, anonymousSignOuts, accountSignOuts, revocationStore };
}

/** A session cache store whose every call fails with `message`. */
export function failingSessionCacheStore(message: string): SessionCacheStore {
	const fail = () => Promise.reject(new Error(message));
	return { get: fail, set: fail, forget: fail, forgetUser: fail };
}
