// Runs the removals of one user's ways in one after another in this process, so two concurrent
// removals never both see the other's way in as the one that remains.

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier task with the same `key` in this process has finished. Across
 * processes the removals re-check what is left after they write (`removeWayIn`).
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
