// The admin user list of the SQL adapters: one page of the users table (whichever a mapping names),
// searched literally and case-insensitively, ordered by email then id, and the count of all matches.
// Internal to the SQL adapters.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { AuthTablesDb, MappedTable } from './mapped-tables.js';
import type { ResolvedTableMapping } from './table-mapping.js';
import type { ValueCodec } from './rows.js';

/**
 * The character that makes the next `%`, `_` or itself literal in the LIKE patterns below; not a
 * backslash, which a PostgreSQL server with `standard_conforming_strings` off reads as an escape.
 */
const LIKE_ESCAPE = '!';

/**
 * A LIKE pattern that matches any text containing `text` literally: its `%`, `_` and escape
 * characters lose their meaning.
 *
 * @example
 * containsPattern('50%_off!'); // '%50!%!_off!!%'
 */
export function containsPattern(text: string): string {
	return `%${text.replace(/[!%_]/g, (character) => LIKE_ESCAPE + character)}%`;
}

/**
 * The two queries of one page of the list: its users (their columns aliased to the user's
 * fields), and the number of users matching `search` in all. `search` is already trimmed; `''`
 * matches every user. Emails compare as `''` when NULL and in code point order on PostgreSQL too
 * (`COLLATE "C"`), as SQLite and the memory adapter order them.
 *
 * @example
 * const [page, count] = userListQueries(auth(db), users, mapping, values, { search: 'ada', limit: 20, offset: 0 });
 */
export function userListQueries(
	db: AuthTablesDb,
	users: MappedTable,
	mapping: ResolvedTableMapping,
	values: ValueCodec,
	{ search, limit, offset }: { search: string; limit: number; offset: number }
) {
	const postgres = mapping.dialect === 'postgres';
	const matching = () => {
		const query = db.selectFrom(users.name);
		if (!search) return query;
		const pattern = containsPattern(search);
		const contains = (field: 'email' | 'name'): Expression<SqlBool> =>
			sql<SqlBool>`lower(${sql.ref(users.column(field))}) like lower(${pattern}) escape ${sql.raw(`'${LIKE_ESCAPE}'`)}`;
		const id = values.userId(search);
		return query.where((eb) =>
			eb.or([contains('email'), contains('name'), ...(id === null ? [] : [eb(users.column('id'), '=', id)])])
		);
	};
	const inCodePointOrder = (expression: ReturnType<typeof sql>) => (postgres ? sql`${expression} collate "C"` : expression);
	const email = inCodePointOrder(sql`coalesce(${sql.ref(users.column('email'))}, '')`);
	const id = mapping.types.userId === 'text' ? inCodePointOrder(sql`${sql.ref(users.column('id'))}`) : sql`${sql.ref(users.column('id'))}`;
	const page = matching().select(users.selection()).orderBy(email).orderBy(id).limit(limit).offset(offset);
	const count = matching().select((eb) => eb.fn.countAll().as('total'));
	return [page, count] as const;
}
