import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, test } from 'vitest';
import { InvalidConfiguration } from '../core/errors.js';
import type { AdapterAccount } from '../core/types.js';
import { runAdapterTests } from '../../testing/index.js';
import { sqlCore } from './sql/adapter.js';
import { SQLiteAdapter } from './sqlite.js';
import { storedPasskey } from './test/stored-passkey.js';

const directory = mkdtempSync(join(tmpdir(), 'kitgate-sqlite-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let suiteAdapter: SQLiteAdapter | undefined;
runAdapterTests({
	name: 'SQLiteAdapter',
	adapter: () => (suiteAdapter = SQLiteAdapter({ filename: join(directory, 'conformance', 'auth.sqlite') })),
	cleanup: () => suiteAdapter?.close()
});

describe('SQLiteAdapter', () => {
	test('creating the adapter creates no file or folder until the first query', async () => {
		const folder = join(directory, 'untouched');
		const filename = join(folder, 'auth.sqlite');
		const adapter = SQLiteAdapter({ filename });
		expect(existsSync(folder)).toBe(false);
		await adapter.close(); // closing an unused adapter opens nothing either
		expect(existsSync(folder)).toBe(false);
		expect(await adapter.getUser('nobody')).toBeNull();
		expect(existsSync(filename)).toBe(true);
		await adapter.close();
	});

	test('adapters of the same file share one connection and one migration run', async () => {
		const filename = join(directory, 'shared', 'auth.sqlite');
		const first = SQLiteAdapter({ filename });
		// the same file named another way is the same database
		const second = SQLiteAdapter({ filename: join(directory, 'shared', '..', 'shared', 'auth.sqlite') });
		expect(await first.migrate()).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']);
		expect(second.database).toBe(first.database);
		expect(await second.migrate()).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']); // the shared run, not a second one
		const user = await first.createUser({ id: 'u1', email: 'shared@example.com', emailVerified: null });
		expect(await second.getUser('u1')).toEqual(user);
		expect(SQLiteAdapter({ filename: join(directory, 'other.sqlite') }).database).not.toBe(first.database);
		await SQLiteAdapter({ filename: join(directory, 'other.sqlite') }).close();
		await first.close();
	});

	test('close() closes the connection of every adapter of the file; one used afterwards opens the file again', async () => {
		const filename = join(directory, 'reopened.sqlite');
		const first = SQLiteAdapter({ filename });
		const second = SQLiteAdapter({ filename });
		await first.createUser({ id: 'u1', email: 'again@example.com', emailVerified: null });
		const database = second.database;
		await first.close();
		expect(database.open).toBe(false);
		expect((await second.getUser('u1'))?.email).toBe('again@example.com');
		expect(second.database).not.toBe(database);
		expect(second.database.open).toBe(true);
		await SQLiteAdapter({ filename }).close(); // any adapter of the file closes it, e.g. on shutdown
		expect(second.database.open).toBe(false);
	});

	test('close() waits for the transaction holding the connection', async () => {
		const filename = join(directory, 'close-in-transaction.sqlite');
		const adapter = SQLiteAdapter({ filename });
		await adapter.migrate();
		let closing: Promise<void> | undefined;
		await adapter[sqlCore]()
			.transaction()
			.execute(async (trx) => {
				closing = adapter.close();
				await new Promise((resolve) => setTimeout(resolve, 20));
				await sql`insert into users (id, email) values ('u1', 'late@example.com')`.execute(trx);
			});
		await closing;
		const check = new Database(filename, { readonly: true });
		expect(check.prepare('select email from users').all()).toEqual([{ email: 'late@example.com' }]);
		check.close();
	});

	test('creates the missing parent folders of filename', async () => {
		const filename = join(directory, 'new', 'nested', 'auth.sqlite');
		expect(existsSync(join(directory, 'new'))).toBe(false);
		const adapter = SQLiteAdapter({ filename });
		await adapter.migrate();
		expect(existsSync(filename)).toBe(true);
		await adapter.close();
	});

	test('opens its file in WAL mode with foreign keys on and a busy timeout', async () => {
		const adapter = SQLiteAdapter({ filename: join(directory, 'pragmas.sqlite') });
		expect(adapter.database.pragma('journal_mode', { simple: true })).toBe('wal');
		expect(adapter.database.pragma('foreign_keys', { simple: true })).toBe(1);
		expect(adapter.database.pragma('busy_timeout', { simple: true })).toBe(5000);
		await adapter.close();
	});

	test('enforces foreign keys on its own connection', async () => {
		const adapter = SQLiteAdapter({ filename: join(directory, 'foreign-keys.sqlite') });
		const error = await rejection(adapter.createSession({ sessionToken: 't', userId: 'nobody', expires: new Date() }));
		expect(error).toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
		await adapter.close();
	});

	test('reopening an existing file migrates nothing twice and keeps the data', async () => {
		const filename = join(directory, 'reopen.sqlite');
		const first = SQLiteAdapter({ filename });
		expect(await first.migrate()).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']);
		const user = await first.createUser({ id: 'u1', email: 'ada@example.com', emailVerified: null });
		await first.close();

		const second = SQLiteAdapter({ filename });
		expect(await second.migrate()).toEqual([]);
		expect(await second.getUser(user.id)).toEqual(user);
		const recorded = second.database.prepare('select name from kitgate_migrations').all();
		expect(recorded).toEqual([{ name: '0001_initial' }, { name: '0002_rate_limits' }, { name: '0005_account_details' }, { name: '0006_two_factor' }, { name: '0007_admin_audit' }, { name: '0008_user_admin' }, { name: '0010_organizations' }]);
		await second.close();
	});

	test('migrate() runs once per connection, however often it is called', async () => {
		const adapter = SQLiteAdapter({ filename: ':memory:' });
		const results = await Promise.all([adapter.migrate(), adapter.getUser('x'), adapter.migrate()]);
		expect(results).toEqual([['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations'], null, ['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']]);
		await adapter.close();
	});

	test('with autoMigrate: false, nothing is created until migrate() is called', async () => {
		const adapter = SQLiteAdapter({ filename: ':memory:', autoMigrate: false });
		await expect(Promise.resolve(adapter.getUser('x'))).rejects.toThrow(/no such table/);
		await adapter.migrate();
		expect(await adapter.getUser('x')).toBeNull();
		await adapter.close();
	});

	test('a database passed in gets foreign keys on and stays open after close()', async () => {
		const database = new Database(':memory:');
		const adapter = SQLiteAdapter({ database });
		expect(database.pragma('foreign_keys', { simple: true })).toBe(1);
		await adapter.migrate();
		await adapter.close();
		expect(database.open).toBe(true);
		expect(database.prepare('select count(*) as n from users').get()).toEqual({ n: 0 });
		database.close();
	});

	test('close() closes a file the adapter opened', async () => {
		const adapter = SQLiteAdapter({ filename: join(directory, 'close.sqlite') });
		await adapter.migrate();
		await adapter.close();
		expect(adapter.database.open).toBe(false);
		await adapter.close(); // a second close is harmless
	});

	test('every :memory: adapter has a database of its own', async () => {
		const first = SQLiteAdapter({ filename: ':memory:' });
		const second = SQLiteAdapter({ filename: ':memory:' });
		await first.createUser({ id: 'u1', email: 'a@example.com', emailVerified: null });
		expect(await second.getUser('u1')).toBeNull();
		await first.close();
		await second.close();
	});

	test('adapters of one database passed in migrate it once', async () => {
		const database = new Database(':memory:');
		expect(await SQLiteAdapter({ database }).migrate()).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']);
		const again = SQLiteAdapter({ database });
		expect(await again.migrate()).toEqual(['0001_initial', '0002_rate_limits', '0005_account_details', '0006_two_factor', '0007_admin_audit', '0008_user_admin', '0010_organizations']); // the same run
		expect(database.prepare('select count(*) as n from kitgate_migrations').get()).toEqual({ n: 7 });
		await again.close();
		expect(database.open).toBe(true);
		database.close();
	});

	test('filename and database together are a configuration error', () => {
		const database = new Database(':memory:');
		expect(() => SQLiteAdapter({ filename: 'x.sqlite', database })).toThrow(InvalidConfiguration);
		database.close();
	});

	test('stores dates as epoch milliseconds and booleans as 0/1', async () => {
		const adapter = SQLiteAdapter({ filename: ':memory:' });
		await adapter.createUser({ id: 'u1', email: 'a@example.com', emailVerified: new Date(1234) });
		await adapter.createAuthenticator(storedPasskey('u1', 'c1', { providerAccountId: 'p1', credentialPublicKey: 'k', counter: 1, credentialBackedUp: true }));
		expect(adapter.database.prepare('select email_verified from users').get()).toEqual({ email_verified: 1234 });
		expect(adapter.database.prepare('select credential_backed_up from authenticators').get()).toEqual({
			credential_backed_up: 1
		});
		await adapter.close();
	});

	test('account fields whose values do not fit their column read back unchanged', async () => {
		const adapter = SQLiteAdapter({ filename: ':memory:' });
		await adapter.createUser({ id: 'u1', email: 'a@example.com', emailVerified: null });
		// Some providers send a scope list or a fractional expiry; both go to the JSON `extra` column.
		const account = {
			userId: 'u1',
			type: 'oauth',
			provider: 'example',
			providerAccountId: '42',
			scope: ['openid', 'email'],
			expires_at: 1.5,
			session_state: 'plain string'
		} as unknown as AdapterAccount;
		await adapter.linkAccount(account);
		expect(await adapter.getAccount('42', 'example')).toEqual(account);
		expect(adapter.database.prepare('select scope, expires_at, extra from accounts').get()).toEqual({
			scope: null,
			expires_at: null,
			extra: JSON.stringify({ scope: ['openid', 'email'], expires_at: 1.5 })
		});
		await adapter.close();
	});
});

/** The reason a call rejected with, or null when it succeeded. */
function rejection(result: unknown): Promise<unknown> {
	return Promise.resolve(result).then(
		() => null,
		(reason: unknown) => reason
	);
}
