// Fires the user's `events` handlers. A failing handler is logged and never breaks the flow.

import type { RequestContext } from '../request/context.js';
import { EventError } from '../errors.js';
import type { EventCallbacks } from '../types.js';

/** Calls `events[name]` with `message`; errors are logged as `EventError`. Nothing to wait for when no handler is set. */
export function emitEvent<K extends keyof EventCallbacks>(
	ctx: RequestContext,
	name: K,
	message: Parameters<EventCallbacks[K]>[0]
): Promise<void> | undefined {
	const handler = ctx.config.events[name] as ((message: unknown) => unknown) | undefined;
	return handler ? runHandler(ctx, name, handler, message) : undefined;
}

async function runHandler(ctx: RequestContext, name: string, handler: (message: unknown) => unknown, message: unknown): Promise<void> {
	try {
		await handler(message);
	} catch (error) {
		ctx.config.logger.error(new EventError(`The "${name}" event handler threw.`, { cause: { err: error } }));
	}
}
