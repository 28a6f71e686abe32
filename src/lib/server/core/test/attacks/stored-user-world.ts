// The world of the ban and impersonation attacks: on each integration × memory/SQLite × session
// strategy, users stored before they sign in (by password, "right"), a clock the config reads, a
// list of admins the tests add to, and a ban as the admin routes make one.

import { beforeAll, expect } from 'vitest';
import type { Adapter, AdapterUser, AuthConfig, Provider } from '../../types.js';
import { Browser, type AppServer, type Integration } from '../integrations.js';
import { memoryAndSqliteAdapters } from '../stored-adapters.js';
import { banAsAdminsDo, passwordOfStoredUsers, storeUser } from './banned-user-fixture.js';
import { describeEachApp, type AppWorld } from './each-app.js';
import { attackConfig } from './flows.js';

/** One world of stored users; `adapter` and `config` are made in the world's first `beforeAll`. */
export interface StoredUserWorld extends AppWorld {
	adapter: Required<Adapter>;
	config: AuthConfig;
	/** The time the config reads (`now`), moved on by the tests; one for all the worlds of a file. */
	clock: { now: number };
	/** The admins' ids, read on every check: the tests add to it. */
	admins: string[];
	/** Stores a user `name` with an address of their own, verified now. */
	storedUser(name: string): Promise<AdapterUser>;
	/** Posts the password sign-in ("right") of `email` from `browser`. */
	signInWithPassword(browser: Browser, email: string): Promise<Response>;
	/** A fresh browser signed in as `user` by password. */
	signedIn(user: AdapterUser): Promise<Browser>;
	/** Bans `userId` as the admin routes do, then moves the clock a second on. */
	ban(userId: string, banExpires?: Date | null): Promise<void>;
}

/**
 * The config most stored-user worlds use: the attack config with the world's clock and admins,
 * `providers` and then the password of stored users, and `overrides`.
 *
 * @example
 * storedUserConfig(w, { providers: [sinkProvider(world.sink)], account: { deleteAccount: true } });
 */
export function storedUserConfig(w: StoredUserWorld, overrides: Partial<AuthConfig> & { providers?: Provider[] } = {}): AuthConfig {
	const { providers = [], admin, ...rest } = overrides;
	return attackConfig(w.adapter, w.strategy, {
		now: () => w.clock.now,
		...rest,
		admin: { admins: w.admins, ...admin },
		providers: [...providers, passwordOfStoredUsers(() => w.adapter)]
	});
}

/**
 * Runs `tests` in each world (integration × memory/SQLite, SQLite files named after `label`, ×
 * session strategy); before them, the world's app uses `configOf(world)` on a fresh adapter.
 *
 * @example
 * describeEachStoredUserWorld(world, 'banned-users', (w) => storedUserConfig(w), (w) => {
 * 	test('…', async () => { const user = await w.storedUser('mallory'); await w.ban(user.id); });
 * });
 */
export function describeEachStoredUserWorld(
	world: { apps: Record<Integration, AppServer> },
	label: string,
	configOf: (w: StoredUserWorld) => AuthConfig,
	tests: (w: StoredUserWorld) => void
): void {
	const clock = { now: Date.now() };
	describeEachApp(
		world,
		(each) => {
			const origin = () => each.app().origin;
			const w: StoredUserWorld = {
				...each,
				adapter: undefined as unknown as Required<Adapter>,
				config: undefined as unknown as AuthConfig,
				clock,
				admins: [],
				storedUser: (name) => storeUser(w.adapter, name, clock.now),
				async signInWithPassword(browser, email) {
					const csrfToken = await browser.csrfToken(origin());
					return browser.request(`${origin()}/auth/callback/credentials`, { form: { csrfToken, email, password: 'right', callbackUrl: '/' } });
				},
				async signedIn(user) {
					const browser = new Browser();
					expect((await w.signInWithPassword(browser, user.email)).status).toBe(302);
					return browser;
				},
				ban: (userId, banExpires = null) => banAsAdminsDo(w.adapter, w.config, clock, userId, banExpires)
			};
			beforeAll(() => {
				w.adapter = each.makeAdapter();
				w.config = configOf(w);
				each.app().use(w.config);
			});
			tests(w);
		},
		memoryAndSqliteAdapters(label)
	);
}
