// The adapter modules bundled for Cloudflare Workers and run in workerd (Miniflare), with and
// without nodejs_compat: every module loads (nothing a Worker refuses at module load), SQLiteAdapter
// works on D1 through the binding alone, and what needs Node refuses by the runtime's name.

import { Miniflare } from 'miniflare';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { workerBundle } from '../core/test/runtimes/worker-bundle.js';

process.env.WRANGLER_SEND_METRICS = 'false';

// every shipped adapter module, and one request that uses the SQL adapter and its store on D1
const worker = `
import { SQLiteAdapter } from './sqlite.ts';
import { PostgresAdapter } from './postgres.ts';
import { SqlRateLimitStore } from './rate-limit-store.ts';
import { MemoryAdapter } from './memory.ts';
import { RedisRateLimitStore, RedisSessionCacheStore } from './redis.ts';
import { withUniqueViolations } from './errors.ts';

const refusal = (create) => { try { create(); return null; } catch (error) { return error.message; } };

export default {
	async fetch(request, env) {
		const adapter = SQLiteAdapter({ d1: env.DB });
		const id = crypto.randomUUID();
		const user = await adapter.createUser({ id, email: id + '@example.com', emailVerified: null });
		await adapter.linkAccount({ userId: id, type: 'oauth', provider: 'twitter', providerAccountId: id, oauth_token_secret: 's', extra_field: 1 });
		await adapter.createSession({ sessionToken: id, userId: id, expires: new Date(Date.now() + 60000), userAgent: 'workerd' });
		const read = await adapter.getSessionAndUser(id);
		await adapter.setTwoFactor({ userId: id, totpSecret: 'sealed', lastUsedStep: null, recoveryCodes: ['a', 'b'] });
		const updated = await adapter.updateAccount({ provider: 'twitter', providerAccountId: id, oauth_token_secret: 't' });
		const duplicate = await adapter.createUser({ id: crypto.randomUUID(), email: user.email, emailVerified: null }).then(() => null, (error) => error.code);
		const count = await SqlRateLimitStore(adapter).increment(id, 60, Date.now());
		const deleted = await adapter.deleteUser(id);
		return Response.json({
			userAgent: read?.session.userAgent ?? null,
			secret: updated?.oauth_token_secret ?? null,
			extra: updated?.extra_field ?? null,
			duplicate,
			count: count.count,
			deleted: deleted?.id === id,
			gone: (await adapter.getUser(id)) === null && (await adapter.getTwoFactor(id)) === null,
			loaded: [typeof MemoryAdapter, typeof RedisRateLimitStore, typeof RedisSessionCacheStore, typeof withUniqueViolations].every((type) => type === 'function'),
			sqliteFile: refusal(() => SQLiteAdapter({ filename: 'auth.sqlite' })),
			postgres: refusal(() => PostgresAdapter({ connectionString: 'postgres://127.0.0.1/none' }))
		});
	}
};
`;

let mf: Miniflare;
beforeAll(async () => {
	const script = await workerBundle(worker, fileURLToPath(new URL('.', import.meta.url)));
	mf = new Miniflare({
		workers: [
			{ name: 'plain', modules: true, script, compatibilityDate: '2026-04-01', d1Databases: { DB: 'plain' } },
			{ name: 'node-compat', modules: true, script, compatibilityDate: '2026-04-01', compatibilityFlags: ['nodejs_compat'], d1Databases: { DB: 'compat' } }
		]
	});
	await mf.ready;
}, 120_000);
afterAll(() => mf?.dispose());

describe.each(['plain', 'node-compat'])('the adapters in workerd (%s)', (name) => {
	test('load, store a user with an account, a session, a second factor and a rate-limit hit on D1, and delete it all', async () => {
		const response = await (await mf.getWorker(name)).fetch('http://kitgate.test/');
		const result = (await response.json()) as Record<string, unknown>;
		expect(result).toMatchObject({
			userAgent: 'workerd',
			secret: 't',
			extra: 1,
			duplicate: 'UNIQUE_VIOLATION',
			count: 1,
			deleted: true,
			gone: true,
			loaded: true
		});
		expect(result.sqliteFile).toMatch(/needs Node\.js; this is Cloudflare Workers\. Use Cloudflare D1/);
		expect(result.postgres).toMatch(/this is Cloudflare Workers/);
	});
});
