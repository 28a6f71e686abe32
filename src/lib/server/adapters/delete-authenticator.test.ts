// `deleteAuthenticator` (kitgate's optional adapter method for removing a passkey) on every
// adapter: it removes exactly one authenticator, returns it, and answers null when there is none.

import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, test } from 'vitest';
import type { Adapter, AdapterAuthenticator } from '../core/types.js';
import { MemoryAdapter } from './memory.js';
import { PostgresAdapter } from './postgres.js';
import { SQLiteAdapter } from './sqlite.js';

const tempDir = mkdtempSync(join(tmpdir(), 'kitgate-delete-authenticator-'));
const schema = `t_${randomBytes(6).toString('hex')}`;
const connectionString = inject('databaseUrl');
const closers: (() => Promise<void> | void)[] = [];

afterAll(async () => {
	for (const close of closers) await close();
	const admin = new pg.Pool({ connectionString, max: 1 });
	await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
	await admin.end();
	rmSync(tempDir, { recursive: true, force: true });
});

const adapters: [string, () => Required<Adapter>][] = [
	['memory', () => MemoryAdapter()],
	[
		'sqlite',
		() => {
			const adapter = SQLiteAdapter({ filename: join(tempDir, `${crypto.randomUUID()}.sqlite`) });
			closers.push(() => adapter.close());
			return adapter;
		}
	],
	[
		'postgres',
		() => {
			const adapter = PostgresAdapter({ connectionString, schema });
			closers.push(() => adapter.close());
			return adapter;
		}
	]
];

function authenticatorOf(userId: string): AdapterAuthenticator {
	const credentialID = randomBytes(16).toString('base64url');
	return {
		credentialID,
		userId,
		providerAccountId: credentialID,
		credentialPublicKey: randomBytes(77).toString('base64url'),
		counter: 3,
		credentialDeviceType: 'multiDevice',
		credentialBackedUp: true,
		transports: 'internal,hybrid'
	};
}

describe.each(adapters)('deleteAuthenticator (%s)', (_name, make) => {
	test('removes one authenticator, returns it, and leaves the user’s others', async () => {
		const adapter = make();
		const id = crypto.randomUUID();
		const user = await adapter.createUser({ id, email: `${id}@example.com`, emailVerified: null });
		const doomed = await adapter.createAuthenticator(authenticatorOf(user.id));
		const kept = await adapter.createAuthenticator(authenticatorOf(user.id));
		expect(await adapter.deleteAuthenticator(doomed.credentialID)).toEqual(doomed);
		expect(await adapter.getAuthenticator(doomed.credentialID)).toBeNull();
		expect(await adapter.listAuthenticatorsByUserId(user.id)).toEqual([kept]);
	});

	test('answers null for an unknown credential', async () => {
		const adapter = make();
		expect(await adapter.deleteAuthenticator(randomBytes(16).toString('base64url'))).toBeNull();
	});
});
