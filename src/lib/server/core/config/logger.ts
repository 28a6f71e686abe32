// The logger kitgate writes to: console by default, overridable per level through `config.logger`.
// Internal; the `LoggerInstance` type is public.

import { AuthError } from '../errors.js';
import type { LoggerInstance } from '../types.js';

/** Builds the logger for a config: user levels win, `debug` is silent unless `debug: true`. */
export function createLogger(user: Partial<LoggerInstance> | undefined, debug: boolean): LoggerInstance {
	return {
		error: user?.error ?? logErrorToConsole,
		warn: user?.warn ?? ((code, ...message) => console.warn(`[kitgate][warn][${code}]`, ...message)),
		debug: debug
			? (user?.debug ?? ((code, ...message) => console.debug(`[kitgate][debug][${code}]`, ...message)))
			: () => {}
	};
}

function logErrorToConsole(error: Error): void {
	const type = error instanceof AuthError ? error.type : error.name;
	const cause = (error.cause as { err?: unknown } | undefined)?.err ?? error.cause;
	console.error(`[kitgate][error][${type}] ${error.message}`);
	if (cause instanceof Error) console.error(`[kitgate][cause] ${cause.stack ?? cause.message}`);
	else if (cause !== undefined) console.error('[kitgate][cause]', cause);
}
