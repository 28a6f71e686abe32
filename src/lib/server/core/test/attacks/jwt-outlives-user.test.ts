// Attack: a JWT session lives in the browser, so deleting its user (or revoking its sessions)
// did not end it until the token was next re-issued. Deleting a user through kitgate, or
// `revokeSessions`, must end that user's JWT sessions on the next request on every server that
// shares the revocation store. Two servers here: the Express app and the SvelteKit app, each with its own config,
// sharing the adapter's database and the store.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import { PostgresAdapter } from '../../../adapters/postgres.js';
import { SqlRateLimitStore } from '../../../adapters/rate-limit-store.js';
import { SQLiteAdapter } from '../../../adapters/sqlite.js';
import Credentials from '../../../providers/credentials.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import { deleteUser, revokeSessions } from '../../session/revocation.js';
import type { Adapter, AuthConfig, RevocationStore } from '../../types.js';
import { Browser, INTEGRATIONS, type Integration } from '../integrations.js';
import { address, attackConfig, attackWorld, sessionOf } from './flows.js';

const world = attackWorld();
const tempDir = mkdtempSync(join(tmpdir(), 'kitgate-jwt-outlives-'));
const schema = `t_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
const closers: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
});
afterAll(async () => {
	for (const close of closers) await close();
	const admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
	await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
	await admin.end();
	rmSync(tempDir, { recursive: true, force: true });
});

/** An adapter and a revocation store shared by both servers. */
const stores: [string, () => { adapter: Required<Adapter>; store: RevocationStore }][] = [
	['memory', () => ({ adapter: MemoryAdapter(), store: MemoryRateLimitStore() })],
	[
		'sqlite',
		() => {
			const adapter = SQLiteAdapter({ filename: join(tempDir, `${crypto.randomUUID()}.sqlite`) });
			closers.push(() => adapter.close());
			return { adapter, store: SqlRateLimitStore(adapter) };
		}
	],
	[
		'postgres',
		() => {
			const adapter = PostgresAdapter({ connectionString: inject('databaseUrl'), schema });
			closers.push(() => adapter.close());
			return { adapter, store: SqlRateLimitStore(adapter) };
		}
	]
];

describe.each(stores)('%s database and store', (_name, make) => {
	let shared: ReturnType<(typeof stores)[number][1]>;
	const clock = { now: Date.now() };
	const configs = {} as Record<Integration, AuthConfig>;
	beforeAll(() => {
		shared = make();
		for (const integration of INTEGRATIONS) {
			configs[integration] = attackConfig(shared.adapter, 'jwt', {
				now: () => clock.now,
				session: { strategy: 'jwt', revocationStore: shared.store },
				providers: [
					Credentials({
						credentials: { email: {} },
						authorize: async ({ email }) => (await shared.adapter.getUserByEmail(String(email))) ?? null
					})
				]
			});
			world.apps[integration].use(configs[integration]);
		}
	});

	/** A stored user signed in on both servers, each in its own browser. */
	async function signedInEverywhere() {
		const email = address('doomed');
		const user = await shared.adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: null });
		const browsers = {} as Record<Integration, Browser>;
		for (const integration of INTEGRATIONS) {
			const app = world.apps[integration];
			const browser = new Browser();
			const csrfToken = await browser.csrfToken(app.origin);
			expect((await browser.request(`${app.origin}/auth/callback/credentials`, { form: { csrfToken, email } })).status).toBe(302);
			expect((await sessionOf(browser, app))?.user?.id).toBe(user.id);
			browsers[integration] = browser;
		}
		return { user, browsers };
	}

	test('deleteUser ends the user’s JWT sessions on the next request on both servers, and removes the user', async () => {
		const { user, browsers } = await signedInEverywhere();
		clock.now += 1000;
		await deleteUser(user.id, configs.express);
		expect(await shared.adapter.getUser(user.id)).toBeNull();
		for (const integration of INTEGRATIONS) {
			expect(await sessionOf(browsers[integration], world.apps[integration]), integration).toBeNull();
			const session = await browsers[integration].request(`${world.apps[integration].origin}/auth/session`);
			expect(await session.json()).toBeNull();
		}
	});

	test('revokeSessions ends them on the next request on both servers, well before any re-issue', async () => {
		const { user, browsers } = await signedInEverywhere();
		clock.now += 1000;
		await revokeSessions(user.id, configs.sveltekit);
		for (const integration of INTEGRATIONS) expect(await sessionOf(browsers[integration], world.apps[integration]), integration).toBeNull();
		// a new sign-in after the revocation works
		clock.now += 1000;
		const again = new Browser();
		const csrfToken = await again.csrfToken(world.apps.express.origin);
		await again.request(`${world.apps.express.origin}/auth/callback/credentials`, { form: { csrfToken, email: user.email } });
		expect((await sessionOf(again, world.apps.express))?.user?.id).toBe(user.id);
	});
});
