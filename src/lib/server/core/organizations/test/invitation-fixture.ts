// Shared parts of the invitation tests over HTTP: an organization stored with its members (the
// organization routes' own `create` is another module's), the invitation posts as a script makes
// them, and the invitation link of a mail read from the SMTP sink.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, inject } from 'vitest';
import { PostgresAdapter } from '../../../adapters/postgres.js';
import { memoryAndSqliteAdapters } from '../../test/stored-adapters.js';
import type { Adapter, AdapterOrganization, AdapterUser } from '../../types.js';
import type { MailSink } from '../../test/email-fixtures.js';
import type { AppServer, Browser } from '../../test/integrations.js';

/** A signed-in user of a test: their browser, address and stored user. */
export interface Person {
	browser: Browser;
	email: string;
	user: AdapterUser;
}

/**
 * Stores an organization whose owner is `owner`, with `members` in their roles.
 *
 * @example
 * const organization = await organizationWith(adapter, 'Acme', owner.user, [[bo.user, 'admin']]);
 */
export async function organizationWith(
	adapter: Required<Adapter>,
	name: string,
	owner: AdapterUser,
	members: [AdapterUser, string][] = []
): Promise<AdapterOrganization> {
	const organization = await adapter.createOrganization({
		id: crypto.randomUUID(),
		name,
		slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${crypto.randomUUID().slice(0, 8)}`,
		logo: null,
		metadata: null,
		createdAt: new Date()
	});
	for (const [user, role] of [[owner, 'owner'] as [AdapterUser, string], ...members]) {
		await adapter.createMember({ id: crypto.randomUUID(), organizationId: organization.id, userId: user.id, role, createdAt: new Date() });
	}
	return organization;
}

/**
 * `POST /auth/organizations/<operation>` as a script (JSON body, the browser's CSRF token unless
 * `fields` brings its own or `csrf: false` leaves it out), with `headers` added to the request.
 *
 * @example
 * await post(app, owner, 'revoke-invitation', { organizationId, invitationId });
 */
export async function post(
	app: AppServer,
	person: Pick<Person, 'browser'>,
	operation: string,
	fields: Record<string, unknown>,
	options: { csrf?: boolean; headers?: Record<string, string> } = {}
): Promise<Response> {
	const csrfToken = options.csrf === false ? undefined : (fields.csrfToken ?? (await person.browser.csrfToken(app.origin)));
	return person.browser.request(`${app.origin}/auth/organizations/${operation}`, { json: { ...fields, ...(csrfToken === undefined ? {} : { csrfToken }) }, headers: options.headers });
}

/** `invite` as a script (with `headers`, such as a forged Host, added to the request). */
export function invite(app: AppServer, person: Pick<Person, 'browser'>, organizationId: string, email: string, role: string, headers?: Record<string, string>): Promise<Response> {
	return post(app, person, 'invite', { organizationId, email, role }, { headers });
}

/** `accept-invitation` as a script. */
export function accept(app: AppServer, person: Pick<Person, 'browser'>, token: string): Promise<Response> {
	return post(app, person, 'accept-invitation', { token });
}

/** Status and body (JSON when it is JSON). */
export async function answer(response: Response): Promise<{ status: number; body: unknown }> {
	const text = await response.text();
	return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

/** The invitation link of the newest mail to `to` (the same in its text and HTML parts). */
export function invitationLinkIn(sink: MailSink, to: string): URL {
	const mail = sink.messages().find((message) => message.envelope.to.includes(to));
	expect(mail, `a mail to ${to}`).toBeDefined();
	const links = [...new Set(mail!.links.filter((link) => link.includes('/organizations/invitation')))];
	expect(links, `one invitation link in the mail to ${to}`).toHaveLength(1);
	return new URL(links[0]);
}

/**
 * `[name, make]` pairs for `describe.each`: memory and a fresh SQLite file for each call, and
 * PostgreSQL (one schema of this test file, shared by its calls: the tests use addresses and
 * organizations of their own), dropped after the file. Only in the integration project (it needs
 * the database of the global setup).
 *
 * @example
 * describe.each(invitationAdapters('invitation-attacks'))('%s adapter', (_name, makeAdapter) => { … });
 */
export function invitationAdapters(label: string): [string, () => Required<Adapter>][] {
	const connectionString = inject('databaseUrl');
	const schema = `inv_${randomBytes(6).toString('hex')}`;
	let postgres: PostgresAdapter | undefined;
	afterAll(async () => {
		await postgres?.close();
		const pool = new pg.Pool({ connectionString, max: 1 });
		await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
		await pool.end();
	});
	return [
		...memoryAndSqliteAdapters(label),
		['postgres', () => (postgres ??= PostgresAdapter({ connectionString, schema })) as unknown as Required<Adapter>]
	];
}
