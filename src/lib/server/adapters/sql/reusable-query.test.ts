import { describe, expect, test } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { reusableQuery } from './reusable-query.js';

type Db = Kysely<Record<string, Record<string, unknown>>>;

/** A Kysely that compiles PostgreSQL and runs nothing. */
function compiler(): Db {
	return new Kysely({
		dialect: {
			createAdapter: () => new PostgresAdapter(),
			createDriver: () => new DummyDriver(),
			createIntrospector: (db) => new PostgresIntrospector(db),
			createQueryCompiler: () => new PostgresQueryCompiler()
		}
	});
}

describe('reusableQuery', () => {
	test('compiles once per database handle and binds each call its own value', () => {
		let builds = 0;
		const byToken = reusableQuery((db: Db, token: string) => {
			builds++;
			return db.selectFrom('session').selectAll().where('sessionToken', '=', token);
		});
		const db = compiler();
		const first = byToken(db, 'token-1');
		const second = byToken(db, "token-2'; drop table session; --");
		expect(builds).toBe(1);
		expect(second.sql).toBe(first.sql);
		expect(first.sql).toBe('select * from "session" where "sessionToken" = $1');
		expect(first.parameters).toEqual(['token-1']);
		expect(second.parameters).toEqual(["token-2'; drop table session; --"]);
		byToken(compiler(), 'token-3');
		expect(builds).toBe(2);
	});

	test('a query binding more than its one value is built anew on every call', () => {
		let builds = 0;
		const twoValues = reusableQuery((db: Db, token: string) => {
			builds++;
			return db.selectFrom('session').selectAll().where('sessionToken', '=', token).where('userId', '=', 'fixed');
		});
		const db = compiler();
		expect(twoValues(db, 'a').parameters).toEqual(['a', 'fixed']);
		expect(twoValues(db, 'b').parameters).toEqual(['b', 'fixed']);
		expect(builds).toBe(3);
	});

	test('a query that writes its value into the SQL text is built anew on every call', () => {
		const inline = reusableQuery((db: Db, token: string) => db.selectFrom('session').select(sql.lit(token).as('t')).where('sessionToken', '=', token));
		const db = compiler();
		expect(inline(db, 'a').sql).toContain("'a'");
		expect(inline(db, 'b').sql).toContain("'b'");
	});
});
