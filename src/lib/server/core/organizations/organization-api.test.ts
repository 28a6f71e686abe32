// `organizationApi(config, actor)`: an actor is required and checked (an unknown user is a member of
// nothing), the config must have `organizations`, a script acts without permission checks, and an
// `organizationChange` handler that throws is logged, never breaking the change.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { TEST_SECRET } from '../test/client.js';
import type { AuthConfig } from '../types.js';
import { organizationApi, type OrganizationActor } from './organization-api.js';

async function world(extra: Partial<AuthConfig> = {}) {
	const adapter = MemoryAdapter();
	const logged: unknown[] = [];
	const config: AuthConfig = {
		providers: [],
		secret: TEST_SECRET,
		adapter,
		organizations: {},
		logger: { error: (error) => void logged.push(error), warn: () => {}, debug: () => {} },
		...extra
	};
	await adapter.createUser({ id: 'olga', email: 'olga@example.com', emailVerified: null });
	await adapter.createUser({ id: 'mia', email: 'mia@example.com', emailVerified: null });
	return { adapter, config, logged };
}

describe('organizationApi', () => {
	test('needs an actor: { userId } or { system: true }', async () => {
		const { config } = await world();
		for (const actor of [undefined, {}, { userId: '' }, { system: false }, { userId: 7 }]) {
			expect(() => organizationApi(config, actor as unknown as OrganizationActor), JSON.stringify(actor)).toThrow(/organizationApi needs an actor/);
		}
	});

	test('needs `organizations` in the config', async () => {
		const { config } = await world({ organizations: undefined });
		await expect(organizationApi(config, { userId: 'olga' }).list()).rejects.toThrow(/organizationApi needs `organizations` in the config/);
	});

	test('an unknown user is refused; a script creates for a named owner, makes owners, and may not leave', async () => {
		const { config, adapter } = await world();
		await expect(organizationApi(config, { userId: 'ghost' }).create({ name: 'Ghost' })).rejects.toMatchObject({ type: 'InvalidRequest' });
		const system = organizationApi(config, { system: true });
		const org = await system.create({ name: 'Acme', ownerId: 'olga' });
		await adapter.createMember({ id: 'm-mia', organizationId: org.id, userId: 'mia', role: 'member', createdAt: new Date() });
		expect(await system.setRole(org.id, 'm-mia', 'owner')).toMatchObject({ role: 'owner' });
		await expect(system.leave(org.id)).rejects.toMatchObject({ type: 'InvalidRequest' });
		await expect(system.list()).rejects.toMatchObject({ type: 'InvalidRequest' });
		expect((await system.get(org.id)).members.map((member) => member.role)).toEqual(['owner', 'owner']);
		await expect(system.get('no-such')).rejects.toMatchObject({ type: 'OrganizationNotFound' });
	});

	test('an organizationChange handler that throws is logged; the change stands', async () => {
		const { config, adapter, logged } = await world({
			events: {
				organizationChange: () => {
					throw new Error('handler broke');
				}
			}
		});
		const org = await organizationApi(config, { userId: 'olga' }).create({ name: 'Acme' });
		expect(await adapter.getOrganization(org.id)).toMatchObject({ name: 'Acme' });
		expect(logged).toEqual(['EventError']);
	});
});
