// Queries of the hot path whose SQL text does not depend on their one value (the session check's
// lookup by token): built and compiled by Kysely once per database handle, then run with each
// call's value bound as the parameter, as the query built anew would bind it.

import type { CompiledQuery, Compilable } from 'kysely';
import { randomUuid } from '../../core/crypto/random.js';

/** Stands for the value while the query is compiled; found nowhere else in a query. Made on first use: a Worker refuses randomness at module load. */
let marker: string | undefined;

/**
 * Wraps `build` (a query with exactly one bound value) so that it is compiled once per database
 * handle. When the compiled query binds anything but that one value (or the value shows in the
 * SQL text), nothing is reused and each call builds the query anew.
 *
 * @example
 * const sessionByToken = reusableQuery((db, token) => db.selectFrom('session').selectAll().where('sessionToken', '=', token));
 * const { rows } = await db.executeQuery(sessionByToken(db, token));
 */
export function reusableQuery<D extends object, R>(build: (db: D, value: string) => Compilable<R>): (db: D, value: string) => CompiledQuery<R> {
	const compiled = new WeakMap<D, CompiledQuery<R> | null>();
	return (db, value) => {
		let template = compiled.get(db);
		if (template === undefined) {
			marker ??= `kitgate-reusable-parameter-${randomUuid()}`;
			const candidate = build(db, marker).compile();
			const reusable = candidate.parameters.length === 1 && candidate.parameters[0] === marker && !candidate.sql.includes(marker);
			compiled.set(db, (template = reusable ? candidate : null));
		}
		return template ? { ...template, parameters: [value] } : build(db, value).compile();
	};
}
