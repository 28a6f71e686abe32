// The organization methods of the SQL adapters (docs/organizations.md) over kitgate's organization
// tables (migrations 0010/0011), beside whichever auth tables the adapter uses. Writes that must hold
// together run as one transaction or batch; the "keep one owner" rule is a condition of the write
// itself, and on PostgreSQL the writer first locks the organization row, so two concurrent changes
// of one organization's members run one after the other. Internal to the SQL adapters.
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { AdapterError } from '../../core/errors.js';
import type {
	Adapter,
	AdapterInvitation,
	AdapterMember,
	AdapterMembership,
	AdapterOrganization,
	AdapterTeam,
	AdapterTeamMember
} from '../../core/types.js';
import { isUniqueViolation } from '../errors.js';
import { activeOrganizationClear, type ActiveOrganizationPlace } from './active-organization.js';
import type { BatchResult, Statement } from './batches.js';
import type { AuthTablesDb, MappedTable } from './mapped-tables.js';
import { toDate, userFromRow } from './rows.js';
import type { KitgateTables, UserRow } from './tables.js';

type Db = Kysely<KitgateTables>;

/**
 * The organization methods, all 23.
 *
 * @example
 * const methods: OrganizationMethods = sqlOrganizations(parts);
 */
export type OrganizationMethods = Required<
	Pick<
		Adapter,
		| 'createOrganization'
		| 'getOrganization'
		| 'getOrganizationBySlug'
		| 'updateOrganization'
		| 'deleteOrganization'
		| 'createMember'
		| 'getMembership'
		| 'listMembers'
		| 'listMemberships'
		| 'updateMemberRole'
		| 'deleteMember'
		| 'createInvitation'
		| 'getInvitation'
		| 'listInvitations'
		| 'listInvitationsByEmail'
		| 'revokeInvitation'
		| 'acceptInvitation'
		| 'createTeam'
		| 'listTeams'
		| 'deleteTeam'
		| 'addTeamMember'
		| 'removeTeamMember'
		| 'listTeamMembers'
	>
>;

/**
 * What the organization methods need from the adapter that has them.
 *
 * @example
 * sqlOrganizations({ users, sessions, dialect: 'sqlite', userIds: 'text', activePlace: 'column', userId, ready, atomically });
 */
export interface OrganizationStoreParts {
	users: MappedTable;
	sessions: MappedTable;
	dialect: 'sqlite' | 'postgres';
	/** How the users table keys users: text ids, or numbers (`SERIAL`). */
	userIds: 'text' | 'integer';
	activePlace: ActiveOrganizationPlace;
	/** A user id as the users table stores it, null when none can have it. */
	userId: (id: string) => string | number | null;
	ready: () => Promise<Db>;
	/** Runs a plan's statements all or none (a transaction, or one batch); the plan may read first (in the transaction). */
	atomically: (plan: (db: Db, batched: boolean) => Promise<Statement[] | null> | Statement[] | null) => Promise<BatchResult[] | null>;
}

/**
 * The statements deleting a user's memberships and team places, to run with the user's delete.
 *
 * @example
 * const statements = membershipsOfUserDeletes(db, 42);
 */
export function membershipsOfUserDeletes(db: Db, userId: string | number): Statement[] {
	return [db.deleteFrom('kitgate_team_members').where('user_id', '=', String(userId)), db.deleteFrom('kitgate_members').where('user_id', '=', String(userId))];
}

/**
 * Builds the organization methods of a SQL adapter.
 *
 * @example
 * const organizations = sqlOrganizations(parts);
 * await organizations.createOrganization({ id, name: 'Acme', slug: 'acme', logo: null, metadata: null, createdAt: new Date() });
 */
export function sqlOrganizations(parts: OrganizationStoreParts): OrganizationMethods {
	const { users, sessions, dialect, ready, atomically } = parts;
	const postgres = dialect === 'postgres';
	const text = (value: string | null) => sql<string>`cast(${value} as text)`;
	const integer = (value: number) => sql<number>`cast(${value} as bigint)`;
	// orderings of text as the memory adapter's: by code unit, not by the database's locale
	const byCode = (column: string): RawBuilder<unknown> => (postgres ? sql`${sql.ref(column)} collate "C"` : sql`${sql.ref(column)}`);
	const userKey = (id: string): string | null => {
		const stored = parts.userId(id);
		return stored === null ? null : String(stored);
	};

	/** The users row of a stored user id (text) in a subquery or join. */
	function userMatches(textId: RawBuilder<unknown>, alias?: string) {
		const column = sql.ref(users.column('id', alias));
		if (parts.userIds === 'text') return sql<boolean>`${column} = ${textId}`;
		// numbered users (`SERIAL`): kitgate stored the number as text
		return sql<boolean>`${column} = cast(${textId} as integer)`;
	}

	/** A query that finds the user (held as a foreign key would on PostgreSQL, against a concurrent deleteUser). */
	function userExists(db: Db, userId: string) {
		const query = (db as unknown as AuthTablesDb).selectFrom(`${users.name} as ku`).select(sql.lit(1).as('found')).where(userMatches(sql`${userId}`, 'ku'));
		return postgres ? query.forKeyShare() : query;
	}

	function organizationExists(db: Db, organizationId: string) {
		return db.selectFrom('kitgate_organizations').select(sql.lit(1).as('found')).where('id', '=', organizationId);
	}

	/** The change only while the member still has `expectedRole` (when given): a decision made on the role read before holds. */
	function hasRole<Query extends { where(column: 'role', operator: '=', value: string): Query }>(query: Query, expectedRole: string | undefined): Query {
		return expectedRole === undefined ? query : query.where('role', '=', expectedRole);
	}

	/** Not the last member of `keepOne` in its organization (the members row `alias`): the condition of a change that would leave none. */
	function keepsOne(alias: string, keepOne: string) {
		const ref = (column: string) => sql.ref(`${alias}.${column}`);
		return sql<boolean>`not (${ref('role')} = ${keepOne} and not exists (select 1 from ${sql.table('kitgate_members')} as other where other.organization_id = ${ref('organization_id')} and other.id <> ${ref('id')} and other.role = ${keepOne}))`;
	}

	/**
	 * A change of a member that must keep one member of `keepOne`: on PostgreSQL the organization row
	 * is locked first (concurrent changes of its members wait), then `statements` run, their condition
	 * seeing every change committed before. Null: no such member; `'stale'`: its role is not
	 * `expectedRole` (when given); `'last'`: nothing changed.
	 */
	async function changeKeepingOne(memberId: string, expectedRole: string | undefined, statements: (db: Db) => Statement[]): Promise<Record<string, unknown> | 'last' | 'stale' | null> {
		if (typeof memberId !== 'string') return null;
		const results = await atomically(async (db, batched) => {
			if (postgres && !batched) {
				const member = await db.selectFrom('kitgate_members').select('organization_id').where('id', '=', memberId).executeTakeFirst();
				if (!member) return null;
				await db.selectFrom('kitgate_organizations').select('id').where('id', '=', member.organization_id).forUpdate().execute();
			}
			return statements(db);
		});
		const changed = results?.at(-1)?.rows[0];
		if (changed) return changed;
		const still = await (await ready()).selectFrom('kitgate_members').select('role').where('id', '=', memberId).executeTakeFirst();
		if (!still) return null;
		return expectedRole !== undefined && still.role !== expectedRole ? 'stale' : 'last';
	}

	async function readInvitation(id: string): Promise<AdapterInvitation | null> {
		if (typeof id !== 'string') return null;
		const row = await (await ready()).selectFrom('kitgate_invitations').selectAll().where('id', '=', id).executeTakeFirst();
		return row ? invitationFromRow(row) : null;
	}

	return {
		async createOrganization(organization) {
			const row = await (await ready()).insertInto('kitgate_organizations').values(organizationToRow(organization)).returningAll().executeTakeFirstOrThrow();
			return organizationFromRow(row);
		},

		async getOrganization(id) {
			if (typeof id !== 'string') return null;
			const row = await (await ready()).selectFrom('kitgate_organizations').selectAll().where('id', '=', id).executeTakeFirst();
			return row ? organizationFromRow(row) : null;
		},

		async getOrganizationBySlug(slug) {
			if (typeof slug !== 'string') return null;
			const row = await (await ready()).selectFrom('kitgate_organizations').selectAll().where('slug', '=', slug).executeTakeFirst();
			return row ? organizationFromRow(row) : null;
		},

		async updateOrganization(changes) {
			const set: { name?: string; slug?: string; logo?: string | null; metadata?: string | null } = {};
			if (changes.name !== undefined) set.name = changes.name;
			if (changes.slug !== undefined) set.slug = changes.slug;
			if (changes.logo !== undefined) set.logo = changes.logo ?? null;
			if (changes.metadata !== undefined) set.metadata = changes.metadata ?? null;
			const db = await ready();
			const row =
				Object.keys(set).length === 0
					? await db.selectFrom('kitgate_organizations').selectAll().where('id', '=', changes.id).executeTakeFirst()
					: await db.updateTable('kitgate_organizations').set(set).where('id', '=', changes.id).returningAll().executeTakeFirst();
			return row ? organizationFromRow(row) : null;
		},

		async deleteOrganization(id) {
			if (typeof id !== 'string') return;
			// explicit deletes as well as the foreign keys' cascades: a SQLite connection without PRAGMA foreign_keys keeps no rows behind
			await atomically((db) => [
				db.deleteFrom('kitgate_team_members').where('team_id', 'in', db.selectFrom('kitgate_teams').select('id').where('organization_id', '=', id)),
				db.deleteFrom('kitgate_teams').where('organization_id', '=', id),
				db.deleteFrom('kitgate_invitations').where('organization_id', '=', id),
				db.deleteFrom('kitgate_members').where('organization_id', '=', id),
				activeOrganizationClear(db, sessions, parts.activePlace, id),
				db.deleteFrom('kitgate_organizations').where('id', '=', id)
			]);
		},

		async createMember(member) {
			const userId = userKey(member.userId);
			if (userId === null) throw new AdapterError(`createMember: no user with id ${member.userId}`);
			const results = await atomically((db) => [memberInsert(db, member, userId).returningAll()]);
			const row = results?.[0]?.rows[0];
			if (!row) throw new AdapterError(`createMember: no organization with id ${member.organizationId}, or no user with id ${member.userId}`);
			return memberFromRow(row);
		},

		async getMembership(organizationId, userId) {
			const key = userKey(userId);
			if (key === null || typeof organizationId !== 'string') return null;
			const row = await (await ready())
				.selectFrom('kitgate_members as m')
				.innerJoin('kitgate_organizations as o', 'o.id', 'm.organization_id')
				.select(membershipSelection)
				.where('m.organization_id', '=', organizationId)
				.where('m.user_id', '=', key)
				.executeTakeFirst();
			return row ? membershipFromRow(row) : null;
		},

		async listMembers(organizationId) {
			if (typeof organizationId !== 'string') return [];
			const rows = await ((await ready()) as unknown as AuthTablesDb)
				.selectFrom('kitgate_members as m')
				.innerJoin(`${users.name} as u`, (join) => join.on(userMatches(sql.ref('m.user_id'), 'u')))
				.select([...memberSelection, ...users.selection('u')])
				.where('m.organization_id', '=', organizationId)
				.orderBy('m.created_at')
				.orderBy(byCode('m.id'))
				.execute();
			return rows.map((row) => ({ ...memberFromRow(row, 'm_'), user: userFromRow(row as unknown as UserRow) }));
		},

		async listMemberships(userId) {
			const key = userKey(userId);
			if (key === null) return [];
			const rows = await (await ready())
				.selectFrom('kitgate_members as m')
				.innerJoin('kitgate_organizations as o', 'o.id', 'm.organization_id')
				.select(membershipSelection)
				.where('m.user_id', '=', key)
				.orderBy(byCode('o.name'))
				.orderBy(byCode('o.id'))
				.execute();
			return rows.map(membershipFromRow);
		},

		async updateMemberRole(memberId, role, { keepOne, expectedRole }) {
			const changed = await changeKeepingOne(memberId, expectedRole, (db) => {
				const update = hasRole(db.updateTable('kitgate_members').set({ role }).where('id', '=', memberId), expectedRole);
				return [(role === keepOne ? update : update.where(keepsOne('kitgate_members', keepOne))).returningAll()];
			});
			return changed === null || changed === 'last' || changed === 'stale' ? changed : memberFromRow(changed);
		},

		async deleteMember(memberId, { keepOne, expectedRole }) {
			const changed = await changeKeepingOne(memberId, expectedRole, (db) => [
				// the member's places in the organization's teams, under the same condition as the member's delete
				db.deleteFrom('kitgate_team_members').where(({ exists }) =>
					exists(
						db
							.selectFrom('kitgate_members as m')
							.innerJoin('kitgate_teams as t', 't.organization_id', 'm.organization_id')
							.select(sql.lit(1).as('found'))
							.where('m.id', '=', memberId)
							.where(sql<boolean>`${sql.ref('t.id')} = ${sql.ref('kitgate_team_members.team_id')}`)
							.where(sql<boolean>`${sql.ref('m.user_id')} = ${sql.ref('kitgate_team_members.user_id')}`)
							.where(keepsOne('m', keepOne))
							.where(expectedRole === undefined ? sql<boolean>`true` : sql<boolean>`${sql.ref('m.role')} = ${expectedRole}`)
					)
				),
				hasRole(db.deleteFrom('kitgate_members').where('id', '=', memberId), expectedRole).where(keepsOne('kitgate_members', keepOne)).returning('id')
			]);
			return changed === null || changed === 'last' || changed === 'stale' ? changed : 'deleted';
		},

		async createInvitation(invitation) {
			const row = invitationToRow(invitation);
			const results = await atomically((db) => [
				db
					.insertInto('kitgate_invitations')
					.columns(Object.keys(row) as (keyof typeof row)[])
					.expression(
						(db as unknown as AuthTablesDb)
							.selectNoFrom(
								Object.entries(row).map(([column, value]) => (typeof value === 'number' ? (integer(value) as RawBuilder<unknown>) : (text(value as string | null) as RawBuilder<unknown>)).as(column))
							)
							.where((eb) => eb.exists(organizationExists(db, invitation.organizationId)))
					)
					.returningAll()
			]);
			const stored = results?.[0]?.rows[0];
			if (!stored) throw new AdapterError(`createInvitation: no organization with id ${invitation.organizationId}`);
			return invitationFromRow(stored);
		},

		async getInvitation(id) {
			return readInvitation(id);
		},

		async listInvitations(organizationId) {
			if (typeof organizationId !== 'string') return [];
			const rows = await (await ready())
				.selectFrom('kitgate_invitations')
				.selectAll()
				.where('organization_id', '=', organizationId)
				.orderBy('created_at', 'desc')
				.orderBy(sql`${byCode('id')} desc`)
				.execute();
			return rows.map(invitationFromRow);
		},

		async listInvitationsByEmail(email) {
			if (typeof email !== 'string') return [];
			const rows = await (await ready())
				.selectFrom('kitgate_invitations')
				.selectAll()
				.where('email', '=', email)
				.orderBy('created_at', 'desc')
				.orderBy(sql`${byCode('id')} desc`)
				.execute();
			return rows.map(invitationFromRow);
		},

		async revokeInvitation(id) {
			if (typeof id !== 'string') return false;
			// one conditional write: of a revoke and an accept at once, only one finds the invitation pending
			const result = await (await ready())
				.updateTable('kitgate_invitations')
				.set({ status: 'revoked' })
				.where('id', '=', id)
				.where('status', '=', 'pending')
				.executeTakeFirst();
			return Number(result.numUpdatedRows) === 1;
		},

		async acceptInvitation(invitationId, member, now) {
			if (typeof invitationId !== 'string') return null;
			const userId = userKey(member.userId);
			if (userId === null) return null;
			const invitation = await readInvitation(invitationId);
			if (!invitation) return null;
			if (member.organizationId !== invitation.organizationId) throw new AdapterError('acceptInvitation: the member is for another organization');
			const nowMs = toDate(now, 'now').getTime();
			const acceptedHere = (db: Db) =>
				db.selectFrom('kitgate_invitations').select(sql.lit(1).as('found')).where('id', '=', invitationId).where('accepted_member_id', '=', member.id);
			try {
				const results = await atomically((db) => [
					// pending, unexpired, the user not yet a member: marked as accepted by this member, which
					// the next statements require (another call's acceptance is not this one's)
					db
						.updateTable('kitgate_invitations')
						.set({ status: 'accepted', accepted_member_id: member.id })
						.where('id', '=', invitationId)
						.where('status', '=', 'pending')
						.where('expires', '>', nowMs)
						.where('organization_id', '=', member.organizationId)
						.where(({ exists, not }) =>
							not(exists(db.selectFrom('kitgate_members').select(sql.lit(1).as('found')).where('organization_id', '=', member.organizationId).where('user_id', '=', userId)))
						)
						.where(({ exists }) => exists(userExists(db, userId))),
					memberInsert(db, member, userId, acceptedHere(db)).returningAll(),
					db
						.insertInto('kitgate_team_members')
						.columns(['team_id', 'user_id', 'created_at'])
						.expression(
							db
								.selectFrom('kitgate_invitations as i')
								.innerJoin('kitgate_teams as t', (join) => join.onRef('t.id', '=', 'i.team_id').onRef('t.organization_id', '=', 'i.organization_id'))
								.select(['t.id as team_id', text(userId).as('user_id'), integer(nowMs).as('created_at')])
								.where('i.id', '=', invitationId)
								.where('i.accepted_member_id', '=', member.id)
						)
						.onConflict((conflict) => conflict.doNothing())
				]);
				const row = results?.[1]?.rows[0];
				return row ? memberFromRow(row) : null;
			} catch (error) {
				// a membership made in between (another invitation accepted at once): nothing was written
				if (isUniqueViolation(error)) return null;
				throw error;
			}
		},

		async createTeam(team) {
			const results = await atomically((db) => [
				db
					.insertInto('kitgate_teams')
					.columns(['id', 'organization_id', 'name', 'created_at'])
					.expression(
						(db as unknown as AuthTablesDb)
							.selectNoFrom([text(team.id).as('id'), text(team.organizationId).as('organization_id'), text(team.name).as('name'), integer(toDate(team.createdAt, 'createdAt').getTime()).as('created_at')])
							.where((eb) => eb.exists(organizationExists(db, team.organizationId)))
					)
					.returningAll()
			]);
			const row = results?.[0]?.rows[0];
			if (!row) throw new AdapterError(`createTeam: no organization with id ${team.organizationId}`);
			return teamFromRow(row);
		},

		async listTeams(organizationId) {
			if (typeof organizationId !== 'string') return [];
			const rows = await (await ready())
				.selectFrom('kitgate_teams')
				.selectAll()
				.where('organization_id', '=', organizationId)
				.orderBy(byCode('name'))
				.orderBy(byCode('id'))
				.execute();
			return rows.map(teamFromRow);
		},

		async deleteTeam(teamId) {
			if (typeof teamId !== 'string') return;
			await atomically((db) => [db.deleteFrom('kitgate_team_members').where('team_id', '=', teamId), db.deleteFrom('kitgate_teams').where('id', '=', teamId)]);
		},

		async addTeamMember(place) {
			const userId = userKey(place.userId);
			if (userId === null) throw new AdapterError(`addTeamMember: no user with id ${place.userId}`);
			const results = await atomically((db) => [
				db
					.insertInto('kitgate_team_members')
					.columns(['team_id', 'user_id', 'created_at'])
					.expression(
						(db as unknown as AuthTablesDb)
							.selectNoFrom([text(place.teamId).as('team_id'), text(userId).as('user_id'), integer(toDate(place.createdAt, 'createdAt').getTime()).as('created_at')])
							.where((eb) =>
								eb.exists(
									db
										.selectFrom('kitgate_teams as t')
										.innerJoin('kitgate_members as m', 'm.organization_id', 't.organization_id')
										.select(sql.lit(1).as('found'))
										.where('t.id', '=', place.teamId)
										.where('m.user_id', '=', userId)
								)
							)
					)
					.returningAll()
			]);
			const row = results?.[0]?.rows[0];
			if (!row) throw new AdapterError(`addTeamMember: no team with id ${place.teamId}, or the user is not a member of its organization`);
			return teamMemberFromRow(row);
		},

		async removeTeamMember(teamId, userId) {
			const key = userKey(userId);
			if (key === null || typeof teamId !== 'string') return false;
			const result = await (await ready()).deleteFrom('kitgate_team_members').where('team_id', '=', teamId).where('user_id', '=', key).executeTakeFirst();
			return Number(result.numDeletedRows) > 0;
		},

		async listTeamMembers(teamId) {
			if (typeof teamId !== 'string') return [];
			const rows = await (await ready())
				.selectFrom('kitgate_team_members')
				.selectAll()
				.where('team_id', '=', teamId)
				.orderBy('created_at')
				.orderBy(byCode('user_id'))
				.execute();
			return rows.map(teamMemberFromRow);
		}
	};

	/** INSERT … SELECT of a membership: only when its organization and user exist (and `also`, when given). */
	function memberInsert(db: Db, member: AdapterMember, userId: string, also?: SelectQueryBuilder<KitgateTables, 'kitgate_invitations', { found: number }>) {
		const values = [
			text(member.id).as('id'),
			text(member.organizationId).as('organization_id'),
			text(userId).as('user_id'),
			text(member.role).as('role'),
			integer(toDate(member.createdAt, 'createdAt').getTime()).as('created_at')
		];
		return db
			.insertInto('kitgate_members')
			.columns(['id', 'organization_id', 'user_id', 'role', 'created_at'])
			.expression(
				(db as unknown as AuthTablesDb).selectNoFrom(values).where((eb) =>
					eb.and([eb.exists(organizationExists(db, member.organizationId)), eb.exists(userExists(db, userId)), ...(also ? [eb.exists(also)] : [])])
				)
			);
	}
}

/** The columns of a membership query (members `m`, organizations `o`), prefixed so they never collide. */
const memberSelection = ['m.id as m_id', 'm.organization_id as m_organization_id', 'm.user_id as m_user_id', 'm.role as m_role', 'm.created_at as m_created_at'] as const;
const membershipSelection = [
	...memberSelection,
	'o.id as o_id',
	'o.name as o_name',
	'o.slug as o_slug',
	'o.logo as o_logo',
	'o.metadata as o_metadata',
	'o.created_at as o_created_at'
] as const;

type Row = Record<string, unknown>;

const dateOf = (value: unknown): Date => new Date(Number(value));
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function organizationToRow(organization: AdapterOrganization) {
	return {
		id: organization.id,
		name: organization.name,
		slug: organization.slug,
		logo: organization.logo ?? null,
		metadata: organization.metadata ?? null,
		created_at: toDate(organization.createdAt, 'createdAt').getTime()
	};
}

function organizationFromRow(row: object, prefix = ''): AdapterOrganization {
	const stored = row as Row;
	return {
		id: String(stored[`${prefix}id`]),
		name: String(stored[`${prefix}name`]),
		slug: String(stored[`${prefix}slug`]),
		logo: textOrNull(stored[`${prefix}logo`]),
		metadata: textOrNull(stored[`${prefix}metadata`]),
		createdAt: dateOf(stored[`${prefix}created_at`])
	};
}

function memberFromRow(row: object, prefix = ''): AdapterMember {
	const stored = row as Row;
	return {
		id: String(stored[`${prefix}id`]),
		organizationId: String(stored[`${prefix}organization_id`]),
		userId: String(stored[`${prefix}user_id`]),
		role: String(stored[`${prefix}role`]),
		createdAt: dateOf(stored[`${prefix}created_at`])
	};
}

function membershipFromRow(row: object): AdapterMembership {
	return { organization: organizationFromRow(row, 'o_'), member: memberFromRow(row, 'm_') };
}

function invitationToRow(invitation: AdapterInvitation) {
	return {
		id: invitation.id,
		organization_id: invitation.organizationId,
		email: invitation.email,
		role: invitation.role,
		inviter_id: invitation.inviterId ?? null,
		token_hash: invitation.tokenHash,
		team_id: invitation.teamId ?? null,
		status: invitation.status,
		expires: toDate(invitation.expires, 'expires').getTime(),
		created_at: toDate(invitation.createdAt, 'createdAt').getTime()
	};
}

function invitationFromRow(row: object): AdapterInvitation {
	const stored = row as Row;
	return {
		id: String(stored.id),
		organizationId: String(stored.organization_id),
		email: String(stored.email),
		role: String(stored.role),
		inviterId: textOrNull(stored.inviter_id),
		tokenHash: String(stored.token_hash),
		teamId: textOrNull(stored.team_id),
		status: String(stored.status) as AdapterInvitation['status'],
		expires: dateOf(stored.expires),
		createdAt: dateOf(stored.created_at)
	};
}

function teamFromRow(row: object): AdapterTeam {
	const stored = row as Row;
	return { id: String(stored.id), organizationId: String(stored.organization_id), name: String(stored.name), createdAt: dateOf(stored.created_at) };
}

function teamMemberFromRow(row: object): AdapterTeamMember {
	const stored = row as Row;
	return { teamId: String(stored.team_id), userId: String(stored.user_id), createdAt: dateOf(stored.created_at) };
}
