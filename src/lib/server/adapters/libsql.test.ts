// SQLiteAdapter on libSQL: local files through @libsql/client and @libsql/kysely-libsql. The
// conformance suite on kitgate's tables and on an Auth.js Drizzle schema; migrations (the runner's
// batches, and the Kysely-transaction path); concurrent writes, which libSQL's own interactive
// transactions would turn into SQLITE_BUSY.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient, type Client } from '@libsql/client';
import { LibsqlDialect } from '@libsql/kysely-libsql';
import { Kysely, sql } from 'kysely';
import { afterAll, describe, expect, test } from 'vitest';
import { runAdapterTests } from '../../testing/index.js';
import { runMigrations } from './sql/migrate.js';
import { authjsDrizzleSqliteTables, SQLiteAdapter, type TableMapping } from './sqlite.js';
import { authjsDdl } from './test/authjs-databases.js';
import { batchRaceTests, type BatchGate } from './test/batch-races.js';

const directory = mkdtempSync(join(tmpdir(), 'kitgate-libsql-'));
const clients: Client[] = [];
afterAll(() => {
	for (const client of clients) client.close();
	rmSync(directory, { recursive: true, force: true });
});

/** A client of a new database file (`file:` URL) in the temporary folder. */
function fileClient(name: string): Client {
	const client = createClient({ url: pathToFileURL(join(directory, `${name}.db`)).href });
	clients.push(client);
	return client;
}

/**
 * The dialect of `client` (0.18): @libsql/kysely-libsql 0.4 declares the client type of the
 * @libsql/client it depends on (0.8), which differs in types only.
 */
function dialectOf(client: Client): LibsqlDialect {
	return new LibsqlDialect({ client: client as never });
}

/** `client` with its batches passing `gate` (the race tests hold one). */
function gated(client: Client, gate?: BatchGate): Client {
	if (!gate) return client;
	return new Proxy(client, {
		get(target, property, receiver) {
			if (property === 'batch') {
				return async (...args: Parameters<Client['batch']>) => {
					await gate.pass();
					return target.batch(...args);
				};
			}
			const value = Reflect.get(target, property, receiver);
			return typeof value === 'function' ? value.bind(target) : value;
		}
	});
}

const own = fileClient('conformance');
runAdapterTests({
	name: 'SQLiteAdapter on libSQL ({ db }, @libsql/kysely-libsql)',
	adapter: () => SQLiteAdapter({ db: new Kysely({ dialect: dialectOf(own) }) })
});

const drizzle = fileClient('drizzle');
const drizzleReady = drizzle.executeMultiple(authjsDdl('drizzle-sqlite'));
runAdapterTests({
	name: 'SQLiteAdapter on libSQL with authjsDrizzleSqliteTables ({ dialect })',
	adapter: async () => {
		await drizzleReady;
		return SQLiteAdapter({ dialect: dialectOf(drizzle), tables: authjsDrizzleSqliteTables });
	}
});

// Table and column names of a mapping reach SQL only as quoted identifiers, on the batch paths too:
// hostile names are just names (a mapping is the app's configuration, but a name is never SQL).
const hostile = {
	users: 'users"; DROP TABLE canary; --',
	accounts: "accounts'); DROP TABLE canary; --",
	sessions: 'sessions` ; DELETE FROM canary; --',
	verificationTokens: 'tokens]; DROP TABLE canary; --',
	authenticators: 'passkeys"/* */; DROP TABLE canary'
};
const hostileUserId = 'owner"; DROP TABLE canary; --';
const hostileTables: TableMapping = {
	...authjsDrizzleSqliteTables,
	name: 'hostile names',
	tables: hostile,
	columns: { ...authjsDrizzleSqliteTables.columns, userId: hostileUserId }
};
/** A SQLite identifier, quoted. */
const id = (name: string) => `"${name.replaceAll('"', '""')}"`;
const hostileClient = fileClient('hostile-names');
const hostileReady = hostileClient.executeMultiple(`
	CREATE TABLE canary (note TEXT NOT NULL);
	INSERT INTO canary (note) VALUES ('still here');
	CREATE TABLE ${id(hostile.users)} (id TEXT PRIMARY KEY NOT NULL, name TEXT, email TEXT UNIQUE, emailVerified INTEGER, image TEXT);
	CREATE TABLE ${id(hostile.accounts)} (
		${id(hostileUserId)} TEXT NOT NULL REFERENCES ${id(hostile.users)} (id) ON DELETE CASCADE, type TEXT NOT NULL, provider TEXT NOT NULL,
		providerAccountId TEXT NOT NULL, refresh_token TEXT, access_token TEXT, expires_at INTEGER, token_type TEXT, scope TEXT, id_token TEXT,
		session_state TEXT, PRIMARY KEY (provider, providerAccountId));
	CREATE TABLE ${id(hostile.sessions)} (sessionToken TEXT PRIMARY KEY NOT NULL,
		${id(hostileUserId)} TEXT NOT NULL REFERENCES ${id(hostile.users)} (id) ON DELETE CASCADE, expires INTEGER NOT NULL);
	CREATE TABLE ${id(hostile.verificationTokens)} (identifier TEXT NOT NULL, token TEXT NOT NULL, expires INTEGER NOT NULL, PRIMARY KEY (identifier, token));
	CREATE TABLE ${id(hostile.authenticators)} (credentialID TEXT NOT NULL UNIQUE,
		${id(hostileUserId)} TEXT NOT NULL REFERENCES ${id(hostile.users)} (id) ON DELETE CASCADE, providerAccountId TEXT NOT NULL,
		credentialPublicKey TEXT NOT NULL, counter INTEGER NOT NULL, credentialDeviceType TEXT NOT NULL, credentialBackedUp INTEGER NOT NULL,
		transports TEXT, PRIMARY KEY (${id(hostileUserId)}, credentialID));
`);
runAdapterTests({
	name: 'SQLiteAdapter on libSQL with hostile table and column names',
	adapter: async () => {
		await hostileReady;
		return SQLiteAdapter({ dialect: dialectOf(hostileClient), tables: hostileTables });
	}
});
test('the hostile names dropped and emptied nothing, updateAccount (not in the suite) included', async () => {
	const adapter = SQLiteAdapter({ dialect: dialectOf(hostileClient), tables: hostileTables });
	const user = await adapter.createUser({ id: crypto.randomUUID(), email: 'hostile@example.com', emailVerified: null });
	await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'x', providerAccountId: user.id, oauth_token_secret: 'a' });
	expect(await adapter.updateAccount({ provider: 'x', providerAccountId: user.id, oauth_token_secret: 'b', access_token: 'c' })).toMatchObject({
		oauth_token_secret: 'b',
		access_token: 'c'
	});
	await adapter.deleteUser(user.id);
	expect((await hostileClient.execute('select note from canary')).rows.map((row) => row.note)).toEqual(['still here']);
});

const races = fileClient('races');
batchRaceTests('libSQL, kitgate tables', (gate) => SQLiteAdapter({ dialect: dialectOf(gated(races, gate)) }));

const drizzleRaces = fileClient('drizzle-races');
const drizzleRacesReady = drizzleRaces.executeMultiple(authjsDdl('drizzle-sqlite'));
batchRaceTests('libSQL, authjsDrizzleSqliteTables', async (gate) => {
	await drizzleRacesReady;
	return SQLiteAdapter({ dialect: dialectOf(gated(drizzleRaces, gate)), tables: authjsDrizzleSqliteTables });
});

describe('migrations on libSQL', () => {
	test('the adapter migrates a new file, and a second adapter of the client finds nothing to do', async () => {
		const client = fileClient('migrations');
		expect(await SQLiteAdapter({ dialect: dialectOf(client) }).migrate()).toEqual([
			'0001_initial',
			'0002_rate_limits',
			'0005_account_details',
			'0006_two_factor',
			'0007_admin_audit',
			'0008_user_admin',
			'0010_organizations'
		]);
		expect(await SQLiteAdapter({ dialect: dialectOf(client) }).migrate()).toEqual([]);
	});

	test('the runner without a batch uses a Kysely transaction (one connection of the client), not a raw BEGIN on any', async () => {
		const client = fileClient('migrations-in-a-transaction');
		const db = new Kysely({ dialect: dialectOf(client) });
		expect(await runMigrations(db, { dialect: 'sqlite' })).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']);
		expect(await runMigrations(db, { dialect: 'sqlite' })).toEqual([]);
		const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db);
		expect(tables.rows.map((row) => row.name)).toContain('kitgate_two_factor');
	});

	test('a dialect given a URL (its own client, as docs/adapters.md shows) writes atomically too', async () => {
		const adapter = SQLiteAdapter({ dialect: new LibsqlDialect({ url: pathToFileURL(join(directory, 'by-url.db')).href }) });
		const user = await adapter.createUser({ id: crypto.randomUUID(), email: 'url@example.com', emailVerified: null });
		const session = { sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 60_000), userAgent: 'agent' };
		await Promise.all([adapter.createSession(session), adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'idp', providerAccountId: user.id })]);
		expect(await adapter.listSessionsByUserId(user.id)).toEqual([session]);
		expect(await adapter.deleteUser(user.id)).toEqual(user);
		expect(await adapter.listAccountsByUserId(user.id)).toEqual([]);
		await adapter.close();
	});

	test('close() destroys the Kysely instance kitgate made from a dialect; the next query makes a new one', async () => {
		const client = fileClient('close');
		const adapter = SQLiteAdapter({ dialect: dialectOf(client) });
		const user = await adapter.createUser({ id: crypto.randomUUID(), email: 'close@example.com', emailVerified: null });
		await adapter.close();
		expect(await adapter.getUser(user.id)).toEqual(user);
	});
});
