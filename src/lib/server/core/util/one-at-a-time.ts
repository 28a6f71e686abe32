// Runs tasks that share a key one after another in this process, so two concurrent check-then-write
// steps (two removals of a user's ways in, two sign-ins creating one user) never both pass the check.

/** Runs `task` after every earlier task of the same queue and key has finished (an undefined key: at once). */
export type OneAtATime = <T>(key: string | undefined, task: () => Promise<T>) => Promise<T>;

/**
 * A queue of its own: its keys never wait on another queue's, so a task may call another queue
 * whatever keys the two use. Across processes the callers re-check after they write (e.g.
 * `removeWayIn` counts what is left; a sign-in meets the unique constraints).
 *
 * @example
 * const oneSignInAtATime = keyedQueue();
 * await oneSignInAtATime(`${account.provider}\u0000${account.providerAccountId}`, () => signIn());
 */
export function keyedQueue(): OneAtATime {
	const queues = new Map<string, Promise<unknown>>();
	return async (key, task) => {
		if (key === undefined) return task();
		const previous = queues.get(key) ?? Promise.resolve();
		const current = previous.catch(() => undefined).then(task);
		queues.set(key, current);
		try {
			return await current;
		} finally {
			if (queues.get(key) === current) queues.delete(key);
		}
	};
}

/**
 * The queue of a user's account changes (removing a way in, enrolling a second factor).
 *
 * @example
 * await oneAtATime(`ways-in\u0000${user.id}`, () => removeWayIn(…));
 */
export const oneAtATime: OneAtATime = keyedQueue();
