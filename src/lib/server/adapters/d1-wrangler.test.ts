// The D1 migration folders as docs/adapters.md tells an app to use them: `wrangler d1 migrations
// apply --local` (wrangler's own CLI) applies them to a local D1, and SQLiteAdapter({ d1 }) then
// finds every migration applied and works on those tables.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authjsDrizzleSqliteTables, SQLiteAdapter } from './sqlite.js';
import { authjsStatements } from './test/authjs-databases.js';

const wrangler = fileURLToPath(new URL('../../../../node_modules/.bin/wrangler', import.meta.url));
const migrations = (folder: string) => fileURLToPath(new URL(`./sql/migrations/d1/${folder}`, import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'kitgate-d1-wrangler-'));
const ids = { OWN: '00000000-0000-4000-8000-000000000001', AUTHJS: '00000000-0000-4000-8000-000000000002' };

let mf: Miniflare | undefined;
beforeAll(async () => {
	writeFileSync(
		join(directory, 'wrangler.toml'),
		`name = "kitgate-d1-migrations"
compatibility_date = "2026-04-01"

[[d1_databases]]
binding = "OWN"
database_name = "own"
database_id = "${ids.OWN}"
migrations_dir = "${migrations('kitgate-tables')}"

[[d1_databases]]
binding = "AUTHJS"
database_name = "authjs"
database_id = "${ids.AUTHJS}"
migrations_dir = "${migrations('table-mapping')}"
`
	);
	const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' };
	for (const binding of Object.keys(ids)) {
		await promisify(execFile)(wrangler, ['d1', 'migrations', 'apply', binding, '--local', '--persist-to', join(directory, 'state')], { cwd: directory, env });
	}
	mf = new Miniflare({
		modules: true,
		script: 'export default { fetch() { return new Response() } }',
		d1Databases: ids,
		d1Persist: join(directory, 'state', 'v3', 'd1')
	});
}, 120_000);
afterAll(async () => {
	await mf?.dispose();
	rmSync(directory, { recursive: true, force: true });
});

describe('D1 databases migrated by `wrangler d1 migrations apply` with the shipped folders', () => {
	test("migrations/d1/kitgate-tables: kitgate's runner finds everything applied, and the adapter works", async () => {
		const d1 = await mf!.getD1Database('OWN');
		const { results } = await d1.prepare('select name from d1_migrations order by name').all<{ name: string }>();
		expect(results.map((row) => row.name)).toEqual(['0001_initial.sql', '0002_rate_limits.sql', '0005_account_details.sql', '0006_two_factor.sql', '0007_admin_audit.sql', '0008_user_admin.sql', '0010_organizations.sql']);
		const adapter = SQLiteAdapter({ d1 });
		expect(await adapter.migrate()).toEqual([]);
		const user = await adapter.createUser({ id: crypto.randomUUID(), email: 'wrangler@example.com', emailVerified: null });
		await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: user.id });
		await adapter.setTwoFactor({ userId: user.id, totpSecret: 'sealed', lastUsedStep: null, recoveryCodes: ['a'] });
		expect((await adapter.setUserAdmin({ userId: user.id, role: 'admin' })).role).toBe('admin');
		const entry = { id: crypto.randomUUID(), at: new Date(), actorId: null, subjectId: user.id, action: 'set-role', detail: null };
		await adapter.createAuditEntry(entry);
		await organizationRoundTrip(adapter, user.id);
		expect(await adapter.deleteUser(user.id)).toEqual(user);
		expect(await adapter.getUserAdmin(user.id)).toBeNull();
		expect(await adapter.listAuditEntries(user.id, { limit: 10 })).toEqual([entry]);
	});

	test('migrations/d1/table-mapping beside the tables of an Auth.js Drizzle app', async () => {
		const d1 = await mf!.getD1Database('AUTHJS');
		await d1.batch(authjsStatements('drizzle-sqlite').map((statement) => d1.prepare(statement)));
		const adapter = SQLiteAdapter({ d1, tables: authjsDrizzleSqliteTables });
		expect(await adapter.migrate()).toEqual([]);
		const user = await adapter.createUser({ id: crypto.randomUUID(), email: 'drizzle@example.com', emailVerified: null });
		const account = { userId: user.id, type: 'oauth' as const, provider: 'twitter', providerAccountId: user.id, oauth_token_secret: 'secret' };
		await adapter.linkAccount(account);
		expect(await adapter.getAccount(user.id, 'twitter')).toEqual(account);
		expect(await adapter.setUserAdmin({ userId: user.id, banReason: 'spam' })).toMatchObject({ banReason: 'spam', role: null });
		expect((await adapter.listUsers({ search: 'drizzle@', limit: 10, offset: 0 })).users).toEqual([user]);
		await organizationRoundTrip(adapter, user.id);
	});
});

/** The organization tables and the session's active organization, as each folder's migration 0010 or 0011 made them. */
async function organizationRoundTrip(adapter: ReturnType<typeof SQLiteAdapter>, userId: string) {
	const organization = { id: crypto.randomUUID(), name: 'Acme', slug: `acme-${userId.slice(0, 8)}`, logo: null, metadata: null, createdAt: new Date() };
	await adapter.createOrganization(organization);
	const owner = await adapter.createMember({ id: crypto.randomUUID(), organizationId: organization.id, userId, role: 'owner', createdAt: new Date() });
	expect(await adapter.updateMemberRole(owner.id, 'admin', { keepOne: 'owner' })).toBe('last');
	const team = await adapter.createTeam({ id: crypto.randomUUID(), organizationId: organization.id, name: 'Design', createdAt: new Date() });
	await adapter.addTeamMember({ teamId: team.id, userId, createdAt: new Date() });
	const session = { sessionToken: crypto.randomUUID(), userId, expires: new Date(Date.now() + 60_000) };
	await adapter.createSession(session);
	expect((await adapter.updateSession({ sessionToken: session.sessionToken, activeOrganizationId: organization.id }))?.activeOrganizationId).toBe(organization.id);
	expect((await adapter.getMembership(organization.id, userId))?.member.role).toBe('owner');
	await adapter.deleteOrganization(organization.id);
	expect((await adapter.getSessionAndUser(session.sessionToken))?.session.activeOrganizationId).toBeUndefined();
	expect(await adapter.listTeamMembers(team.id)).toEqual([]);
}
