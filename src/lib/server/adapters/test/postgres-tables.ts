// Test helper: the tables kitgate's PostgreSQL migrations make, named once for the tests that list a
// migrated database's tables (postgres.test.ts on kitgate's own layout, authjs-postgres.test.ts on
// an Auth.js app's). A new migration that adds a table changes this list and both tests with it.

/**
 * kitgate's own tables in every layout, beside the four (or five) auth tables.
 *
 * @example
 * expect(tableNames).toEqual(inTableOrder([...authTables, ...KITGATE_POSTGRES_TABLES]));
 */
export const KITGATE_POSTGRES_TABLES: readonly string[] = [
	'kitgate_audit',
	'kitgate_invitations',
	'kitgate_members',
	'kitgate_migrations',
	'kitgate_organizations',
	'kitgate_passkey_details',
	'kitgate_recovery_codes',
	'kitgate_session_details',
	'kitgate_team_members',
	'kitgate_teams',
	'kitgate_two_factor',
	'kitgate_user_admin',
	'rate_limits',
	'session_revocations'
];

/**
 * The tables kitgate adds only on auth tables it does not own (an Auth.js app's, mapped with
 * `tables`): what kitgate's own tables keep in columns of their own.
 *
 * @example
 * expect(tableNames).toEqual(inTableOrder([...userTables, ...KITGATE_POSTGRES_TABLES, ...KITGATE_TABLES_BESIDE_MAPPING]));
 */
export const KITGATE_TABLES_BESIDE_MAPPING: readonly string[] = ['kitgate_account_fields', 'kitgate_session_organizations'];

/**
 * `names` in the order `order by table_name` lists them (these names sort the same byte by byte
 * and in the cluster's collation).
 *
 * @example
 * inTableOrder(['users', 'accounts']); // ['accounts', 'users']
 */
export function inTableOrder(names: readonly string[]): string[] {
	return [...names].sort();
}
