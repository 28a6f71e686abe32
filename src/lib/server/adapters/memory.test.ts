import { describe, expect, test } from 'vitest';
import { AdapterError } from '../core/errors.js';
import { runAdapterTests } from '../../testing/index.js';
import { isUniqueViolation, UniqueViolationError, UNIQUE_VIOLATION } from './errors.js';
import { MemoryAdapter } from './memory.js';

runAdapterTests({ name: 'MemoryAdapter', adapter: () => MemoryAdapter() });

describe('MemoryAdapter', () => {
	test('returns copies: changing a returned user does not change the stored one', async () => {
		const adapter = MemoryAdapter();
		const user = await adapter.createUser({ id: 'u1', email: 'ada@example.com', emailVerified: new Date(5) });
		user.name = 'Changed';
		user.emailVerified?.setTime(99);
		expect(await adapter.getUser('u1')).toEqual({
			id: 'u1',
			email: 'ada@example.com',
			emailVerified: new Date(5),
			name: null,
			image: null
		});
	});

	test('two adapters do not share data', async () => {
		const first = MemoryAdapter();
		const second = MemoryAdapter();
		await first.createUser({ id: 'u1', email: 'ada@example.com', emailVerified: null });
		expect(await second.getUser('u1')).toBeNull();
	});

	test('createUser without an id gets a generated one', async () => {
		const user = await MemoryAdapter().createUser({ id: '', email: 'ada@example.com', emailVerified: null });
		expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
	});

	test('a unique violation is an AdapterError with a stable code and the constraint name', async () => {
		const adapter = MemoryAdapter();
		await adapter.createUser({ id: 'u1', email: 'ada@example.com', emailVerified: null });
		const error = await rejection(adapter.createUser({ id: 'u2', email: 'ada@example.com', emailVerified: null }));
		expect(error).toBeInstanceOf(UniqueViolationError);
		expect(error).toBeInstanceOf(AdapterError);
		expect(error).toMatchObject({ code: UNIQUE_VIOLATION, constraint: 'users_email_key', type: 'AdapterError' });
	});
});

describe('isUniqueViolation', () => {
	test('recognises the drivers’ codes, and a violation wrapped as a cause', () => {
		expect(isUniqueViolation(Object.assign(new Error('pg'), { code: '23505' }))).toBe(true);
		expect(isUniqueViolation(Object.assign(new Error('sqlite'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBe(true);
		expect(isUniqueViolation(new AdapterError('wrapped', { cause: new UniqueViolationError('x') }))).toBe(true);
	});

	test('recognises libSQL’s extended code and Cloudflare D1’s message (D1 errors carry no code)', () => {
		expect(isUniqueViolation(Object.assign(new Error('libsql'), { code: 'SQLITE_CONSTRAINT', extendedCode: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBe(true);
		expect(isUniqueViolation(new Error('D1_ERROR: UNIQUE constraint failed: users.email: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_UNIQUE)'))).toBe(true);
		expect(isUniqueViolation(new Error('D1_ERROR: UNIQUE constraint failed: users.id: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_PRIMARYKEY)'))).toBe(true);
		expect(isUniqueViolation(new Error('D1_ERROR: FOREIGN KEY constraint failed: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_FOREIGNKEY)'))).toBe(false);
		expect(isUniqueViolation(Object.assign(new Error('libsql'), { code: 'SQLITE_CONSTRAINT', extendedCode: 'SQLITE_CONSTRAINT_FOREIGNKEY' }))).toBe(false);
		// the message must be D1's own, not text that merely mentions the code
		expect(isUniqueViolation(new Error('login failed for (extended: SQLITE_CONSTRAINT_UNIQUE)'))).toBe(false);
	});

	test('is false for other errors and non-errors', () => {
		expect(isUniqueViolation(Object.assign(new Error('fk'), { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }))).toBe(false);
		expect(isUniqueViolation(Object.assign(new Error('fk'), { code: '23503' }))).toBe(false);
		expect(isUniqueViolation(new Error('plain'))).toBe(false);
		expect(isUniqueViolation(null)).toBe(false);
		expect(isUniqueViolation('23505')).toBe(false);
	});

	test('stops on a cyclic cause chain', () => {
		const error = new Error('loop') as Error & { cause?: unknown };
		error.cause = error;
		expect(isUniqueViolation(error)).toBe(false);
	});
});

/** The reason a call rejected with, or null when it succeeded. */
function rejection(result: unknown): Promise<unknown> {
	return Promise.resolve(result).then(
		() => null,
		(reason: unknown) => reason
	);
}
