// A change of a member decided on the role read before it is written (issue 33): an admin demoting
// or removing another admin while the owner promotes that admin to owner must never end with an
// owner demoted or removed by an admin. Through both integrations, on memory, SQLite and a real
// PostgreSQL. The owner's promotion is made (over HTTP) exactly between the admin's read of the
// member and the write, by an adapter that runs a one-shot hook before the write: the interleaving
// of two concurrent requests, every time rather than by luck. And the last two owners taking each
// other away at the same moment over HTTP: one owner always stays.

import { beforeAll, describe, expect, test } from 'vitest';
import type { Adapter, AdapterOrganization } from '../types.js';
import { sinkProvider } from '../test/email-fixtures.js';
import { INTEGRATIONS, type AppServer } from '../test/integrations.js';
import { address, attackConfig, attackWorld } from '../test/attacks/flows.js';
import { signedInByEmail, type SignedInPerson } from '../test/attacks/signed-in-person.js';
import { memorySqliteAndPostgresAdapters } from '../test/stored-adapters-with-postgres.js';
import { answer, post } from './test/invitation-fixture.js';

const adapters: [string, () => Required<Adapter>][] = memorySqliteAndPostgresAdapters('member-role-change-races');

/** The adapter, with `beforeMemberWrite` run once just before the next `updateMemberRole`/`deleteMember`. */
function interleaving(adapter: Required<Adapter>) {
	const hook: { beforeMemberWrite: (() => Promise<void>) | null } = { beforeMemberWrite: null };
	const wrapped = new Proxy(adapter, {
		get(target, property, receiver) {
			const value = Reflect.get(target, property, receiver);
			if (property !== 'updateMemberRole' && property !== 'deleteMember') return value;
			return async (...args: unknown[]) => {
				const run = hook.beforeMemberWrite;
				hook.beforeMemberWrite = null;
				if (run) await run();
				return (value as (...a: unknown[]) => unknown).apply(target, args);
			};
		}
	});
	return { adapter: wrapped, hook };
}

const world = attackWorld({ sink: true });

type Person = SignedInPerson;

describe.each(INTEGRATIONS)('%s', (integration) => {
	describe.each(adapters)('%s adapter', (_adapterName, makeAdapter) => {
		const app = (): AppServer => world.apps[integration];
		let store: Required<Adapter>;
		let hook: { beforeMemberWrite: (() => Promise<void>) | null };
		let olga: Person, adam: Person;
		let org: AdapterOrganization;

		const signedIn = (name: string) => signedInByEmail(app(), world.sink, store, address(`${name}-${crypto.randomUUID().slice(0, 8)}`));

		async function roleOf(userId: string): Promise<string | null> {
			return (await store.getMembership(org.id, userId))?.member.role ?? null;
		}

		beforeAll(async () => {
			const made = interleaving(makeAdapter());
			store = made.adapter;
			hook = made.hook;
			app().use(attackConfig(store, 'database', { providers: [sinkProvider(world.sink)], organizations: {} }));
			[olga, adam] = [await signedIn('olga'), await signedIn('adam')];
			expect((await post(app(), olga, 'create', { name: 'Acme' })).status).toBe(200);
			org = (await store.listMemberships(olga.user.id))[0].organization;
			await store.createMember({ id: crypto.randomUUID(), organizationId: org.id, userId: adam.user.id, role: 'admin', createdAt: new Date() });
		});

		/** A new admin of Acme, and the owner's promotion of them to owner, to run between the admin's read and write. */
		async function adminBeingPromoted(): Promise<{ bea: Person; memberId: string }> {
			const bea = await signedIn('bea');
			const memberId = crypto.randomUUID();
			await store.createMember({ id: memberId, organizationId: org.id, userId: bea.user.id, role: 'admin', createdAt: new Date() });
			hook.beforeMemberWrite = async () => {
				expect(await answer(await post(app(), olga, 'set-role', { organizationId: org.id, memberId, role: 'owner' }))).toMatchObject({ status: 200, body: { result: 'role-changed' } });
			};
			return { bea, memberId };
		}

		test('an admin demoting an admin whom the owner promotes meanwhile: refused, the new owner stays owner', async () => {
			const { bea, memberId } = await adminBeingPromoted();
			const demotion = await answer(await post(app(), adam, 'set-role', { organizationId: org.id, memberId, role: 'member' }));
			expect(hook.beforeMemberWrite).toBeNull();
			expect(demotion).toEqual({ status: 403, body: { error: 'OrganizationForbidden' } });
			expect(await roleOf(bea.user.id)).toBe('owner');
		});

		test('an admin removing an admin whom the owner promotes meanwhile: refused, the new owner stays', async () => {
			const { bea, memberId } = await adminBeingPromoted();
			const removal = await answer(await post(app(), adam, 'remove-member', { organizationId: org.id, memberId }));
			expect(hook.beforeMemberWrite).toBeNull();
			expect(removal).toEqual({ status: 403, body: { error: 'OrganizationForbidden' } });
			expect(await roleOf(bea.user.id)).toBe('owner');
		});

		test('a role changed meanwhile to one the actor may still act on: decided again and made', async () => {
			const mia = await signedIn('mia');
			const memberId = crypto.randomUUID();
			await store.createMember({ id: memberId, organizationId: org.id, userId: mia.user.id, role: 'admin', createdAt: new Date() });
			hook.beforeMemberWrite = async () => {
				expect((await post(app(), olga, 'set-role', { organizationId: org.id, memberId, role: 'member' })).status).toBe(200);
			};
			expect(await answer(await post(app(), adam, 'remove-member', { organizationId: org.id, memberId }))).toMatchObject({ status: 200, body: { result: 'member-removed' } });
			expect(await roleOf(mia.user.id)).toBeNull();
		});

		test('the last two owners demoting, removing each other or leaving at the same moment: one owner always stays', async () => {
			// each takes away a different owner: one demotes or removes the other, or steps down or leaves
			const moves: [string, string, string, string][] = [
				['set-role', 'other', 'set-role', 'other'],
				['remove-member', 'other', 'remove-member', 'other'],
				['leave', 'self', 'leave', 'self'],
				['set-role', 'self', 'leave', 'self'],
				['remove-member', 'other', 'set-role', 'other']
			];
			for (const [first, firstTarget, second, secondTarget] of moves) {
				const [ann, ben] = [await signedIn('ann'), await signedIn('ben')];
				expect((await post(app(), ann, 'create', { name: 'Duo' })).status).toBe(200);
				const duo = (await store.listMemberships(ann.user.id))[0].organization;
				const benMember = crypto.randomUUID();
				await store.createMember({ id: benMember, organizationId: duo.id, userId: ben.user.id, role: 'owner', createdAt: new Date() });
				const annMember = (await store.getMembership(duo.id, ann.user.id))!.member.id;
				const fields = (operation: string, memberId: string): Record<string, string> => (operation === 'leave' ? { organizationId: duo.id } : operation === 'set-role' ? { organizationId: duo.id, memberId, role: 'member' } : { organizationId: duo.id, memberId });
				const [a, b] = await Promise.all([
					post(app(), ann, first, fields(first, firstTarget === 'self' ? annMember : benMember)),
					post(app(), ben, second, fields(second, secondTarget === 'self' ? benMember : annMember))
				]);
				const answers = [await answer(a), await answer(b)];
				const owners = (await store.listMembers(duo.id)).filter((member) => member.role === 'owner');
				expect(owners, `${first} / ${second}`).toHaveLength(1);
				// one is made; the other refused: the last owner stays, or (when it came second) its actor is no owner or no member any more
				const refused = answers.filter((each) => each.status !== 200);
				expect(refused, `${first} / ${second}`).toHaveLength(1);
				expect([
					{ status: 409, body: { error: 'OrganizationLastOwner' } },
					{ status: 403, body: { error: 'OrganizationForbidden' } },
					{ status: 404, body: { error: 'OrganizationNotFound' } }
				]).toContainEqual(refused[0]);
			}
		});
	});
});
