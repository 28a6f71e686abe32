// The adapter methods shared by the SQLite and PostgreSQL adapters: one Kysely implementation,
// with the few differences between the databases passed in. Internal; see `../sqlite.ts`, `../postgres.ts`.
import { randomUUID } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import { AdapterError } from '../../core/errors.js';
import { withUniqueViolations } from '../errors.js';
import type { Adapter, AdapterAccount, AdapterUser } from '../../core/types.js';
import {
	accountFromRow,
	accountToRow,
	authenticatorFromRow,
	authenticatorToRow,
	emailToColumn,
	sessionFromRow,
	toDate,
	userFromRow,
	userToRow,
	verificationTokenFromRow,
	type ValueEncoding
} from './rows.js';
import type { KitgateTables, SessionsTable, UsersTable } from './tables.js';

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
	 * is false); resolves to the migration names that run applied.
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
}

/**
 * What a SQL adapter module hands to {@link createSqlAdapter}.
 *
 * @example
 * const parts: SqlAdapterParts = { connection: () => shared, encoding: sqliteEncoding, autoMigrate: true, close };
 */
export interface SqlAdapterParts {
	/** The connection the next query uses, opened on the first call (and again after a close). */
	connection: () => SqlConnection;
	encoding: ValueEncoding;
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

/**
 * Builds the adapter methods on a connection that is opened on first use.
 *
 * @example
 * const adapter = createSqlAdapter({ connection: () => shared, encoding: sqliteEncoding, autoMigrate: true, close });
 */
export function createSqlAdapter(parts: SqlAdapterParts): SqlAdapter {
	const { encoding } = parts;
	const migrate = () => parts.connection().migrate();

	async function ready(): Promise<Kysely<KitgateTables>> {
		const connection = parts.connection();
		if (parts.autoMigrate) await connection.migrate();
		return connection.db;
	}

	async function findUser(id: string): Promise<AdapterUser | null> {
		const row = await (await ready()).selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
		return row ? userFromRow(row) : null;
	}

	// the drivers' unique violations become the engine's UniqueViolationError
	return withUniqueViolations({
		migrate,
		close: parts.close,
		[sqlCore]: () => parts.connection().db,

		async createUser(user) {
			const row = await (await ready())
				.insertInto('users')
				.values(userToRow(user, user.id || randomUUID(), encoding))
				.returningAll()
				.executeTakeFirstOrThrow();
			return userFromRow(row);
		},

		getUser: findUser,

		async getUserByEmail(email) {
			if (!email) return null;
			const row = await (await ready())
				.selectFrom('users')
				.selectAll()
				.where('email', '=', email)
				.executeTakeFirst();
			return row ? userFromRow(row) : null;
		},

		async getUserByAccount({ provider, providerAccountId }) {
			const row = await (await ready())
				.selectFrom('accounts')
				.innerJoin('users', 'users.id', 'accounts.user_id')
				.selectAll('users')
				.where('accounts.provider', '=', provider)
				.where('accounts.provider_account_id', '=', providerAccountId)
				.executeTakeFirst();
			return row ? userFromRow(row) : null;
		},

		async updateUser(user) {
			const changes: Updateable<UsersTable> = {};
			if (user.name !== undefined) changes.name = user.name;
			if (user.email !== undefined) changes.email = emailToColumn(user.email);
			if (user.image !== undefined) changes.image = user.image;
			if (user.emailVerified !== undefined) {
				changes.email_verified =
					user.emailVerified === null ? null : encoding.date(toDate(user.emailVerified, 'emailVerified'));
			}
			if (Object.keys(changes).length === 0) {
				const unchanged = await findUser(user.id);
				if (!unchanged) throw new AdapterError(`updateUser: no user with id ${user.id}`);
				return unchanged;
			}
			const row = await (await ready())
				.updateTable('users')
				.set(changes)
				.where('id', '=', user.id)
				.returningAll()
				.executeTakeFirst();
			if (!row) throw new AdapterError(`updateUser: no user with id ${user.id}`);
			return userFromRow(row);
		},

		async deleteUser(userId) {
			// Explicit deletes as well as ON DELETE CASCADE: a SQLite connection without
			// PRAGMA foreign_keys would otherwise leave the user's sessions behind.
			return (await ready()).transaction().execute(async (trx) => {
				await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
				await trx.deleteFrom('accounts').where('user_id', '=', userId).execute();
				await trx.deleteFrom('authenticators').where('user_id', '=', userId).execute();
				const row = await trx.deleteFrom('users').where('id', '=', userId).returningAll().executeTakeFirst();
				return row ? userFromRow(row) : null;
			});
		},

		async linkAccount(account) {
			const row = await (await ready())
				.insertInto('accounts')
				.values(accountToRow(account, randomUUID()))
				.returningAll()
				.executeTakeFirstOrThrow();
			return accountFromRow(row);
		},

		async updateAccount(changes) {
			// read, merge and rewrite in one transaction: `extra` holds fields without a column
			return (await ready()).transaction().execute(async (trx) => {
				const current = await trx
					.selectFrom('accounts')
					.selectAll()
					.where('provider', '=', changes.provider)
					.where('provider_account_id', '=', changes.providerAccountId)
					.executeTakeFirst();
				if (!current) return null;
				const merged = { ...accountFromRow(current), ...changes, userId: current.user_id, type: current.type as AdapterAccount['type'] };
				const { id: _id, ...columns } = accountToRow(merged, current.id);
				const row = await trx.updateTable('accounts').set(columns).where('id', '=', current.id).returningAll().executeTakeFirstOrThrow();
				return accountFromRow(row);
			});
		},

		async unlinkAccount({ provider, providerAccountId }) {
			const row = await (await ready())
				.deleteFrom('accounts')
				.where('provider', '=', provider)
				.where('provider_account_id', '=', providerAccountId)
				.returningAll()
				.executeTakeFirst();
			return row ? accountFromRow(row) : undefined;
		},

		async getAccount(providerAccountId, provider) {
			const row = await (await ready())
				.selectFrom('accounts')
				.selectAll()
				.where('provider', '=', provider)
				.where('provider_account_id', '=', providerAccountId)
				.executeTakeFirst();
			return row ? accountFromRow(row) : null;
		},

		async listAccountsByUserId(userId) {
			const rows = await (await ready()).selectFrom('accounts').selectAll().where('user_id', '=', userId).orderBy('id').execute();
			return rows.map(accountFromRow);
		},

		async createSession(session) {
			const row = await (await ready())
				.insertInto('sessions')
				.values({
					id: randomUUID(),
					session_token: session.sessionToken,
					user_id: session.userId,
					expires: encoding.date(toDate(session.expires, 'expires'))
				})
				.returningAll()
				.executeTakeFirstOrThrow();
			return sessionFromRow(row);
		},

		async getSessionAndUser(sessionToken) {
			const row = await (await ready())
				.selectFrom('sessions')
				.innerJoin('users', 'users.id', 'sessions.user_id')
				.select([
					'sessions.session_token',
					'sessions.user_id',
					'sessions.expires',
					'users.id',
					'users.name',
					'users.email',
					'users.email_verified',
					'users.image'
				])
				.where('sessions.session_token', '=', sessionToken)
				.executeTakeFirst();
			return row ? { session: sessionFromRow(row), user: userFromRow(row) } : null;
		},

		async updateSession(session) {
			const changes: Updateable<SessionsTable> = {};
			if (session.expires !== undefined) changes.expires = encoding.date(toDate(session.expires, 'expires'));
			if (session.userId !== undefined) changes.user_id = session.userId;
			const database = await ready();
			const row =
				Object.keys(changes).length === 0
					? await database
							.selectFrom('sessions')
							.selectAll()
							.where('session_token', '=', session.sessionToken)
							.executeTakeFirst()
					: await database
							.updateTable('sessions')
							.set(changes)
							.where('session_token', '=', session.sessionToken)
							.returningAll()
							.executeTakeFirst();
			return row ? sessionFromRow(row) : null;
		},

		async deleteSession(sessionToken) {
			const row = await (await ready())
				.deleteFrom('sessions')
				.where('session_token', '=', sessionToken)
				.returningAll()
				.executeTakeFirst();
			return row ? sessionFromRow(row) : null;
		},

		async deleteSessionsByUserId(userId) {
			await (await ready()).deleteFrom('sessions').where('user_id', '=', userId).execute();
		},

		async createVerificationToken(token) {
			const row = await (await ready())
				.insertInto('verification_tokens')
				.values({
					identifier: token.identifier,
					token: token.token,
					expires: encoding.date(toDate(token.expires, 'expires'))
				})
				.returningAll()
				.executeTakeFirstOrThrow();
			return verificationTokenFromRow(row);
		},

		async useVerificationToken({ identifier, token }) {
			// One DELETE … RETURNING: of two concurrent uses, only one gets the row.
			const row = await (await ready())
				.deleteFrom('verification_tokens')
				.where('identifier', '=', identifier)
				.where('token', '=', token)
				.returningAll()
				.executeTakeFirst();
			return row ? verificationTokenFromRow(row) : null;
		},

		async createAuthenticator(authenticator) {
			const row = await (await ready())
				.insertInto('authenticators')
				.values(authenticatorToRow(authenticator, encoding))
				.returningAll()
				.executeTakeFirstOrThrow();
			return authenticatorFromRow(row);
		},

		async getAuthenticator(credentialID) {
			const row = await (await ready())
				.selectFrom('authenticators')
				.selectAll()
				.where('credential_id', '=', credentialID)
				.executeTakeFirst();
			return row ? authenticatorFromRow(row) : null;
		},

		async listAuthenticatorsByUserId(userId) {
			const rows = await (await ready())
				.selectFrom('authenticators')
				.selectAll()
				.where('user_id', '=', userId)
				.orderBy('credential_id')
				.execute();
			return rows.map(authenticatorFromRow);
		},

		async updateAuthenticatorCounter(credentialID, newCounter) {
			const row = await (await ready())
				.updateTable('authenticators')
				.set({ counter: newCounter })
				.where('credential_id', '=', credentialID)
				.returningAll()
				.executeTakeFirst();
			if (!row) throw new AdapterError(`updateAuthenticatorCounter: no authenticator with credential ID ${credentialID}`);
			return authenticatorFromRow(row);
		},

		async deleteAuthenticator(credentialID) {
			const row = await (await ready())
				.deleteFrom('authenticators')
				.where('credential_id', '=', credentialID)
				.returningAll()
				.executeTakeFirst();
			return row ? authenticatorFromRow(row) : null;
		}
	});
}
