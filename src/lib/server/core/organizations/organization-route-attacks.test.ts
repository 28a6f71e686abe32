// Attacks on the organization routes (issue 33) over HTTP, through both integrations, under both
// session strategies: CSRF missing or wrong on every change, method and path tricks, another
// organization's id, a member promoting themselves or an admin making an owner, the last owner
// leaving, and hostile input (NUL, lone surrogates, 10k characters, repeated fields, JSON types):
// always a 4xx with a stable code, never a 500, and nothing changed. On memory, SQLite and PostgreSQL.

import { beforeAll, expect, test } from 'vitest';
import type { Adapter, AdapterOrganization } from '../types.js';
import { sinkProvider } from '../test/email-fixtures.js';
import { Browser, type AppServer } from '../test/integrations.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import { address, attackConfig, attackWorld } from '../test/attacks/flows.js';
import { cookieHeader } from '../test/attacks/cookie-header.js';
import { describeEachApp } from '../test/attacks/each-app.js';
import { signedInByEmail, type SignedInPerson } from '../test/attacks/signed-in-person.js';
import type { OrganizationDetail, OrganizationList } from '../organization-types.js';
import { memorySqliteAndPostgresAdapters } from '../test/stored-adapters-with-postgres.js';
import { answer } from './test/invitation-fixture.js';

const world = attackWorld({ sink: true });
const adapters: [string, () => Required<Adapter>][] = memorySqliteAndPostgresAdapters('organization-route-attacks');

const JSON_ACCEPT = { accept: 'application/json' };
const CHANGES = ['create', 'update', 'delete', 'set-role', 'remove-member', 'leave', 'create-team', 'delete-team', 'add-team-member', 'remove-team-member'];

type Person = SignedInPerson;

const signedIn = (app: AppServer, adapter: Adapter, name: string) => signedInByEmail(app, world.sink, adapter, address(name));

async function post(person: Person | Browser, app: AppServer, operation: string, fields: Record<string, unknown>, options: { json?: boolean; csrf?: boolean } = {}) {
	const browser = person instanceof Browser ? person : person.browser;
	const body = options.csrf === false || 'csrfToken' in fields ? fields : { ...fields, csrfToken: await browser.csrfToken(app.origin) };
	const url = `${app.origin}/auth/organizations/${operation}`;
	return options.json === false
		? browser.request(url, { form: body as Record<string, string>, headers: { accept: 'text/html' } })
		: browser.request(url, { json: body });
}

describeEachApp(world, ({ app, strategy, makeAdapter }) => {
	let adapter: Required<Adapter>;
	let olga: Person, adam: Person, mia: Person, eve: Person;
	let org: AdapterOrganization;
	let eveOrg: AdapterOrganization;
	let config: ReturnType<typeof attackConfig>;
	const memberIds: Record<string, string> = {};

	beforeAll(async () => {
		adapter = makeAdapter();
		config = attackConfig(adapter, strategy, { providers: [sinkProvider(world.sink)], organizations: {} });
		app().use(config);
		[olga, adam, mia, eve] = [await signedIn(app(), adapter, 'olga'), await signedIn(app(), adapter, 'adam'), await signedIn(app(), adapter, 'mia'), await signedIn(app(), adapter, 'eve')];
		const created = await answer(await post(olga, app(), 'create', { name: 'Acme' }));
		expect(created).toMatchObject({ status: 200, body: { result: 'created', slug: 'acme' } });
		org = (await adapter.getOrganizationBySlug('acme'))!;
		await adapter.createMember({ id: `m-adam-${strategy}`, organizationId: org.id, userId: adam.user.id, role: 'admin', createdAt: new Date() });
		await adapter.createMember({ id: `m-mia-${strategy}`, organizationId: org.id, userId: mia.user.id, role: 'member', createdAt: new Date() });
		for (const member of await adapter.listMembers(org.id)) memberIds[member.user.email!] = member.id;
		expect(await answer(await post(eve, app(), 'create', { name: 'Eve Corp' }))).toMatchObject({ status: 200 });
		eveOrg = (await adapter.getOrganizationBySlug('eve-corp'))!;
	});

	async function expectUntouched() {
		expect(await adapter.getOrganization(org.id)).toMatchObject({ name: 'Acme', slug: 'acme', logo: null, metadata: null });
		const roles = Object.fromEntries((await adapter.listMembers(org.id)).map((member) => [member.user.email, member.role]));
		expect(roles).toEqual({ [olga.user.email]: 'owner', [adam.user.email]: 'admin', [mia.user.email]: 'member' });
		expect(await adapter.listTeams(org.id)).toEqual([]);
	}

	function fieldsFor(target: string, teamId = 'team-x'): Record<string, string> {
		return { organizationId: target, name: 'Hijacked', slug: 'hijacked', memberId: memberIds[mia.user.email], role: 'owner', teamId, userId: eve.user.id };
	}

	test('a member reads the list and the settings as JSON; a form change answers a redirect with ?organization=', async () => {
		const list = (await (await mia.browser.request(`${app().origin}/auth/organizations`, { headers: JSON_ACCEPT })).json()) as OrganizationList;
		expect(list.organizations).toEqual([{ id: org.id, name: 'Acme', slug: 'acme', logo: null, role: 'member' }]);
		expect(list.csrfToken).toMatch(/^[0-9a-f]{64}$/);
		const detail = await mia.browser.request(`${app().origin}/auth/organizations/settings?id=${org.id}`, { headers: JSON_ACCEPT });
		expect(detail.headers.get('vary')).toMatch(/Cookie/);
		expect(((await detail.json()) as OrganizationDetail).members).toHaveLength(3);
		const form = await post(adam, app(), 'create-team', { organizationId: org.id, name: 'Temp' }, { json: false });
		expect(form.status).toBe(302);
		const back = new URL(form.headers.get('location')!);
		expect(back.pathname).toBe('/auth/organizations/settings');
		expect(back.searchParams.get('id')).toBe(org.id);
		expect(back.searchParams.get('organization')).toBe('team-created');
		const [team] = await adapter.listTeams(org.id);
		expect(await answer(await post(adam, app(), 'delete-team', { organizationId: org.id, teamId: team.id }))).toMatchObject({ status: 200, body: { result: 'team-deleted' } });
		await expectUntouched();
	});

	test('every change without the CSRF token, or with a wrong one, is 403 MissingCSRF and changes nothing', async () => {
		for (const op of CHANGES) {
			const missing = await answer(await post(olga, app(), op, fieldsFor(org.id), { csrf: false }));
			expect(missing, `${op} without a token`).toEqual({ status: 403, body: { error: 'MissingCSRF' } });
			const wrong = await answer(await post(olga, app(), op, { ...fieldsFor(org.id), csrfToken: 'f'.repeat(64) }));
			expect(wrong, `${op} with a wrong token`).toEqual({ status: 403, body: { error: 'MissingCSRF' } });
			const crossSite = await olga.browser.request(`${app().origin}/auth/organizations/${op}`, { form: fieldsFor(org.id), origin: 'https://evil.example', headers: { accept: 'text/html' } });
			expect([302, 403], `${op} from another site`).toContain(crossSite.status);
			if (crossSite.status === 302) expect(new URL(crossSite.headers.get('location')!, app().origin).searchParams.get('error')).toBe('MissingCSRF');
		}
		expect(await adapter.listMemberships(olga.user.id)).toHaveLength(1);
		await expectUntouched();
	});

	test('a GET of a change is 405 (Allow: POST); unknown changes and pages are 404', async () => {
		const base = app().origin;
		for (const op of CHANGES) {
			const got = await olga.browser.request(`${base}/auth/organizations/${op}?organizationId=${org.id}`, { headers: JSON_ACCEPT });
			expect(got.status, op).toBe(405);
			expect(got.headers.get('allow')).toBe('POST');
		}
		for (const path of ['/auth/organizations/frobnicate', '/auth/organizations/delete/extra', '/auth/organizations/%2e%2e']) {
			expect((await olga.browser.request(`${base}${path}`, { headers: JSON_ACCEPT })).status, path).toBe(404);
		}
		expect((await post(olga, app(), 'frobnicate', { organizationId: org.id })).status).toBe(404);
		await expectUntouched();
	});

	test('another organization\'s id: the same 404 OrganizationNotFound as an unknown id, for reads and every change', async () => {
		const base = app().origin;
		for (const id of [org.id, 'no-such-organization']) {
			expect(await answer(await eve.browser.request(`${base}/auth/organizations/settings?id=${id}`, { headers: JSON_ACCEPT }))).toEqual({ status: 404, body: { error: 'OrganizationNotFound' } });
			for (const op of CHANGES.filter((name) => name !== 'create')) {
				expect(await answer(await post(eve, app(), op, fieldsFor(id))), `${op} on ${id}`).toEqual({ status: 404, body: { error: 'OrganizationNotFound' } });
			}
		}
		// her own organization with Acme's member: not a member there
		for (const op of ['set-role', 'remove-member']) {
			expect(await answer(await post(eve, app(), op, fieldsFor(eveOrg.id)))).toEqual({ status: 404, body: { error: 'OrganizationMemberNotFound' } });
		}
		await expectUntouched();
	});

	test('a member promoting themselves and an admin making an owner are 403 OrganizationForbidden; the form goes back with the code', async () => {
		const self = await answer(await post(mia, app(), 'set-role', { organizationId: org.id, memberId: memberIds[mia.user.email], role: 'admin' }));
		expect(self).toEqual({ status: 403, body: { error: 'OrganizationForbidden' } });
		for (const [memberId, role] of [
			[memberIds[mia.user.email], 'owner'],
			[memberIds[adam.user.email], 'owner'],
			[memberIds[olga.user.email], 'member']
		]) {
			expect(await answer(await post(adam, app(), 'set-role', { organizationId: org.id, memberId, role }))).toEqual({ status: 403, body: { error: 'OrganizationForbidden' } });
		}
		expect(await answer(await post(adam, app(), 'remove-member', { organizationId: org.id, memberId: memberIds[olga.user.email] }))).toEqual({ status: 403, body: { error: 'OrganizationForbidden' } });
		expect(await answer(await post(adam, app(), 'delete', { organizationId: org.id }))).toEqual({ status: 403, body: { error: 'OrganizationForbidden' } });
		expect(await answer(await post(mia, app(), 'update', { organizationId: org.id, name: 'Mine' }))).toEqual({ status: 403, body: { error: 'OrganizationForbidden' } });
		const form = await post(mia, app(), 'set-role', { organizationId: org.id, memberId: memberIds[mia.user.email], role: 'owner' }, { json: false });
		const back = new URL(form.headers.get('location')!);
		expect(back.pathname).toBe('/auth/organizations/settings');
		expect(back.searchParams.get('organizationError')).toBe('OrganizationForbidden');
		await expectUntouched();
	});

	test('the last owner cannot leave, demote themselves or be removed: 409 OrganizationLastOwner', async () => {
		expect(await answer(await post(olga, app(), 'leave', { organizationId: org.id }))).toEqual({ status: 409, body: { error: 'OrganizationLastOwner' } });
		expect(await answer(await post(olga, app(), 'set-role', { organizationId: org.id, memberId: memberIds[olga.user.email], role: 'admin' }))).toEqual({ status: 409, body: { error: 'OrganizationLastOwner' } });
		expect(await answer(await post(olga, app(), 'remove-member', { organizationId: org.id, memberId: memberIds[olga.user.email] }))).toEqual({ status: 409, body: { error: 'OrganizationLastOwner' } });
		await expectUntouched();
	});

	test('hostile input gets a 4xx with a stable code, never a 500, and changes nothing', async () => {
		const base = app().origin;
		const tricks: [string, string, Record<string, unknown>][] = [
			['a NUL in the name', 'update', { organizationId: org.id, name: 'Ac\u0000me' }],
			['a lone surrogate in the name', 'update', { organizationId: org.id, name: 'Ac\uD800me' }],
			['a lone surrogate in the id', 'update', { organizationId: '\uDC00', name: 'x' }],
			['10k characters', 'update', { organizationId: org.id, name: 'x'.repeat(10_000) }],
			['10k characters of id', 'set-role', { organizationId: 'x'.repeat(10_000), memberId: 'y', role: 'member' }],
			['an array id', 'update', { organizationId: [org.id], name: 'x' }],
			['an object id', 'delete', { organizationId: { id: org.id } }],
			['a number id', 'leave', { organizationId: 7 }],
			['a null id', 'leave', { organizationId: null }],
			['no id', 'delete', {}],
			['a role that is no role', 'set-role', { organizationId: org.id, memberId: memberIds[mia.user.email], role: 'emperor' }],
			['a role as an array', 'set-role', { organizationId: org.id, memberId: memberIds[mia.user.email], role: ['admin'] }],
			['a javascript: logo', 'update', { organizationId: org.id, logo: 'javascript:alert(1)' }],
			['a protocol-relative logo', 'update', { organizationId: org.id, logo: '//evil.example/x.png' }],
			['metadata that is no object', 'update', { organizationId: org.id, metadata: '"text"' }],
			['metadata as JSON, not text', 'update', { organizationId: org.id, metadata: { a: 1 } }],
			['a slug with capitals', 'update', { organizationId: org.id, slug: 'ACME' }]
		];
		for (const [name, op, fields] of tricks) {
			const got = await answer(await post(olga, app(), op, fields));
			expect(got.status, name).toBeGreaterThanOrEqual(400);
			expect(got.status, name).toBeLessThan(500);
			expect(got.body, name).toMatchObject({ error: expect.stringMatching(/^(InvalidRequest|OrganizationNotFound|OrganizationMemberNotFound)$/) });
		}
		// a callbackUrl elsewhere is replaced by a page of the site (a safe redirect, the change itself harmless)
		const elsewhere = await answer(await post(olga, app(), 'update', { organizationId: org.id, name: 'Acme', callbackUrl: 'https://evil.example/' }));
		expect(elsewhere).toMatchObject({ status: 200, body: { result: 'updated' } });
		expect(new URL((elsewhere.body as { url: string }).url).origin).toBe(base);
		// a form repeating organizationId: kitgate and an app reading the form must see the same organization
		const csrfToken = await olga.browser.csrfToken(base);
		const twice = await fetch(`${base}/auth/organizations/update`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(olga.browser, base), origin: base, 'x-auth-return-redirect': '1' },
			body: `csrfToken=${csrfToken}&organizationId=${eveOrg.id}&organizationId=${org.id}&name=Twice`
		});
		expect(await answer(twice)).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
		for (const query of ['?id=a&id=b', '', `?id=${'y'.repeat(10_000)}`, '?id=%00']) {
			const got = await answer(await olga.browser.request(`${base}/auth/organizations/settings${query}`, { headers: JSON_ACCEPT }));
			expect(got, query).toEqual({ status: 400, body: { error: 'InvalidRequest' } });
		}
		await expectUntouched();
	});

	test('without a session: a script gets 401 SessionRequired, a browser is sent to sign in', async () => {
		const stranger = new Browser();
		const base = app().origin;
		expect(await answer(await stranger.request(`${base}/auth/organizations`, { headers: JSON_ACCEPT }))).toEqual({ status: 401, body: { error: 'SessionRequired' } });
		expect(await answer(await post(stranger, app(), 'update', { organizationId: org.id, name: 'Mine' }))).toEqual({ status: 401, body: { error: 'SessionRequired' } });
		const page = await stranger.request(`${base}/auth/organizations/settings?id=${org.id}`, { headers: { accept: 'text/html' } });
		expect(page.status).toBe(302);
		expect(new URL(page.headers.get('location')!).pathname).toBe('/auth/signin');
		await expectUntouched();
	});

	// last: it changes the app's rate limit
	test('changes are rate limited per user (rateLimit.account), not per address: a colleague behind the same address is not', async () => {
		app().use({ ...config, rateLimit: { store: MemoryRateLimitStore(), account: { perIdentifier: 2, perAddress: 1 } } });
		for (let attempt = 0; attempt < 2; attempt++) {
			expect(await answer(await post(mia, app(), 'leave', { organizationId: 'no-such' }))).toEqual({ status: 404, body: { error: 'OrganizationNotFound' } });
		}
		const limited = await answer(await post(mia, app(), 'leave', { organizationId: org.id }));
		expect(limited).toMatchObject({ status: 429, body: { error: 'RateLimited' } });
		const form = await post(mia, app(), 'leave', { organizationId: org.id }, { json: false });
		expect(new URL(form.headers.get('location')!).searchParams.get('organizationError')).toBe('RateLimited');
		expect(await answer(await post(adam, app(), 'leave', { organizationId: 'no-such' }))).toEqual({ status: 404, body: { error: 'OrganizationNotFound' } });
		await expectUntouched();
	});
}, adapters);
