// Row types of the SQL adapters: the auth tables' rows as the queries return them (named after the
// fields, whatever the columns are called), and kitgate's own tables as Kysely sees them. Internal.
import type { ColumnType } from 'kysely';

/** A date as a driver returns it: a Date (PostgreSQL), epoch milliseconds (SQLite), or text. */
export type StoredDate = Date | number | string | bigint;

/** An integer as a driver returns it: PostgreSQL's `bigint` comes back as a string. */
export type StoredInteger = number | string | bigint;

/**
 * A users row, columns aliased to the user's fields.
 *
 * @example
 * const row: UserRow = { id: 7, name: null, email: 'a@example.com', emailVerified: null, image: null };
 */
export interface UserRow {
	/** Text, or a number when the database numbers users. */
	id: string | number;
	name: string | null;
	email: string | null;
	emailVerified: StoredDate | null;
	image: string | null;
}

/**
 * An accounts row, columns aliased to the account's fields; the optional columns are absent when
 * the schema lacks them.
 *
 * @example
 * const row: AccountRow = { userId: 'u1', type: 'oidc', provider: 'github', providerAccountId: '42', … };
 */
export interface AccountRow {
	userId: string | number;
	type: string;
	provider: string;
	providerAccountId: string;
	access_token: string | null;
	id_token: string | null;
	refresh_token: string | null;
	expires_at: StoredInteger | null;
	scope: string | null;
	token_type: string | null;
	session_state: string | null;
	oauth_token?: string | null;
	oauth_token_secret?: string | null;
	/** JSON text of the fields that have no column of their own. */
	extra?: string | null;
}

/**
 * A sessions row, columns aliased to the session's fields.
 *
 * @example
 * const row: SessionRow = { sessionToken: 't', userId: 'u1', expires: new Date() };
 */
export interface SessionRow {
	sessionToken: string;
	userId: string | number;
	expires: StoredDate;
}

/**
 * A verification tokens row.
 *
 * @example
 * const row: VerificationTokenRow = { identifier: 'a@example.com', token: 'hashed', expires: new Date() };
 */
export interface VerificationTokenRow {
	identifier: string;
	token: string;
	expires: StoredDate;
}

/**
 * An authenticators row, columns aliased to the credential's fields.
 *
 * @example
 * const counter = Number((row as AuthenticatorRow).counter);
 */
export interface AuthenticatorRow {
	credentialID: string;
	userId: string | number;
	providerAccountId: string;
	credentialPublicKey: string;
	counter: StoredInteger;
	credentialDeviceType: string;
	credentialBackedUp: boolean | number | bigint;
	transports: string | null;
}

/** An integer column that PostgreSQL returns as a string when it is a `bigint`. */
type BigIntColumn = ColumnType<number | string | bigint, number, number>;

/** A nullable `bigint` column (epoch milliseconds that may be unknown). */
type NullableBigIntColumn = ColumnType<number | string | bigint | null, number | null, number | null>;

/**
 * A row of `rate_limits`: one fixed window of a rate-limit counter (migration 0002).
 *
 * @example
 * type Row = Selectable<RateLimitsTable>;
 */
export interface RateLimitsTable {
	key: string;
	count: BigIntColumn;
	/** Epoch milliseconds at which the window ends. */
	reset_at: BigIntColumn;
}

/**
 * A row of `session_revocations`: JWT sessions of the user issued before `revoked_at` are revoked
 * (migration 0002). No foreign key: JWT users need not be stored.
 *
 * @example
 * type Row = Selectable<SessionRevocationsTable>;
 */
export interface SessionRevocationsTable {
	user_id: string;
	/** Epoch milliseconds. */
	revoked_at: BigIntColumn;
	/** Epoch milliseconds after which the row can go: every session it revokes has expired. */
	keep_until: BigIntColumn;
}

/**
 * A row of `kitgate_account_fields` (migrations 0003 and 0004, mapped tables only): the fields of an
 * account that its table has no column for, as JSON. Keyed by the provider account; no foreign key,
 * because the accounts table is not kitgate's to alter, so the row names the user it was written for.
 *
 * @example
 * type Row = Selectable<AccountFieldsTable>;
 */
export interface AccountFieldsTable {
	provider: string;
	provider_account_id: string;
	/** The owning user's id as text; read only while the account row still has that user (`''`: written before 0004, no one's). */
	user_id: string;
	/** JSON object text. */
	fields: string;
}

/**
 * A row of `kitgate_session_details` (migration 0005): when a database session's user signed in
 * and its browser's User-Agent, for account management. No foreign key: the sessions table may be
 * another library's; the row names the user it was written for.
 *
 * @example
 * type Row = Selectable<SessionDetailsTable>;
 */
export interface SessionDetailsTable {
	session_token: string;
	/** The owning user's id as text. */
	user_id: string;
	/** Epoch milliseconds. */
	created_at: NullableBigIntColumn;
	user_agent: string | null;
}

/**
 * A row of `kitgate_passkey_details` (migration 0005): a passkey's name, AAGUID, and when it was
 * registered and last used. No foreign key, as `kitgate_session_details`.
 *
 * @example
 * type Row = Selectable<PasskeyDetailsTable>;
 */
export interface PasskeyDetailsTable {
	credential_id: string;
	user_id: string;
	name: string | null;
	aaguid: string | null;
	created_at: NullableBigIntColumn;
	last_used_at: NullableBigIntColumn;
}

/**
 * A row of `kitgate_two_factor` (migration 0006): a user's sealed TOTP secret and the latest time
 * step accepted. No foreign key, as `kitgate_session_details`.
 *
 * @example
 * type Row = Selectable<TwoFactorTable>;
 */
export interface TwoFactorTable {
	user_id: string;
	totp_secret: string;
	last_used_step: NullableBigIntColumn;
	/** Epoch milliseconds. */
	created_at: NullableBigIntColumn;
}

/**
 * A row of `kitgate_recovery_codes` (migration 0006): the keyed hash of one unused recovery code.
 *
 * @example
 * type Row = Selectable<RecoveryCodesTable>;
 */
export interface RecoveryCodesTable {
	user_id: string;
	code_hash: string;
}

/**
 * A row of `kitgate_user_admin` (migration 0008 beside kitgate's tables, 0009 beside a table
 * mapping): what admins keep about a user. Keyed by the user id as text.
 *
 * @example
 * type Row = Selectable<UserAdminTable>;
 */
export interface UserAdminTable {
	user_id: string;
	role: string | null;
	/** Epoch milliseconds, as every time below. */
	banned_at: NullableBigIntColumn;
	ban_reason: string | null;
	ban_expires: NullableBigIntColumn;
	created_at: NullableBigIntColumn;
	last_sign_in_at: NullableBigIntColumn;
}

/**
 * A row of `kitgate_audit` (migration 0007): one entry of the admin audit trail. No foreign keys:
 * it outlives the users it names.
 *
 * @example
 * type Row = Selectable<AuditTable>;
 */
export interface AuditTable {
	id: string;
	/** Epoch milliseconds. */
	at: BigIntColumn;
	actor_id: string | null;
	subject_id: string | null;
	action: string;
	/** JSON text. */
	detail: string | null;
}

/**
 * A row of `kitgate_organizations` (migration 0010, or 0011 beside a table mapping).
 *
 * @example
 * type Row = Selectable<OrganizationsTable>;
 */
export interface OrganizationsTable {
	id: string;
	name: string;
	slug: string;
	logo: string | null;
	/** JSON text. */
	metadata: string | null;
	/** Epoch milliseconds, as every time of the organization tables. */
	created_at: BigIntColumn;
}

/**
 * A row of `kitgate_members`: a user's membership of an organization, one per organization and user.
 *
 * @example
 * type Row = Selectable<MembersTable>;
 */
export interface MembersTable {
	id: string;
	organization_id: string;
	/** The user id as text. */
	user_id: string;
	role: string;
	created_at: BigIntColumn;
}

/**
 * A row of `kitgate_invitations`: the link's secret only as a keyed hash; `accepted_member_id`
 * names the membership its acceptance made.
 *
 * @example
 * type Row = Selectable<InvitationsTable>;
 */
export interface InvitationsTable {
	id: string;
	organization_id: string;
	email: string;
	role: string;
	inviter_id: string | null;
	token_hash: string;
	team_id: string | null;
	status: string;
	expires: BigIntColumn;
	created_at: BigIntColumn;
	accepted_member_id: string | null;
}

/**
 * A row of `kitgate_teams`: a team, its name unique in its organization.
 *
 * @example
 * type Row = Selectable<TeamsTable>;
 */
export interface TeamsTable {
	id: string;
	organization_id: string;
	name: string;
	created_at: BigIntColumn;
}

/**
 * A row of `kitgate_team_members`: a user in a team.
 *
 * @example
 * type Row = Selectable<TeamMembersTable>;
 */
export interface TeamMembersTable {
	team_id: string;
	user_id: string;
	created_at: BigIntColumn;
}

/**
 * A row of `kitgate_session_organizations` (migration 0011, beside a table mapping only): the
 * active organization of the database session with this token.
 *
 * @example
 * type Row = Selectable<SessionOrganizationsTable>;
 */
export interface SessionOrganizationsTable {
	session_token: string;
	organization_id: string;
}

/**
 * kitgate's own tables, which it creates in every database: through the adapter's Kysely instance.
 *
 * @example
 * const db = adapter[sqlCore](); // Kysely<KitgateTables>
 */
export interface KitgateTables {
	rate_limits: RateLimitsTable;
	session_revocations: SessionRevocationsTable;
	kitgate_account_fields: AccountFieldsTable;
	kitgate_session_details: SessionDetailsTable;
	kitgate_passkey_details: PasskeyDetailsTable;
	kitgate_two_factor: TwoFactorTable;
	kitgate_recovery_codes: RecoveryCodesTable;
	kitgate_user_admin: UserAdminTable;
	kitgate_audit: AuditTable;
	kitgate_organizations: OrganizationsTable;
	kitgate_members: MembersTable;
	kitgate_invitations: InvitationsTable;
	kitgate_teams: TeamsTable;
	kitgate_team_members: TeamMembersTable;
	kitgate_session_organizations: SessionOrganizationsTable;
}
