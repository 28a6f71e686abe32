import { afterEach, describe, expect, test, vi } from 'vitest';
import { AdapterError } from '../errors.js';
import { createLogger } from './logger.js';

afterEach(() => vi.restoreAllMocks());

describe("an app's logger receives the interface's form", () => {
	test('error(code, error): the kitgate error type, then the Error with its cause', () => {
		const calls: unknown[][] = [];
		const cause = new Error('connection refused');
		const error = new AdapterError('the database is down', { cause: { err: cause } });
		createLogger({ error: (...args) => void calls.push(args) }, false).error(error);
		expect(calls).toEqual([['AdapterError', error]]);
		expect((calls[0]![1] as Error).cause).toBeDefined();
	});

	test("an Error that is not kitgate's is logged under its name", () => {
		const calls: unknown[][] = [];
		const error = new TypeError('x is not a function');
		createLogger({ error: (...args) => void calls.push(args) }, false).error(error);
		expect(calls).toEqual([['TypeError', error]]);
	});

	test('warn and debug pass their code and message through; debug only with debug: true', () => {
		const calls: unknown[][] = [];
		const user = { warn: (...args: unknown[]) => void calls.push(['warn', ...args]), debug: (...args: unknown[]) => void calls.push(['debug', ...args]) };
		createLogger(user as never, false).debug('quiet', 'not shown');
		createLogger(user as never, true).debug('loud', 'shown', 1);
		createLogger(user as never, false).warn('careful', 'a', 'b');
		expect(calls).toEqual([['debug', 'loud', 'shown', 1], ['warn', 'careful', 'a', 'b']]);
	});

	test('without an error level, the console gets the code and message, and the cause', () => {
		const printed: string[] = [];
		vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')));
		createLogger(undefined, false).error(new AdapterError('the database is down', { cause: { err: new Error('connection refused') } }));
		expect(printed[0]).toMatch(/^\[kitgate\]\[error\]\[AdapterError\]/);
		expect(printed.join('\n')).toContain('connection refused');
	});
});
