// The logger kitgate writes to: console by default, overridable per level through `config.logger`.
// Internal; the `LoggerInstance` type is public.

import { AuthError } from '../errors.js';
import type { LoggerInstance } from '../types.js';

/**
 * The logger the engine calls: errors are handed over as `Error`s, and reach an app's
 * `logger.error` in the interface's form `error(code, error)`.
 */
export interface EngineLogger {
	error(error: Error): void;
	warn(code: string, ...message: unknown[]): void;
	debug(code: string, ...message: unknown[]): void;
}

/** The code an error is logged under: a kitgate error's `type`, another error's `name`. */
function codeOf(error: Error): string {
	return error instanceof AuthError ? error.type : error.name;
}

/**
 * Builds the logger for a config: user levels win, `debug` is silent unless `debug: true`.
 *
 * @example
 * createLogger({ error: (code, error) => report(code, error) }, false).error(new AdapterError('down'));
 */
export function createLogger(user: Partial<LoggerInstance> | undefined, debug: boolean): EngineLogger {
	const userError = user?.error;
	return {
		error: userError ? (error) => userError(codeOf(error), error) : logErrorToConsole,
		warn: user?.warn ?? ((code, ...message) => console.warn(`[kitgate][warn][${code}]`, ...message)),
		debug: debug
			? (user?.debug ?? ((code, ...message) => console.debug(`[kitgate][debug][${code}]`, ...message)))
			: () => {}
	};
}

function logErrorToConsole(error: Error): void {
	const type = codeOf(error);
	const cause = (error.cause as { err?: unknown } | undefined)?.err ?? error.cause;
	console.error(`[kitgate][error][${type}] ${error.message}`);
	if (cause instanceof Error) console.error(`[kitgate][cause] ${cause.stack ?? cause.message}`);
	else if (cause !== undefined) console.error('[kitgate][cause]', cause);
}
