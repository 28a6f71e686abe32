// Fires the user's `events` handlers. A failing handler is logged and never breaks the flow.

import type { RequestContext } from './context.js';
import { EventError } from './errors.js';
import type { EventCallbacks } from './types.js';

/** Calls `events[name]` with `message`; errors are logged as `EventError`. */
export async function emitEvent<K extends keyof EventCallbacks>(
	ctx: RequestContext,
	name: K,
	message: Parameters<EventCallbacks[K]>[0]
): Promise<void> {
	const handler = ctx.config.events[name] as ((message: unknown) => unknown) | undefined;
	if (!handler) return;
	try {
		await handler(message);
	} catch (error) {
		ctx.config.logger.error(new EventError(`The "${name}" event handler threw.`, { cause: { err: error } }));
	}
}
