// The adapter methods shared by the SQLite and PostgreSQL adapters: one Kysely implementation over the
// tables of a table mapping (kitgate's own, or Auth.js's). Internal; see `../sqlite.ts`, `../postgres.ts`.
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { randomUuid } from '../../core/crypto/random.js';
import { AdapterError, MissingAdapterMethod } from '../../core/errors.js';
import { withUniqueViolations } from '../errors.js';
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser } from '../../core/types.js';
import {
	accountFieldsAfterChange,
	accountFieldsSelection,
	accountFieldsWrites,
	deleteAccountFields,
	fieldsOfAccountsOfUserDelete,
	ownedAccountFields
} from './account-fields.js';
import {
	detailsOfUserDeletes,
	hasPasskeyDetails,
	hasSessionDetails,
	passkeyDetailsDelete,
	passkeyDetailsSelection,
	passkeyDetailsUpsert,
	passkeyDetailsWrites,
	sessionDetailsDelete,
	sessionDetailsOfGoneSessionDelete,
	sessionDetailsSelection,
	sessionDetailsWrites,
	withPasskeyDetails,
	withSessionDetails
} from './account-details.js';
import type { BatchResult, BatchRunner, Statement } from './batches.js';
import { lockUniqueKey, refuseDuplicate, requireUser } from './kitgate-constraints.js';
import { recordTotpStep, spendRecoveryCode, twoFactorDeletes, twoFactorFromRows, twoFactorReads, twoFactorWrites } from './two-factor.js';
import { auditEntriesOf, auditEntryFromRow, auditInsert, userAdminDelete, userAdminFromRow, userAdminRead, userAdminUpsert } from './user-admin.js';
import { userListQueries } from './user-list.js';
import {
	activeOrganizationSelection,
	activeOrganizationWrites,
	joinActiveOrganization,
	sessionOrganizationDelete,
	sessionOrganizationOfGoneSessionDelete,
	sessionOrganizationsOfUserDelete,
	withActiveOrganization,
	type ActiveOrganizationPlace
} from './active-organization.js';
import { membershipsOfUserDeletes, sqlOrganizations } from './organizations.js';
import { boundAuditLimit, boundUserListQuery } from '../../core/store/admin-query-bounds.js';
import { mappedTable, type AuthTablesDb, type MappedTable } from './mapped-tables.js';
import { reusableQuery } from './reusable-query.js';
import {
	accountFromRow,
	accountToRow,
	authenticatorFromRow,
	authenticatorToRow,
	emailToColumn,
	sessionFromRow,
	toDate,
	toJson,
	userFromRow,
	userToRow,
	valueCodec,
	verificationTokenFromRow
} from './rows.js';
import type { ResolvedTableMapping } from './table-mapping.js';
import type { AccountRow, AuthenticatorRow, KitgateTables, SessionRow, UserRow, VerificationTokenRow } from './tables.js';

/**
 * A Kysely instance on any database, as the `db` option of the SQL adapters takes it: kitgate reads
 * and writes its own tables through it, whatever table types the app declared.
 *
 * @example
 * const db: AnyKysely = new Kysely<AppTables>({ dialect });
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the app's own table types, which kitgate never reads
export type AnyKysely = Kysely<any>;

/**
 * Where a SQL adapter keeps the accessor of its Kysely instance, for stores that live in the same
 * database (`SqlRateLimitStore`) and must share its connection and transactions. Internal.
 */
export const sqlCore: unique symbol = Symbol('kitgate.sqlCore');

/**
 * An adapter backed by a SQL database: every method, plus schema and connection control.
 *
 * @example
 * const adapter: SqlAdapter = SQLiteAdapter();
 * await adapter.migrate();
 * await adapter.close();
 */
export interface SqlAdapter extends Required<Adapter> {
	/**
	 * Applies pending migrations. Runs once per database connection, which every adapter of the same
	 * database in this process shares (methods call it before their first query unless `autoMigrate`
	 * is false); resolves to the migration names that run applied. With a table mapping (`tables`),
	 * only kitgate's own tables are created.
	 */
	migrate(): Promise<string[]>;
	/**
	 * Closes the connection or pool the adapters of this database opened (shared by every adapter of
	 * the same file, or connection string and schema, in this process). An adapter used afterwards
	 * opens a new one. A database or pool you passed in stays open.
	 */
	close(): Promise<void>;
	/** The adapter's Kysely instance (scoped to its schema; opened on first call), for stores in the same database. */
	readonly [sqlCore]: () => Kysely<KitgateTables>;
}

/**
 * One database connection (or pool) as the adapters see it: its Kysely instance and its migrations.
 *
 * @example
 * const connection: SqlConnection = { db, migrate: migrateOnce(() => runMigrations(db, { dialect: 'sqlite' })) };
 */
export interface SqlConnection {
	/** Kysely instance, already scoped to the adapter's schema. */
	db: Kysely<KitgateTables>;
	/** Applies pending migrations once for this connection; every caller gets the names that run applied. */
	migrate: () => Promise<string[]>;
	/**
	 * Runs a compiled query as a statement the database parses and plans once per connection
	 * (PostgreSQL's named statements), for the session check of every request. Without it the
	 * query runs through Kysely.
	 */
	prepared?: (query: CompiledQuery) => Promise<{ rows: unknown[] }>;
	/**
	 * The runner of all-or-nothing batches where the database has one and writes that must succeed
	 * together go through it (D1, which has no interactive transactions; libSQL); null (or absent):
	 * they run in a Kysely transaction. Found on first use.
	 */
	batches?: () => Promise<BatchRunner | null>;
}

/**
 * What a SQL adapter module hands to {@link createSqlAdapter}.
 *
 * @example
 * const parts: SqlAdapterParts = { adapterName: 'SQLiteAdapter', connection: () => shared, mapping, autoMigrate: true, close };
 */
export interface SqlAdapterParts {
	/** Names the adapter in error messages. */
	adapterName: string;
	/** The connection the next query uses, opened on the first call (and again after a close). */
	connection: () => SqlConnection;
	/** The tables the adapter reads and writes. */
	mapping: ResolvedTableMapping;
	/** Run migrations before the first query (default true). */
	autoMigrate: boolean;
	/** Releases what the adapter opened. */
	close: () => Promise<void>;
}

/**
 * Wraps a migration run so it happens once; a failed run is tried again by the next call
 * (a database that was down at start-up).
 *
 * @example
 * const migrate = migrateOnce(() => runMigrations(db, { dialect: 'sqlite' }));
 */
export function migrateOnce(run: () => Promise<string[]>): () => Promise<string[]> {
	let migrated: Promise<string[]> | undefined;
	return () =>
		(migrated ??= run().catch((error: unknown) => {
			migrated = undefined;
			throw error;
		}));
}

type Db = Kysely<KitgateTables>;

/**
 * The statements of an atomic write, built on `db`: the transaction they run in (reads made here
 * are protected by it), or with `batched`, the database before the batch runs (reads made here are
 * not: the statements must carry their own conditions). Null: nothing to write.
 */
type AtomicPlan = (db: Db, batched: boolean) => Promise<Statement[] | null> | Statement[] | null;

/** The same connection or transaction, seen through the mapping's run-time table names. */
const auth = (db: Db) => db as unknown as AuthTablesDb;

/**
 * Builds the adapter methods on a connection that is opened on first use.
 *
 * @example
 * const adapter = createSqlAdapter({ adapterName: 'SQLiteAdapter', connection: () => shared, mapping, autoMigrate: true, close });
 */
export function createSqlAdapter(parts: SqlAdapterParts): SqlAdapter {
	const { mapping } = parts;
	const values = valueCodec(mapping);
	const users = mappedTable(mapping, 'users') as MappedTable;
	const accounts = mappedTable(mapping, 'accounts') as MappedTable;
	const sessions = mappedTable(mapping, 'sessions') as MappedTable;
	const tokens = mappedTable(mapping, 'verificationTokens') as MappedTable;
	const passkeys = mappedTable(mapping, 'authenticators');
	// fields without a column: in the accounts table's `extra` column, or in kitgate's own table beside it
	const sideTable = !values.hasColumn.extra;
	// tables without unique or foreign keys: every write that needs one is a checked transaction
	const checked = mapping.constraints === 'kitgate';
	// PostgreSQL runs writes of one user side by side: row locks order a user's delete and its side rows' writes
	const postgres = mapping.dialect === 'postgres';
	// the session's active organization: a column of kitgate's sessions table, or a side table beside another library's
	const activePlace: ActiveOrganizationPlace = mapping.isOwnSchema ? 'column' : 'side';
	const migrate = () => parts.connection().migrate();
	// the session check of every request: one query, its SQL built once
	const sessionAndUser = reusableQuery((db: Db, sessionToken: string) =>
		selectSessions(db)
			.innerJoin(`${users.name} as u`, users.column('id', 'u'), sessions.column('userId', 's'))
			.select(users.selection('u'))
			.where(sessions.column('sessionToken', 's'), '=', sessionToken)
	);

	async function ready(): Promise<Kysely<KitgateTables>> {
		const connection = parts.connection();
		if (parts.autoMigrate) await connection.migrate();
		return connection.db;
	}

	/**
	 * Runs the statements of `plan` all or none: as one batch where the connection has a runner
	 * (D1, libSQL), else in one Kysely transaction. Resolves to each statement's rows and changes,
	 * or null when the plan had nothing to write.
	 */
	async function atomically(plan: AtomicPlan): Promise<BatchResult[] | null> {
		const connection = parts.connection();
		if (parts.autoMigrate) await connection.migrate();
		const batch = (await connection.batches?.()) ?? null;
		if (batch) {
			// kitgate's own checks of unique and foreign keys need a transaction's locks (PostgreSQL)
			if (checked) throw new AdapterError(`${parts.adapterName}: tables without constraints need a database with transactions`);
			const statements = await plan(connection.db, true);
			return statements && batch(statements.map((statement) => statement.compile()));
		}
		return connection.db.transaction().execute(async (trx) => {
			const statements = await plan(trx, false);
			if (!statements) return null;
			const results: BatchResult[] = [];
			for (const statement of statements) {
				const result = await trx.executeQuery(statement.compile());
				results.push({ rows: result.rows as Record<string, unknown>[], changes: Number(result.numAffectedRows ?? 0) });
			}
			return results;
		});
	}

	/**
	 * Runs statements one after another, as they always ran here without a transaction (a later one
	 * failing leaves nothing a read can see); where the connection has batches (D1, libSQL), as one
	 * batch instead: all or none, in one round trip, and reads of one consistent state.
	 */
	async function together(build: (db: Db) => Statement[]): Promise<BatchResult[]> {
		const connection = parts.connection();
		if (parts.autoMigrate) await connection.migrate();
		const batch = (await connection.batches?.()) ?? null;
		const statements = build(connection.db);
		if (batch) return batch(statements.map((statement) => statement.compile()));
		const results: BatchResult[] = [];
		for (const statement of statements) {
			const result = await connection.db.executeQuery(statement.compile());
			results.push({ rows: result.rows as Record<string, unknown>[], changes: Number(result.numAffectedRows ?? 0) });
		}
		return results;
	}

	/** True when writes that must succeed together go as one batch (D1, libSQL), not in a transaction. */
	async function batched(): Promise<boolean> {
		return Boolean(await parts.connection().batches?.());
	}

	function authenticators(): MappedTable {
		if (passkeys) return passkeys;
		throw new MissingAdapterMethod(
			`${parts.adapterName}: the table mapping "${mapping.name}" has no authenticator table, so passkeys cannot be stored. ` +
				`Create one (docs/adapters.md, "Using an existing Auth.js database") and name it in the mapping: ` +
				`tables: { ...${mapping.name}, tables: { ...${mapping.name}.tables, authenticators: 'authenticator' } }`
		);
	}

	function newRowId(): { id?: string } {
		return mapping.types.rowIds === 'uuid' ? { id: randomUuid() } : {};
	}

	async function findUser(db: Db, id: string): Promise<AdapterUser | null> {
		const userId = values.userId(id);
		if (userId === null) return null;
		const row = await auth(db)
			.selectFrom(users.name)
			.select(users.selection())
			.where(users.column('id'), '=', userId)
			.executeTakeFirst();
		return row ? userFromRow(row as unknown as UserRow) : null;
	}

	/** A user id as stored, or an AdapterError when no user can have it. */
	function storedUserId(id: string, method: string): string | number {
		const userId = values.userId(id);
		if (userId === null) throw new AdapterError(`${method}: no user with id ${id}`);
		return userId;
	}

	function selectAccounts(db: Db) {
		const query = auth(db).selectFrom(`${accounts.name} as a`).select(accounts.selection('a'));
		if (!sideTable) return query;
		return query
			.leftJoin('kitgate_account_fields as f', (join) =>
				join
					.onRef('f.provider', '=', accounts.column('provider', 'a'))
					.onRef('f.provider_account_id', '=', accounts.column('providerAccountId', 'a'))
			)
			.select(accountFieldsSelection);
	}

	function readAccount(row: unknown): AdapterAccount {
		return accountFromRow(row as AccountRow, values, ownedAccountFields(row as AccountRow));
	}

	/** Sessions (alias `s`) with their details row (alias `sd`) and their active organization (`ao_id`). */
	function selectSessions(db: Db) {
		const query = auth(db)
			.selectFrom(`${sessions.name} as s`)
			.leftJoin('kitgate_session_details as sd', 'sd.session_token', sessions.column('sessionToken', 's'));
		return (activePlace === 'side' ? query.leftJoin(...joinActiveOrganization(sessions)) : query).select([
			...sessions.selection('s'),
			...sessionDetailsSelection,
			activeOrganizationSelection(activePlace)
		]);
	}

	/** A session as a sessions query (`selectSessions`) read it, with its details and active organization. */
	function readSession(row: unknown): AdapterSession {
		return withActiveOrganization(withSessionDetails(sessionFromRow(row as SessionRow), row), row);
	}

	/** Passkeys (alias `p`) with their details row (alias `pd`). */
	function selectPasskeys(db: Db, table: MappedTable) {
		return auth(db)
			.selectFrom(`${table.name} as p`)
			.leftJoin('kitgate_passkey_details as pd', 'pd.credential_id', table.column('credentialID', 'p'))
			.select([...table.selection('p'), ...passkeyDetailsSelection]);
	}

	function readPasskey(row: unknown): AdapterAuthenticator {
		return withPasskeyDetails(authenticatorFromRow(row as AuthenticatorRow, values), row);
	}

	async function findPasskey(db: Db, credentialID: string): Promise<AdapterAuthenticator | null> {
		const table = authenticators();
		const row = await selectPasskeys(db, table).where(table.column('credentialID', 'p'), '=', credentialID).executeTakeFirst();
		return row ? readPasskey(row) : null;
	}

	async function findAccount(db: Db, provider: string, providerAccountId: string): Promise<AdapterAccount | null> {
		const row = await selectAccounts(db)
			.where(accounts.column('provider', 'a'), '=', provider)
			.where(accounts.column('providerAccountId', 'a'), '=', providerAccountId)
			.executeTakeFirst();
		return row ? readAccount(row) : null;
	}

	/** The account's columns, with the user id encoded and the extra fields in `extra` where the table has it. */
	function accountColumns(account: AdapterAccount, method: string) {
		const { row, extra } = accountToRow(account, values);
		const userId = storedUserId(account.userId, method);
		const columns = { ...row, userId, ...(sideTable ? {} : { extra: extra && toJson(extra, 'extra account fields') }) };
		return { columns: accounts.values(columns), extra, userId };
	}

	/** The statements that replace the side-table fields of an account, stamped with its user (where the fields live there). */
	function sideFieldWrites(db: Db, account: AdapterAccount, userId: string | number, extra: Record<string, unknown> | null): Statement[] {
		if (!sideTable) return [];
		return accountFieldsWrites(db, { provider: account.provider, providerAccountId: account.providerAccountId, userId }, extra);
	}

	/** `current` with `changes` applied: an undefined field keeps its value; the owner and type never change. */
	function mergedAccount(current: AdapterAccount, changes: Partial<AdapterAccount>) {
		const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
		const merged: AdapterAccount = { ...current, ...given, userId: current.userId, type: current.type };
		return { merged, ...accountColumns(merged, 'updateAccount') };
	}

	/**
	 * updateAccount where writes go as one batch (D1, libSQL): the read cannot share the batch, so
	 * the merged row is written only while the account (and its side fields) are exactly as read,
	 * and the side fields only when that update happened; otherwise another write came in between,
	 * and the merge starts again from what it wrote.
	 */
	async function updateAccountUnlessChanged(changes: Partial<AdapterAccount> & Pick<AdapterAccount, 'provider' | 'providerAccountId'>) {
		const { provider, providerAccountId } = changes;
		const db = await ready();
		const batch = (await parts.connection().batches?.())!;
		for (let attempt = 1; ; attempt++) {
			const row = (await accountByKey(db, provider, providerAccountId).executeTakeFirst()) as Record<string, unknown> | undefined;
			if (!row) return null;
			const { columns, extra, userId } = mergedAccount(readAccount(row), changes);
			const asRead = accounts.values(Object.fromEntries(Object.entries(row).filter(([field]) => !field.startsWith('side_'))));
			const update = auth(db)
				.updateTable(accounts.name)
				.set(columns)
				.where(accounts.column('provider'), '=', provider)
				.where(accounts.column('providerAccountId'), '=', providerAccountId)
				.where((eb) => eb.and(Object.entries(asRead).map(([column, value]) => eb(column, 'is', value as null))));
			const unchangedSide = sideTable
				? update
						.where(sql<boolean>`(select fields from kitgate_account_fields where provider = ${provider} and provider_account_id = ${providerAccountId}) is ${row.side_fields ?? null}`)
						.where(sql<boolean>`(select user_id from kitgate_account_fields where provider = ${provider} and provider_account_id = ${providerAccountId}) is ${row.side_owner ?? null}`)
				: update;
			const owner = { provider, providerAccountId, userId };
			const results = await batch(
				[unchangedSide, ...(sideTable ? [accountFieldsAfterChange(db, owner, extra)] : []), accountByKey(db, provider, providerAccountId)].map(
					(statement) => statement.compile()
				)
			);
			if (results[0]!.changes === 1) return readAccount(results.at(-1)!.rows[0]);
			if (attempt === 5) throw new AdapterError(`updateAccount: ${provider} account ${providerAccountId} changed during each of 5 attempts`);
		}
	}

	/** The account row of a provider account, with its side fields; selected by key. */
	function accountByKey(db: Db, provider: string, providerAccountId: string) {
		return selectAccounts(db).where(accounts.column('provider', 'a'), '=', provider).where(accounts.column('providerAccountId', 'a'), '=', providerAccountId);
	}

	// the drivers' unique violations become the engine's UniqueViolationError
	return withUniqueViolations({
		migrate,
		close: parts.close,
		[sqlCore]: () => parts.connection().db,

		async createUser(user) {
			const row = { ...userToRow(user, values), ...(mapping.types.userId === 'text' ? { id: user.id || randomUuid() } : {}) };
			const insert = async (db: Db) =>
				userFromRow(
					(await auth(db).insertInto(users.name).values(users.values(row)).returning(users.selection()).executeTakeFirstOrThrow()) as unknown as UserRow
				);
			const db = await ready();
			if (!checked || row.email === null) return insert(db);
			const email = row.email;
			return db.transaction().execute(async (trx) => {
				await lockUniqueKey(auth(trx), 'users.email', email);
				await refuseDuplicate(auth(trx), users, [[users.column('email'), email]], `${users.name}_email_key`);
				return insert(trx);
			});
		},

		async getUser(id) {
			return findUser(await ready(), id);
		},

		async getUserByEmail(email) {
			if (!email) return null;
			// Several users may share an address in tables without a unique key (Auth.js's createUser cannot
			// refuse one): the one who proved it first, then the lowest id, never whichever row comes first.
			const row = await auth(await ready())
				.selectFrom(users.name)
				.select(users.selection())
				.where(users.column('email'), '=', email)
				.orderBy(sql`${sql.ref(users.column('emailVerified'))} is null`)
				.orderBy(users.column('emailVerified'))
				.orderBy(users.column('id'))
				.executeTakeFirst();
			return row ? userFromRow(row as unknown as UserRow) : null;
		},

		async getUserByAccount({ provider, providerAccountId }) {
			const row = await auth(await ready())
				.selectFrom(`${accounts.name} as a`)
				.innerJoin(`${users.name} as u`, users.column('id', 'u'), accounts.column('userId', 'a'))
				.select(users.selection('u'))
				.where(accounts.column('provider', 'a'), '=', provider)
				.where(accounts.column('providerAccountId', 'a'), '=', providerAccountId)
				.executeTakeFirst();
			return row ? userFromRow(row as unknown as UserRow) : null;
		},

		async updateUser(user) {
			const changes: Record<string, unknown> = {};
			if (user.name !== undefined) changes.name = user.name;
			if (user.email !== undefined) changes.email = emailToColumn(user.email);
			if (user.image !== undefined) changes.image = user.image;
			if (user.emailVerified !== undefined) {
				changes.emailVerified = user.emailVerified === null ? null : values.date(toDate(user.emailVerified, 'emailVerified'));
			}
			const userId = storedUserId(user.id, 'updateUser');
			const update = async (db: Db) => {
				if (Object.keys(changes).length === 0) return findUser(db, user.id);
				const row = await auth(db)
					.updateTable(users.name)
					.set(users.values(changes))
					.where(users.column('id'), '=', userId)
					.returning(users.selection())
					.executeTakeFirst();
				return row ? userFromRow(row as unknown as UserRow) : null;
			};
			const db = await ready();
			const email = changes.email;
			const updated =
				checked && typeof email === 'string'
					? await db.transaction().execute(async (trx) => {
							await lockUniqueKey(auth(trx), 'users.email', email);
							await refuseDuplicate(auth(trx), users, [[users.column('email'), email]], `${users.name}_email_key`, [users.column('id'), userId]);
							return update(trx);
						})
					: await update(db);
			if (!updated) throw new AdapterError(`updateUser: no user with id ${user.id}`);
			return updated;
		},

		async deleteUser(id) {
			const userId = values.userId(id);
			if (userId === null) return null;
			// Explicit deletes as well as ON DELETE CASCADE: a SQLite connection without PRAGMA
			// foreign_keys (or tables without foreign keys) would otherwise leave rows behind.
			const results = await atomically((db) => {
				const auth_ = auth(db);
				let lookup = auth_.selectFrom(users.name).select(users.selection()).where(users.column('id'), '=', userId);
				// without foreign keys, the row lock keeps a concurrent link or session from slipping in; and
				// a concurrent setUserAdmin (which holds the row as a foreign key would) from writing after
				// its delete below
				if (checked || postgres) lookup = lookup.forUpdate();
				return [
					lookup,
					...(sideTable ? [fieldsOfAccountsOfUserDelete(db, accounts, userId)] : []),
					...detailsOfUserDeletes(db, userId, { sessions: true, passkeys: true }),
					...twoFactorDeletes(db, userId),
					userAdminDelete(db, userId),
					...membershipsOfUserDeletes(db, userId),
					...(activePlace === 'side' ? [sessionOrganizationsOfUserDelete(db, sessions, userId)] : []),
					auth_.deleteFrom(sessions.name).where(sessions.column('userId'), '=', userId),
					auth_.deleteFrom(accounts.name).where(accounts.column('userId'), '=', userId),
					...(passkeys ? [auth_.deleteFrom(passkeys.name).where(passkeys.column('userId'), '=', userId)] : []),
					auth_.deleteFrom(users.name).where(users.column('id'), '=', userId)
				] as Statement[];
			});
			const row = results?.[0]?.rows[0];
			return row ? userFromRow(row as unknown as UserRow) : null;
		},

		async linkAccount(account) {
			const { columns, extra, userId } = accountColumns(account, 'linkAccount');
			const results = await atomically(async (db) => {
				if (checked) {
					await lockUniqueKey(auth(db), 'accounts', account.provider, account.providerAccountId);
					const key: [string, unknown][] = [
						[accounts.column('provider'), account.provider],
						[accounts.column('providerAccountId'), account.providerAccountId]
					];
					await refuseDuplicate(auth(db), accounts, key, `${accounts.name}_provider_account_key`);
					await requireUser(auth(db), users, columns[accounts.column('userId')], 'linkAccount');
				}
				// the insert decides a race (unique key) and the user's existence (foreign key); the
				// side fields and the read-back go with it or not at all
				return [
					auth(db).insertInto(accounts.name).values({ ...columns, ...newRowId() }),
					...sideFieldWrites(db, account, userId, extra),
					accountByKey(db, account.provider, account.providerAccountId)
				] as Statement[];
			});
			return readAccount(results!.at(-1)!.rows[0]);
		},

		async updateAccount(changes) {
			if (await batched()) return updateAccountUnlessChanged(changes);
			// read, merge and rewrite in one transaction: the extra fields live beside the columns
			const results = await atomically(async (db) => {
				const current = await findAccount(db, changes.provider, changes.providerAccountId);
				if (!current) return null;
				const { merged, columns, extra, userId } = mergedAccount(current, changes);
				return [
					auth(db)
						.updateTable(accounts.name)
						.set(columns)
						.where(accounts.column('provider'), '=', changes.provider)
						.where(accounts.column('providerAccountId'), '=', changes.providerAccountId),
					...sideFieldWrites(db, merged, userId, extra),
					accountByKey(db, changes.provider, changes.providerAccountId)
				] as Statement[];
			});
			const row = results?.at(-1)?.rows[0];
			return row ? readAccount(row) : null;
		},

		async unlinkAccount({ provider, providerAccountId }) {
			// the row as it was, read in the same transaction or batch as the deletes
			const results = await atomically((db) => [
				accountByKey(db, provider, providerAccountId),
				auth(db)
					.deleteFrom(accounts.name)
					.where(accounts.column('provider'), '=', provider)
					.where(accounts.column('providerAccountId'), '=', providerAccountId),
				...(sideTable ? [deleteAccountFields(db, provider, providerAccountId)] : [])
			] as Statement[]);
			const row = results?.[0]?.rows[0];
			return row ? readAccount(row) : undefined;
		},

		async getAccount(providerAccountId, provider) {
			return findAccount(await ready(), provider, providerAccountId);
		},

		async listAccountsByUserId(id) {
			const userId = values.userId(id);
			if (userId === null) return [];
			const rows = await selectAccounts(await ready())
				.where(accounts.column('userId', 'a'), '=', userId)
				.orderBy(accounts.column('provider', 'a'))
				.orderBy(accounts.column('providerAccountId', 'a'))
				.execute();
			return rows.map(readAccount);
		},

		async createSession(session) {
			const row = sessions.values({
				sessionToken: session.sessionToken,
				userId: storedUserId(session.userId, 'createSession'),
				expires: values.date(toDate(session.expires, 'expires'))
			});
			const insert = async (db: Db) =>
				sessionFromRow(
					(await auth(db)
						.insertInto(sessions.name)
						.values({ ...row, ...newRowId() })
						.returning(sessions.selection())
						.executeTakeFirstOrThrow()) as unknown as SessionRow
				);
			const details = hasSessionDetails(session);
			const active = typeof session.activeOrganizationId === 'string' && session.activeOrganizationId ? session.activeOrganizationId : null;
			if (!checked && !details && !active) return insert(await ready());
			const results = await atomically(async (db) => {
				if (checked) await requireUser(auth(db), users, row[sessions.column('userId')], 'createSession');
				// the details are stamped with the user id as given: the one the insert stores
				return [
					auth(db)
						.insertInto(sessions.name)
						.values({ ...row, ...newRowId() })
						.returning(sessions.selection()),
					...(details ? sessionDetailsWrites(db, { ...session, userId: String(row[sessions.column('userId')]) }) : []),
					...(active ? activeOrganizationWrites(db, sessions, activePlace, session.sessionToken, active) : [])
				] as Statement[];
			});
			const created = withActiveOrganization(sessionFromRow(results![0]!.rows[0] as unknown as SessionRow), { ao_id: active });
			if (!details) return created;
			return withSessionDetails(created, { sd_owner: created.userId, sd_created_at: session.createdAt ? new Date(session.createdAt).getTime() : null, sd_user_agent: session.userAgent ?? null });
		},

		async getSessionAndUser(sessionToken) {
			const connection = parts.connection();
			if (parts.autoMigrate) await connection.migrate();
			const query = sessionAndUser(connection.db, sessionToken);
			const [row] = (connection.prepared ? await connection.prepared(query) : await auth(connection.db).executeQuery(query)).rows;
			if (!row) return null;
			return { session: readSession(row), user: userFromRow(row as unknown as UserRow) };
		},

		async updateSession(session) {
			const changes: Record<string, unknown> = {};
			if (session.expires !== undefined) changes.expires = values.date(toDate(session.expires, 'expires'));
			if (session.userId !== undefined) changes.userId = storedUserId(session.userId, 'updateSession');
			const active = session.activeOrganizationId;
			// the writes, then the session as they left it (with its active organization, wherever that is kept)
			const results = await together((db) => [
				...(Object.keys(changes).length > 0
					? [auth(db).updateTable(sessions.name).set(sessions.values(changes)).where(sessions.column('sessionToken'), '=', session.sessionToken)]
					: []),
				...(active !== undefined ? activeOrganizationWrites(db, sessions, activePlace, session.sessionToken, active || null) : []),
				selectSessions(db).where(sessions.column('sessionToken', 's'), '=', session.sessionToken)
			] as Statement[]);
			const row = results.at(-1)!.rows[0];
			return row ? withActiveOrganization(sessionFromRow(row as unknown as SessionRow), row) : null;
		},

		async deleteSession(sessionToken) {
			const [deleted] = await together((db) => [
				auth(db).deleteFrom(sessions.name).where(sessions.column('sessionToken'), '=', sessionToken).returning(sessions.selection()),
				sessionDetailsDelete(db, sessionToken),
				...(activePlace === 'side' ? [sessionOrganizationDelete(db, sessionToken)] : [])
			]);
			const row = deleted!.rows[0];
			return row ? sessionFromRow(row as unknown as SessionRow) : null;
		},

		async listSessionsByUserId(id) {
			const userId = values.userId(id);
			if (userId === null) return [];
			const rows = await selectSessions(await ready())
				.where(sessions.column('userId', 's'), '=', userId)
				.orderBy(sessions.column('sessionToken', 's'))
				.execute();
			return rows.map(readSession);
		},

		async deleteSessionOfUser(id, sessionToken) {
			const userId = values.userId(id);
			if (userId === null) return null;
			// the details go only with the session: those of another user's session, still there, stay
			const [deleted] = await together((db) => [
				auth(db)
					.deleteFrom(sessions.name)
					.where(sessions.column('sessionToken'), '=', sessionToken)
					.where(sessions.column('userId'), '=', userId)
					.returning(sessions.selection()),
				sessionDetailsOfGoneSessionDelete(db, sessions, sessionToken),
				...(activePlace === 'side' ? [sessionOrganizationOfGoneSessionDelete(db, sessions, sessionToken)] : [])
			]);
			const row = deleted!.rows[0];
			return row ? sessionFromRow(row as unknown as SessionRow) : null;
		},

		async deleteSessionsByUserId(id) {
			const userId = values.userId(id);
			if (userId === null) return;
			await together((db) => [
				...(activePlace === 'side' ? [sessionOrganizationsOfUserDelete(db, sessions, userId)] : []),
				auth(db).deleteFrom(sessions.name).where(sessions.column('userId'), '=', userId),
				...detailsOfUserDeletes(db, userId, { sessions: true, passkeys: false })
			]);
		},

		async createVerificationToken(token) {
			const row = await auth(await ready())
				.insertInto(tokens.name)
				.values(tokens.values({ identifier: token.identifier, token: token.token, expires: values.date(toDate(token.expires, 'expires')) }))
				.returning(tokens.selection())
				.executeTakeFirstOrThrow();
			return verificationTokenFromRow(row as unknown as VerificationTokenRow);
		},

		async useVerificationToken({ identifier, token }) {
			// One DELETE … RETURNING: of two concurrent uses, only one gets the row.
			const row = await auth(await ready())
				.deleteFrom(tokens.name)
				.where(tokens.column('identifier'), '=', identifier)
				.where(tokens.column('token'), '=', token)
				.returning(tokens.selection())
				.executeTakeFirst();
			return row ? verificationTokenFromRow(row as unknown as VerificationTokenRow) : null;
		},

		async createAuthenticator(authenticator) {
			const table = authenticators();
			const row = table.values(authenticatorToRow(authenticator, storedUserId(authenticator.userId, 'createAuthenticator'), values));
			const insert = async (db: Db) =>
				authenticatorFromRow(
					(await auth(db).insertInto(table.name).values(row).returning(table.selection()).executeTakeFirstOrThrow()) as unknown as AuthenticatorRow,
					values
				);
			const details = hasPasskeyDetails(authenticator);
			if (!checked && !details) return insert(await ready());
			const results = await atomically(async (db) => {
				if (checked) {
					await lockUniqueKey(auth(db), 'authenticators', authenticator.credentialID);
					await refuseDuplicate(auth(db), table, [[table.column('credentialID'), authenticator.credentialID]], `${table.name}_credential_id_key`);
					await requireUser(auth(db), users, row[table.column('userId')], 'createAuthenticator');
				}
				return [
					auth(db).insertInto(table.name).values(row),
					...(details ? passkeyDetailsWrites(db, authenticator) : []),
					selectPasskeys(db, table).where(table.column('credentialID', 'p'), '=', authenticator.credentialID)
				] as Statement[];
			});
			return readPasskey(results!.at(-1)!.rows[0]);
		},

		async getAuthenticator(credentialID) {
			authenticators();
			return findPasskey(await ready(), credentialID);
		},

		async listAuthenticatorsByUserId(id) {
			const table = authenticators();
			const userId = values.userId(id);
			if (userId === null) return [];
			const rows = await selectPasskeys(await ready(), table)
				.where(table.column('userId', 'p'), '=', userId)
				.orderBy(table.column('credentialID', 'p'))
				.execute();
			return rows.map(readPasskey);
		},

		async updateAuthenticatorCounter(credentialID, newCounter) {
			const table = authenticators();
			const row = await auth(await ready())
				.updateTable(table.name)
				.set(table.values({ counter: values.counter(newCounter) }))
				.where(table.column('credentialID'), '=', credentialID)
				.returning(table.selection())
				.executeTakeFirst();
			if (!row) throw new AdapterError(`updateAuthenticatorCounter: no authenticator with credential ID ${credentialID}`);
			return authenticatorFromRow(row as unknown as AuthenticatorRow, values);
		},

		async deleteAuthenticator(credentialID) {
			const table = authenticators();
			const [deleted] = await together((db) => [
				auth(db).deleteFrom(table.name).where(table.column('credentialID'), '=', credentialID).returning(table.selection()),
				passkeyDetailsDelete(db, credentialID)
			]);
			const row = deleted!.rows[0];
			return row ? authenticatorFromRow(row as unknown as AuthenticatorRow, values) : null;
		},

		async updateAuthenticator(credentialID, changes) {
			const table = authenticators();
			const results = await atomically(async (db, batched) => {
				const current = await findPasskey(db, credentialID);
				if (!current) return null;
				// read before the batch: one statement that checks the passkey is still its user's
				// and merges field by field with what the row holds then
				const writes = batched
					? [passkeyDetailsUpsert(db, table, current, storedUserId(current.userId, 'updateAuthenticator'), changes)]
					: passkeyDetailsWrites(db, current, changes);
				return [...writes, selectPasskeys(db, table).where(table.column('credentialID', 'p'), '=', credentialID)] as Statement[];
			});
			const row = results?.at(-1)?.rows[0];
			return row ? readPasskey(row) : null;
		},

		async getTwoFactor(id) {
			const userId = values.userId(id);
			if (userId === null) return null;
			// its row and its codes as of one moment where reads can share a batch
			const [factor, codes] = await together((db) => [...twoFactorReads(db, userId)] as Statement[]);
			const record = twoFactorFromRows(userId, factor!.rows, codes!.rows);
			return record && { ...record, userId: id };
		},

		async setTwoFactor(record) {
			const userId = values.userId(record.userId);
			if (userId === null) throw new AdapterError(`setTwoFactor: no user with id ${record.userId}`);
			const results = await atomically((db) => [...twoFactorWrites(db, userId, record), ...twoFactorReads(db, userId)] as Statement[]);
			const [factor, codes] = results!.slice(-2);
			return { ...twoFactorFromRows(userId, factor!.rows, codes!.rows)!, userId: record.userId };
		},

		async deleteTwoFactor(id) {
			const userId = values.userId(id);
			if (userId === null) return;
			await atomically((db) => twoFactorDeletes(db, userId));
		},

		async useTotpStep(id, step) {
			const userId = values.userId(id);
			if (userId === null || !Number.isSafeInteger(step)) return false;
			return recordTotpStep(await ready(), userId, step);
		},

		async useRecoveryCode(id, hash) {
			const userId = values.userId(id);
			if (userId === null || typeof hash !== 'string') return false;
			return spendRecoveryCode(await ready(), userId, hash);
		},

		async listUsers(query) {
			const bounded = boundUserListQuery(query);
			const [page, count] = await together((db) => [...userListQueries(auth(db), users, mapping, values, bounded)] as Statement[]);
			return {
				users: page!.rows.map((row) => userFromRow(row as unknown as UserRow)),
				total: Number(count!.rows[0]?.total ?? 0)
			};
		},

		async getUserAdmin(id) {
			const userId = values.userId(id);
			if (userId === null) return null;
			const row = await userAdminRead(await ready(), userId).executeTakeFirst();
			return row ? userAdminFromRow(row, id) : null;
		},

		async setUserAdmin(record) {
			const userId = storedUserId(record.userId, 'setUserAdmin');
			const row = await userAdminUpsert(await ready(), users, userId, record, { lockUser: postgres }).executeTakeFirst();
			if (!row) throw new AdapterError(`setUserAdmin: no user with id ${record.userId}`);
			return userAdminFromRow(row, record.userId);
		},

		async createAuditEntry(entry) {
			return auditEntryFromRow(await auditInsert(await ready(), entry).executeTakeFirstOrThrow());
		},

		async listAuditEntries(userId, { limit }) {
			const bounded = boundAuditLimit(limit);
			if (typeof userId !== 'string' || bounded === 0) return [];
			const rows = await auditEntriesOf(await ready(), userId, bounded).execute();
			return rows.map(auditEntryFromRow);
		},

		...sqlOrganizations({
			users,
			sessions,
			dialect: mapping.dialect,
			userIds: mapping.types.userId,
			activePlace,
			userId: (id) => values.userId(id),
			ready,
			atomically
		})
	});
}
