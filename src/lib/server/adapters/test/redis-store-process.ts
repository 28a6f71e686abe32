// One app server of redis.test.ts's cross-process test: its own Node process with its own node-redis
// client and RedisRateLimitStore. Bundled with esbuild by the test, started with `fork`, driven over IPC.
//
// Messages in: { id, op: 'hammer', key, hits, now } (that many increments, ten at a time; answers the counts),
// { id, op: 'revoke', userId, at } and { id, op: 'revokedAt', userId, now }. Out: { id, result }.

import { createClient } from 'redis';
import { RedisRateLimitStore } from '../redis.js';

type Request =
	| { id: number; op: 'hammer'; key: string; hits: number; now: number }
	| { id: number; op: 'revoke'; userId: string; at: number }
	| { id: number; op: 'revokedAt'; userId: string; now: number };

const client = await createClient({ url: process.env.REDIS_URL }).connect();
const store = RedisRateLimitStore(client, { prefix: process.env.REDIS_PREFIX });

async function answer(request: Request): Promise<unknown> {
	switch (request.op) {
		case 'hammer': {
			// ten lanes of one hit after another: the hits spread over time and mix with the other process's
			const counts: number[] = [];
			const lane = async (hits: number) => {
				for (let i = 0; i < hits; i++) counts.push((await store.increment(request.key, 60, request.now)).count);
			};
			await Promise.all(Array.from({ length: 10 }, (_, i) => lane(Math.floor(request.hits / 10) + (i < request.hits % 10 ? 1 : 0))));
			return counts;
		}
		case 'revoke':
			return store.revoke(request.userId, request.at, 3600);
		case 'revokedAt':
			return store.revokedAt(request.userId, request.now);
	}
}

process.on('message', (request: Request) => {
	answer(request).then(
		(result) => process.send!({ id: request.id, result: result ?? null }),
		(error: Error) => process.send!({ id: request.id, error: error.message })
	);
});
// the parent disconnects the channel when it is done: close the client so the process can end
process.on('disconnect', () => void client.close());
process.send!({ ready: true });
