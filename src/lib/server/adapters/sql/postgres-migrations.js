// The PostgreSQL schema of the SQL adapters, one string per migration, and its only source: the runner applies
// these, and scripts/write-sql-files.js (plain Node, hence JavaScript here) writes each to `migrations/postgres/<name>.sql`,
// git-ignored and shipped in the package for users who apply schemas with their own tools.

const initial = `-- kitgate schema 0001 (PostgreSQL): users, accounts, sessions, verification tokens, authenticators.
-- The adapter applies this by itself. To use your own tool instead, run it with the target schema first in search_path.
CREATE TABLE IF NOT EXISTS users (
	id text PRIMARY KEY,
	name text,
	email text,
	email_verified timestamptz,
	image text,
	CONSTRAINT users_email_key UNIQUE (email)
);

CREATE TABLE IF NOT EXISTS accounts (
	id text PRIMARY KEY,
	user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	type text NOT NULL,
	provider text NOT NULL,
	provider_account_id text NOT NULL,
	access_token text,
	id_token text,
	refresh_token text,
	expires_at bigint,
	scope text,
	token_type text,
	session_state text,
	oauth_token text,
	oauth_token_secret text,
	extra text,
	CONSTRAINT accounts_provider_account_key UNIQUE (provider, provider_account_id)
);

CREATE INDEX IF NOT EXISTS accounts_user_id_idx ON accounts (user_id);

CREATE TABLE IF NOT EXISTS sessions (
	id text PRIMARY KEY,
	session_token text NOT NULL,
	user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	expires timestamptz NOT NULL,
	CONSTRAINT sessions_session_token_key UNIQUE (session_token)
);

CREATE INDEX IF NOT EXISTS sessions_user_id_idx ON sessions (user_id);

CREATE TABLE IF NOT EXISTS verification_tokens (
	identifier text NOT NULL,
	token text NOT NULL,
	expires timestamptz NOT NULL,
	CONSTRAINT verification_tokens_pkey PRIMARY KEY (identifier, token)
);

CREATE TABLE IF NOT EXISTS authenticators (
	credential_id text NOT NULL,
	user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	provider_account_id text NOT NULL,
	credential_public_key text NOT NULL,
	counter bigint NOT NULL,
	credential_device_type text NOT NULL,
	credential_backed_up boolean NOT NULL,
	transports text,
	CONSTRAINT authenticators_credential_id_key PRIMARY KEY (credential_id)
);

CREATE INDEX IF NOT EXISTS authenticators_user_id_idx ON authenticators (user_id);
`;

const rateLimits = `-- kitgate schema 0002 (PostgreSQL): rate-limit counters and revocations of JWT sessions, for
-- SqlRateLimitStore (kitgate/adapters/rate-limit-store): several servers share limits and revocations.
CREATE TABLE IF NOT EXISTS rate_limits (
	key text PRIMARY KEY,
	count integer NOT NULL,
	reset_at bigint NOT NULL
);

CREATE INDEX IF NOT EXISTS rate_limits_reset_at_idx ON rate_limits (reset_at);

CREATE TABLE IF NOT EXISTS session_revocations (
	user_id text PRIMARY KEY,
	revoked_at bigint NOT NULL,
	keep_until bigint NOT NULL
);

CREATE INDEX IF NOT EXISTS session_revocations_keep_until_idx ON session_revocations (keep_until);
`;

const accountFields = `-- kitgate schema 0003 (PostgreSQL), applied only with a table mapping (the \`tables\` option), beside
-- tables another library created: the account fields those tables have no column for, as JSON. No foreign key:
-- kitgate never alters the accounts table, and deletes these rows itself with the account.
CREATE TABLE IF NOT EXISTS kitgate_account_fields (
	provider text NOT NULL,
	provider_account_id text NOT NULL,
	fields text NOT NULL,
	CONSTRAINT kitgate_account_fields_pkey PRIMARY KEY (provider, provider_account_id)
);
`;

const accountFieldsOwner = `-- kitgate schema 0004 (PostgreSQL), applied only with a table mapping: the user each row of
-- kitgate_account_fields was written for. Auth.js, running side by side, deletes accounts without knowing of
-- this table; a row is read only while the account row has that user, so a provider account linked again
-- to someone else never gets the fields of the one before. Rows from before 0004 have no known user ('').
ALTER TABLE kitgate_account_fields ADD COLUMN user_id text NOT NULL DEFAULT '';
`;

const accountDetails = `-- kitgate schema 0005 (PostgreSQL): what account management shows about sessions and passkeys, beside
-- whichever auth tables the adapter uses (kitgate's own or another library's, which kitgate never alters). Each row
-- names the user it was written for (as text) and is read only while the session or passkey row has that user.
-- Times are epoch milliseconds.
CREATE TABLE IF NOT EXISTS kitgate_session_details (
	session_token text PRIMARY KEY,
	user_id text NOT NULL,
	created_at bigint,
	user_agent text
);

CREATE INDEX IF NOT EXISTS kitgate_session_details_user_id_idx ON kitgate_session_details (user_id);

CREATE TABLE IF NOT EXISTS kitgate_passkey_details (
	credential_id text PRIMARY KEY,
	user_id text NOT NULL,
	name text,
	aaguid text,
	created_at bigint,
	last_used_at bigint
);

CREATE INDEX IF NOT EXISTS kitgate_passkey_details_user_id_idx ON kitgate_passkey_details (user_id);
`;

const twoFactor = `-- kitgate schema 0006 (PostgreSQL): a user's second factor, beside whichever auth tables the adapter uses
-- (kitgate's own or another library's, which kitgate never alters). No foreign key: the users table may be
-- another library's; the user id is kept as text, and the adapter deletes these rows with the user.
-- totp_secret is sealed with the app secret for its user (never the secret in clear); last_used_step is the
-- latest TOTP time step accepted (a code is accepted once); a recovery code is kept only as a keyed hash,
-- one row each, deleted when used. Times are epoch milliseconds.
CREATE TABLE IF NOT EXISTS kitgate_two_factor (
	user_id text PRIMARY KEY,
	totp_secret text NOT NULL,
	last_used_step bigint,
	created_at bigint
);

CREATE TABLE IF NOT EXISTS kitgate_recovery_codes (
	user_id text NOT NULL,
	code_hash text NOT NULL,
	PRIMARY KEY (user_id, code_hash)
);
`;

const auditTrail = `-- kitgate schema 0007 (PostgreSQL): the admin audit trail (docs/admin.md), beside whichever auth tables the
-- adapter uses. One row per admin action or impersonated change: who (actor_id), to whom (subject_id), what, when.
-- No foreign keys: the trail outlives the users it names. detail is JSON text without secrets. Times are epoch
-- milliseconds.
CREATE TABLE IF NOT EXISTS kitgate_audit (
	id text PRIMARY KEY,
	at bigint NOT NULL,
	actor_id text,
	subject_id text,
	action text NOT NULL,
	detail text
);

CREATE INDEX IF NOT EXISTS kitgate_audit_actor_id_idx ON kitgate_audit (actor_id, at);

CREATE INDEX IF NOT EXISTS kitgate_audit_subject_id_idx ON kitgate_audit (subject_id, at);
`;

const userAdmin = `-- kitgate schema 0008 (PostgreSQL), kitgate's own auth tables only: what admins keep about a user (role, ban,
-- creation and last sign-in times), one row per user at most, gone with the user (the foreign key, and the adapter's
-- deleteUser). A user without a row has no role and is not banned. Times are epoch milliseconds.
CREATE TABLE IF NOT EXISTS kitgate_user_admin (
	user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	role text,
	banned_at bigint,
	ban_reason text,
	ban_expires bigint,
	created_at bigint,
	last_sign_in_at bigint
);
`;

const userAdminBesideMapping = `-- kitgate schema 0009 (PostgreSQL), applied only with a table mapping: kitgate_user_admin as 0008 makes it, beside
-- tables another library created. No foreign key: kitgate never alters that library's users table; the user id is
-- kept as text, and the adapter's deleteUser deletes the row with the user. Times are epoch milliseconds.
CREATE TABLE IF NOT EXISTS kitgate_user_admin (
	user_id text PRIMARY KEY,
	role text,
	banned_at bigint,
	ban_reason text,
	ban_expires bigint,
	created_at bigint,
	last_sign_in_at bigint
);
`;

/**
 * The organization tables (docs/organizations.md), kitgate's own in every database: organizations (unique slug),
 * members (one per organization and user), invitations (the link's secret only as a keyed hash; \`accepted_member_id\`
 * marks the membership an acceptance made), teams (unique name in their organization) and team members. Deleting an
 * organization deletes its rows (the foreign keys, and the adapter's own deletes). \`userKey\`: the reference to the
 * users table (kitgate's), or none beside another library's tables, whose deleteUser the adapter runs itself.
 *
 * @param {{ number: string; about: string; userKey: string }} parts
 */
const organizationTables = ({ number, about, userKey }) => `-- kitgate schema ${number} (PostgreSQL): organizations, members, invitations and teams, ${about}
-- User ids are kept as text. Times are epoch milliseconds.
CREATE TABLE IF NOT EXISTS kitgate_organizations (
	id text PRIMARY KEY,
	name text NOT NULL,
	slug text NOT NULL,
	logo text,
	metadata text,
	created_at bigint NOT NULL,
	CONSTRAINT kitgate_organizations_slug_key UNIQUE (slug)
);

CREATE TABLE IF NOT EXISTS kitgate_members (
	id text PRIMARY KEY,
	organization_id text NOT NULL REFERENCES kitgate_organizations (id) ON DELETE CASCADE,
	user_id text NOT NULL${userKey},
	role text NOT NULL,
	created_at bigint NOT NULL,
	CONSTRAINT kitgate_members_organization_user_key UNIQUE (organization_id, user_id)
);

CREATE INDEX IF NOT EXISTS kitgate_members_user_id_idx ON kitgate_members (user_id);

CREATE TABLE IF NOT EXISTS kitgate_invitations (
	id text PRIMARY KEY,
	organization_id text NOT NULL REFERENCES kitgate_organizations (id) ON DELETE CASCADE,
	email text NOT NULL,
	role text NOT NULL,
	inviter_id text,
	token_hash text NOT NULL,
	team_id text,
	status text NOT NULL,
	expires bigint NOT NULL,
	created_at bigint NOT NULL,
	accepted_member_id text
);

CREATE INDEX IF NOT EXISTS kitgate_invitations_organization_id_idx ON kitgate_invitations (organization_id, created_at);

CREATE INDEX IF NOT EXISTS kitgate_invitations_email_idx ON kitgate_invitations (email, created_at);

CREATE TABLE IF NOT EXISTS kitgate_teams (
	id text PRIMARY KEY,
	organization_id text NOT NULL REFERENCES kitgate_organizations (id) ON DELETE CASCADE,
	name text NOT NULL,
	created_at bigint NOT NULL,
	CONSTRAINT kitgate_teams_organization_name_key UNIQUE (organization_id, name)
);

CREATE TABLE IF NOT EXISTS kitgate_team_members (
	team_id text NOT NULL REFERENCES kitgate_teams (id) ON DELETE CASCADE,
	user_id text NOT NULL${userKey},
	created_at bigint NOT NULL,
	CONSTRAINT kitgate_team_members_pkey PRIMARY KEY (team_id, user_id)
);

CREATE INDEX IF NOT EXISTS kitgate_team_members_user_id_idx ON kitgate_team_members (user_id);
`;

const organizations = `${organizationTables({
	number: '0010',
	about: 'kitgate\'s own auth tables only:\n-- memberships and team places go with their user (the foreign keys, and the adapter\'s deleteUser).',
	userKey: ' REFERENCES users (id) ON DELETE CASCADE'
})}
-- The session's active organization; the adapter's deleteOrganization clears it.
ALTER TABLE sessions ADD COLUMN active_organization_id text;

CREATE INDEX IF NOT EXISTS sessions_active_organization_id_idx ON sessions (active_organization_id);
`;

const organizationsBesideMapping = `${organizationTables({
	number: '0011',
	about: 'applied only with a table mapping,\n-- beside tables another library created: no foreign key to its users table; the adapter\'s deleteUser deletes the rows.',
	userKey: ''
})}
-- The active organization of a database session, keyed by its token (kitgate never alters the sessions table); the
-- adapter deletes the row with the session, and with the organization.
CREATE TABLE IF NOT EXISTS kitgate_session_organizations (
	session_token text PRIMARY KEY,
	organization_id text NOT NULL
);

CREATE INDEX IF NOT EXISTS kitgate_session_organizations_organization_id_idx ON kitgate_session_organizations (organization_id);
`;

/**
 * PostgreSQL migrations in the order they apply. Names never change once released. `onlyWith` limits a migration to kitgate's own
 * auth tables (`kitgate-tables`) or to a table mapping (`table-mapping`); the others apply to both.
 *
 * @type {readonly { name: string; sql: string; onlyWith?: 'kitgate-tables' | 'table-mapping' }[]}
 * @example
 * for (const { name, sql } of postgresMigrations) console.log(name, sql.length);
 */
export const postgresMigrations = [
	{ name: '0001_initial', sql: initial, onlyWith: 'kitgate-tables' },
	{ name: '0002_rate_limits', sql: rateLimits },
	{ name: '0003_account_fields', sql: accountFields, onlyWith: 'table-mapping' },
	{ name: '0004_account_fields_owner', sql: accountFieldsOwner, onlyWith: 'table-mapping' },
	{ name: '0005_account_details', sql: accountDetails },
	{ name: '0006_two_factor', sql: twoFactor },
	{ name: '0007_admin_audit', sql: auditTrail },
	{ name: '0008_user_admin', sql: userAdmin, onlyWith: 'kitgate-tables' },
	{ name: '0009_user_admin_beside_mapping', sql: userAdminBesideMapping, onlyWith: 'table-mapping' },
	{ name: '0010_organizations', sql: organizations, onlyWith: 'kitgate-tables' },
	{ name: '0011_organizations_beside_mapping', sql: organizationsBesideMapping, onlyWith: 'table-mapping' }
];
