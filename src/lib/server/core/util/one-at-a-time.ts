// Runs tasks that share a key one after another in this process, so two concurrent check-then-write
// steps (two removals of a user's ways in, two sign-ins creating one user) never both pass the check.

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier task with the same `key` in this process has finished. Across
 * processes the callers re-check after they write (e.g. `removeWayIn` counts what is left).
 *
 * @example
 * await oneAtATime(`ways-in\u0000${user.id}`, () => removeWayIn(…));
 */
export async function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
	const previous = queues.get(key) ?? Promise.resolve();
	const current = previous.catch(() => undefined).then(task);
	queues.set(key, current);
	try {
		return await current;
	} finally {
		if (queues.get(key) === current) queues.delete(key);
	}
}
