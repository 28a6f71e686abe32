// More attacks on the organization routes (issue 33), through both integrations, on memory, SQLite
// and a real PostgreSQL: ids of another organization's members, teams and invitations passed with
// one's own organizationId; another user's CSRF token and method-override tricks; prototype keys
// as role names and ids; bodies of 100k characters, arrays and `__proto__` in JSON; slug
// collisions, case and look-alike tricks; and whether an invitation tells an address with an
// account from one without; POST /auth/session with data naming another organization, merged by
// the app's callbacks. Every one a 4xx with a stable code (or the same answer), nothing changed.

import { beforeAll, describe, expect, test } from 'vitest';
import type { Adapter, AdapterInvitation, AdapterOrganization, AdapterTeam, AdapterUser } from '../types.js';
import { sinkProvider } from '../test/email-fixtures.js';
import { Browser, INTEGRATIONS, type AppServer } from '../test/integrations.js';
import { address, attackConfig, attackWorld, signInByEmail } from '../test/attacks/flows.js';
import { can } from './can.js';
import { memorySqliteAndPostgresAdapters } from '../test/stored-adapters-with-postgres.js';

const adapters: [string, () => Required<Adapter>][] = memorySqliteAndPostgresAdapters('organization-foreign-ids');
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const world = attackWorld({ sink: true });
// `billing` may delete the organization (which an admin may not); `viewer` may do nothing, less than a member
const CUSTOM_ROLES = { billing: { organization: ['delete'] }, viewer: {}, member: { project: ['read'] }, admin: { project: ['read'] } };

interface Person {
	browser: Browser;
	user: AdapterUser;
}

async function answer(response: Response): Promise<{ status: number; body: unknown }> {
	const text = await response.text();
	return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

test('can() answers false for prototype keys as roles, resources and actions', () => {
	const config = { organizations: { roles: { editor: { project: ['update'] } } } };
	for (const key of PROTOTYPE_KEYS) {
		expect(can({ organization: { id: 'o', name: 'O', slug: 'o', logo: null, role: key } }, 'project', 'update', config), key).toBe(false);
		expect(can({ organization: { id: 'o', name: 'O', slug: 'o', logo: null, role: 'editor' } }, key, 'update', config), key).toBe(false);
		expect(can({ organization: { id: 'o', name: 'O', slug: 'o', logo: null, role: 'editor' } }, 'project', key, config), key).toBe(false);
		expect(can({ organization: { id: 'o', name: 'O', slug: 'o', logo: null, role: 'member' } }, key, key, config), key).toBe(false);
	}
});

describe.each(INTEGRATIONS)('%s', (integration) => {
	describe.each(adapters)('%s adapter', (_adapterName, makeAdapter) => {
		const app = (): AppServer => world.apps[integration];
		let store: Required<Adapter>;
		let olga: Person, eve: Person, ed: Person, mia: Person, adam: Person;
		let adamMemberId: string;
		let acme: AdapterOrganization, eveCorp: AdapterOrganization;
		let acmeTeam: AdapterTeam, eveTeam: AdapterTeam;
		let eveInvitation: AdapterInvitation;
		let edMemberId: string, miaMemberId: string;

		async function signedIn(name: string): Promise<Person> {
			const browser = new Browser();
			const email = address(`${name}-${crypto.randomUUID().slice(0, 8)}`);
			await signInByEmail(browser, app(), world.sink, email);
			return { browser, user: (await store.getUserByEmail(email))! };
		}

		async function post(person: Person, operation: string, fields: unknown, csrfToken?: string) {
			const token = csrfToken ?? (await person.browser.csrfToken(app().origin));
			const body = fields !== null && typeof fields === 'object' && !Array.isArray(fields) ? { ...fields, csrfToken: token } : fields;
			return person.browser.request(`${app().origin}/auth/organizations/${operation}`, { json: body });
		}

		beforeAll(async () => {
			store = makeAdapter();
			// rate limits off: this file sends far more changes than a person would (the limits have tests of their own)
			app().use(attackConfig(store, 'jwt', { providers: [sinkProvider(world.sink)], organizations: { roles: CUSTOM_ROLES }, url: app().origin, rateLimit: false }));
			[olga, eve, ed, mia, adam] = [await signedIn('olga'), await signedIn('eve'), await signedIn('ed'), await signedIn('mia'), await signedIn('adam')];
			const slug = `acme-${crypto.randomUUID().slice(0, 6)}`;
			expect((await post(olga, 'create', { name: 'Acme', slug })).status).toBe(200);
			expect((await post(eve, 'create', { name: 'Eve Corp', slug: `eve-${slug}` })).status).toBe(200);
			acme = (await store.getOrganizationBySlug(slug))!;
			eveCorp = (await store.getOrganizationBySlug(`eve-${slug}`))!;
			miaMemberId = crypto.randomUUID();
			await store.createMember({ id: miaMemberId, organizationId: acme.id, userId: mia.user.id, role: 'member', createdAt: new Date() });
			adamMemberId = crypto.randomUUID();
			await store.createMember({ id: adamMemberId, organizationId: acme.id, userId: adam.user.id, role: 'admin', createdAt: new Date() });
			edMemberId = crypto.randomUUID();
			await store.createMember({ id: edMemberId, organizationId: eveCorp.id, userId: ed.user.id, role: 'member', createdAt: new Date() });
			expect((await post(olga, 'create-team', { organizationId: acme.id, name: 'Design' })).status).toBe(200);
			expect((await post(eve, 'create-team', { organizationId: eveCorp.id, name: 'Secret' })).status).toBe(200);
			[acmeTeam] = await store.listTeams(acme.id);
			[eveTeam] = await store.listTeams(eveCorp.id);
			expect((await post(eve, 'add-team-member', { organizationId: eveCorp.id, teamId: eveTeam.id, userId: ed.user.id })).status).toBe(200);
			expect((await post(eve, 'invite', { organizationId: eveCorp.id, email: address(`guest-${crypto.randomUUID().slice(0, 8)}`) })).status).toBe(200);
			[eveInvitation] = await store.listInvitations(eveCorp.id);
		});

		async function expectEveCorpUntouched() {
			expect(await store.getOrganization(eveCorp.id)).toMatchObject({ name: 'Eve Corp', slug: eveCorp.slug });
			expect(Object.fromEntries((await store.listMembers(eveCorp.id)).map((member) => [member.userId, member.role]))).toEqual({ [eve.user.id]: 'owner', [ed.user.id]: 'member' });
			expect((await store.listTeams(eveCorp.id)).map((team) => team.id)).toEqual([eveTeam.id]);
			expect((await store.listTeamMembers(eveTeam.id)).map((place) => place.userId)).toEqual([ed.user.id]);
			expect((await store.getInvitation(eveInvitation.id))?.status).toBe('pending');
		}

		async function expectAcmeUntouched() {
			expect(await store.getOrganization(acme.id)).toMatchObject({ name: 'Acme', slug: acme.slug, logo: null });
			expect(Object.fromEntries((await store.listMembers(acme.id)).map((member) => [member.userId, member.role]))).toEqual({ [olga.user.id]: 'owner', [mia.user.id]: 'member', [adam.user.id]: 'admin' });
			expect((await store.listTeamMembers(acmeTeam.id)).map((place) => place.userId)).toEqual([]);
		}

		test("another organization's member, team and invitation ids with one's own organizationId: refused, nothing of theirs changes", async () => {
			const own = { organizationId: acme.id };
			const tries: [string, Record<string, string>, number, string][] = [
				['set-role', { ...own, memberId: edMemberId, role: 'admin' }, 404, 'OrganizationMemberNotFound'],
				['remove-member', { ...own, memberId: edMemberId }, 404, 'OrganizationMemberNotFound'],
				['delete-team', { ...own, teamId: eveTeam.id }, 400, 'InvalidRequest'],
				['add-team-member', { ...own, teamId: eveTeam.id, userId: olga.user.id }, 400, 'InvalidRequest'],
				['remove-team-member', { ...own, teamId: eveTeam.id, userId: ed.user.id }, 400, 'InvalidRequest'],
				// one's own team, a user of the other organization
				['add-team-member', { ...own, teamId: acmeTeam.id, userId: ed.user.id }, 404, 'OrganizationMemberNotFound'],
				['revoke-invitation', { ...own, invitationId: eveInvitation.id }, 404, 'InvitationInvalid'],
				['invite', { ...own, email: address('x'), role: 'member', teamId: eveTeam.id }, 400, 'InvalidRequest']
			];
			for (const [op, fields, status, error] of tries) {
				expect(await answer(await post(olga, op, fields)), `${op} ${JSON.stringify(fields)}`).toEqual({ status, body: { error } });
			}
			await expectEveCorpUntouched();
			await expectAcmeUntouched();
		});

		test("another user's CSRF token, a method override, a HEAD or a GET with the token: refused, nothing changes", async () => {
			const miaToken = await mia.browser.csrfToken(app().origin);
			expect(await answer(await post(olga, 'update', { organizationId: acme.id, name: 'Stolen' }, miaToken))).toEqual({ status: 403, body: { error: 'MissingCSRF' } });
			const token = await olga.browser.csrfToken(app().origin);
			const base = `${app().origin}/auth/organizations`;
			// an override header or field never turns a post without a token into anything else
			for (const headers of [{ 'x-http-method-override': 'GET' }, { 'x-method-override': 'PUT' }, { 'x-http-method': 'DELETE' }] as Record<string, string>[]) {
				const overridden = await olga.browser.request(`${base}/update`, { json: { organizationId: acme.id, name: 'Overridden' }, headers });
				expect(overridden.status, JSON.stringify(headers)).toBe(403);
			}
			expect((await olga.browser.request(`${base}/delete?_method=POST`, { json: { organizationId: acme.id, _method: 'GET' } })).status).toBe(403);
			for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH']) {
				const got = await olga.browser.request(`${base}/update?organizationId=${acme.id}&name=ViaQuery&csrfToken=${token}`, { method, headers: { accept: 'application/json' } });
				expect(got.status, method).toBeGreaterThanOrEqual(400);
				expect(got.status, method).toBeLessThan(500);
			}
			// a JSON body sent as text/plain (a cross-site form can): never read as a change
			const plain = await fetch(`${base}/update`, {
				method: 'POST',
				headers: { 'content-type': 'text/plain', origin: app().origin, cookie: [...olga.browser.jar.get(new URL(app().origin).host)!].map(([k, v]) => `${k}=${v}`).join('; ') },
				body: JSON.stringify({ organizationId: acme.id, name: 'Plain', csrfToken: token })
			});
			expect(plain.status).toBeGreaterThanOrEqual(400);
			expect(plain.status).toBeLessThan(500);
			await expectAcmeUntouched();
		});

		test('prototype keys as roles, ids and field names: 4xx with a stable code, never a 500', async () => {
			for (const key of PROTOTYPE_KEYS) {
				expect(await answer(await post(olga, 'set-role', { organizationId: acme.id, memberId: miaMemberId, role: key })), `role ${key}`).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
				expect(await answer(await post(olga, 'invite', { organizationId: acme.id, email: address('proto'), role: key })), `invite role ${key}`).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
				expect(await answer(await post(olga, 'update', { organizationId: key, name: 'X' })), `id ${key}`).toEqual({ status: 404, body: { error: 'OrganizationNotFound' } });
				expect(await answer(await post(olga, 'set-role', { organizationId: acme.id, memberId: key, role: 'admin' })), `member ${key}`).toEqual({ status: 404, body: { error: 'OrganizationMemberNotFound' } });
				expect((await olga.browser.request(`${app().origin}/auth/organizations/settings?id=${key}`, { headers: { accept: 'application/json' } })).status, `settings ${key}`).toBe(404);
			}
			// `__proto__` as a JSON key: the ids under it are no fields of the request
			const token = await olga.browser.csrfToken(app().origin);
			const raw = await fetch(`${app().origin}/auth/organizations/update`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', origin: app().origin, cookie: [...olga.browser.jar.get(new URL(app().origin).host)!].map(([k, v]) => `${k}=${v}`).join('; ') },
				body: `{"csrfToken":"${token}","__proto__":{"organizationId":"${acme.id}","name":"Polluted"},"constructor":{"prototype":{"name":"Polluted"}}}`
			});
			expect(await answer(raw)).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
			expect(({} as Record<string, unknown>).name).toBeUndefined();
			await expectAcmeUntouched();
		});

		test('a body of 100k characters, a JSON array or a JSON scalar: 4xx, never a 500', async () => {
			const huge = await answer(await post(olga, 'update', { organizationId: acme.id, name: 'x'.repeat(100_000) }));
			expect([400, 413]).toContain(huge.status);
			for (const body of [[{ organizationId: acme.id, name: 'Arr' }], 'text', 42, null, true]) {
				const got = await olga.browser.request(`${app().origin}/auth/organizations/update`, { json: body });
				expect(got.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
				expect(got.status, JSON.stringify(body)).toBeLessThan(500);
			}
			await expectAcmeUntouched();
		});

		test('slugs: a taken one is 409, capitals and look-alikes 400, a name whose slug is taken gets another', async () => {
			expect(await answer(await post(mia, 'create', { name: 'Copy', slug: acme.slug }))).toEqual({ status: 409, body: { error: 'OrganizationSlugTaken' } });
			expect(await answer(await post(eve, 'update', { organizationId: eveCorp.id, slug: acme.slug }))).toEqual({ status: 409, body: { error: 'OrganizationSlugTaken' } });
			for (const slug of [acme.slug.toUpperCase(), `\u0430${acme.slug.slice(1)}`, `${acme.slug} `, `${acme.slug}\u200b`, `${acme.slug}-`, `-${acme.slug}`]) {
				expect(await answer(await post(mia, 'create', { name: 'Copy', slug })), JSON.stringify(slug)).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
			}
			const derived = await answer(await post(mia, 'create', { name: acme.slug.toUpperCase() }));
			expect(derived).toMatchObject({ status: 200, body: { result: 'created' } });
			expect((derived.body as { slug: string }).slug).toMatch(new RegExp(`^${acme.slug}-[0-9a-f]{8}$`));
			await expectAcmeUntouched();
			await expectEveCorpUntouched();
		});

		test('escalation: an admin granting or offering a custom role with more than theirs, or raising themselves, is 403; an owner may', async () => {
			const forbidden = { status: 403, body: { error: 'OrganizationForbidden' } };
			expect(await answer(await post(adam, 'set-role', { organizationId: acme.id, memberId: miaMemberId, role: 'billing' }))).toEqual(forbidden);
			expect(await answer(await post(adam, 'invite', { organizationId: acme.id, email: address('biller'), role: 'billing' }))).toEqual(forbidden);
			expect(await answer(await post(adam, 'invite', { organizationId: acme.id, email: address('boss'), role: 'owner' }))).toEqual(forbidden);
			for (const role of ['owner', 'billing']) {
				expect(await answer(await post(adam, 'set-role', { organizationId: acme.id, memberId: adamMemberId, role })), `self to ${role}`).toEqual(forbidden);
			}
			expect(await answer(await post(mia, 'set-role', { organizationId: acme.id, memberId: miaMemberId, role: 'viewer' }))).toMatchObject({ status: 200 });
			expect(await answer(await post(mia, 'set-role', { organizationId: acme.id, memberId: miaMemberId, role: 'member' }))).toEqual(forbidden);
			expect(await answer(await post(olga, 'set-role', { organizationId: acme.id, memberId: miaMemberId, role: 'billing' }))).toMatchObject({ status: 200, body: { result: 'role-changed' } });
			// a billing member may delete the organization, yet may not make anyone anything (no member:update)
			expect(await answer(await post(mia, 'set-role', { organizationId: acme.id, memberId: adamMemberId, role: 'member' }))).toEqual(forbidden);
			expect(await answer(await post(olga, 'set-role', { organizationId: acme.id, memberId: miaMemberId, role: 'member' }))).toMatchObject({ status: 200 });
			await expectAcmeUntouched();
		});

		test("POST /auth/session with data naming another organization, merged by the app's jwt and session callbacks, shows nothing of it", async () => {
			const base = attackConfig(store, 'jwt', { providers: [sinkProvider(world.sink)], organizations: { roles: CUSTOM_ROLES }, url: app().origin, rateLimit: false });
			const fake = { id: eveCorp.id, name: 'Eve Corp', slug: eveCorp.slug, logo: null, role: 'owner' };
			try {
				// an app that merges whatever the client sends into the token and the session
				app().use({
					...base,
					callbacks: {
						jwt: ({ token, trigger, session }) => (trigger === 'update' && session && typeof session === 'object' ? { ...token, ...(session as object) } : token),
						session: ({ session, token }) => ({ ...session, ...(token && typeof token.organization === 'object' ? { organization: token.organization } : {}) }) as typeof session
					}
				});
				const csrfToken = await mia.browser.csrfToken(app().origin);
				const updated = await mia.browser.request(`${app().origin}/auth/session`, { json: { csrfToken, data: { activeOrganizationId: eveCorp.id, organization: fake } } });
				expect(updated.status).toBeLessThan(500);
				for (const read of [updated, await mia.browser.request(`${app().origin}/auth/session`)]) {
					const session = (await read.json()) as { organization?: { id: string } } | null;
					expect(session?.organization?.id, 'no foreign organization in the session').not.toBe(eveCorp.id);
				}
				const page = (await mia.browser.session(app().origin)) as { organization?: { id: string } } | null;
				expect(page?.organization?.id).not.toBe(eveCorp.id);
				// nor does it open any of Eve's doors
				expect(await answer(await post(mia, 'update', { organizationId: eveCorp.id, name: 'Mine' }))).toEqual({ status: 404, body: { error: 'OrganizationNotFound' } });
			} finally {
				app().use(base);
			}
			await expectEveCorpUntouched();
		});

		test('inviting an address with an account and one without: the same answer', async () => {
			const withAccount = await answer(await post(olga, 'invite', { organizationId: acme.id, email: eve.user.email }));
			const without = await answer(await post(olga, 'invite', { organizationId: acme.id, email: address(`nobody-${crypto.randomUUID().slice(0, 8)}`) }));
			expect(withAccount.status).toBe(200);
			expect(Object.keys(withAccount.body as object).sort()).toEqual(Object.keys(without.body as object).sort());
			expect((withAccount.body as { result: string }).result).toBe((without.body as { result: string }).result);
		});
	});
});
