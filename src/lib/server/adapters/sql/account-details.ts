// kitgate_session_details and kitgate_passkey_details (migration 0005): what account management
// shows about a session (when its user signed in, the browser's User-Agent) and a passkey (its
// name, AAGUID, when it was registered and last used), beside whichever auth tables the adapter
// uses: kitgate's own and Auth.js's alike, which kitgate never alters. Each row is stamped with
// the user it was written for and read only while the session or passkey row has that user.
// Internal to the SQL adapters.
import type { Kysely, Transaction } from 'kysely';
import type { AdapterAuthenticator, AdapterSession, AuthenticatorChanges } from '../../core/types.js';
import type { KitgateTables } from './tables.js';

type Db = Kysely<KitgateTables> | Transaction<KitgateTables>;

/** The owner as the details tables store it: the user id as text (the auth tables may number users). */
const ownerKey = (userId: string | number) => String(userId);

/** Epoch milliseconds of a date, or null. */
function epoch(value: Date | string | number | null | undefined): number | null {
	if (value === null || value === undefined) return null;
	const time = value instanceof Date ? value.getTime() : new Date(value).getTime();
	return Number.isFinite(time) ? time : null;
}

function dateOf(value: unknown): Date | undefined {
	if (value === null || value === undefined) return undefined;
	const time = Number(value);
	return Number.isFinite(time) ? new Date(time) : undefined;
}

/**
 * The columns a sessions query selects from the joined details row (alias `sd`).
 *
 * @example
 * query.leftJoin('kitgate_session_details as sd', 'sd.session_token', sessions.column('sessionToken', 's')).select(sessionDetailsSelection)
 */
export const sessionDetailsSelection = ['sd.user_id as sd_owner', 'sd.created_at as sd_created_at', 'sd.user_agent as sd_user_agent'] as const;

/**
 * A session with the details its joined row holds, when that row was written for the session's user.
 *
 * @example
 * const session = withSessionDetails(sessionFromRow(row), row);
 */
export function withSessionDetails(session: AdapterSession, row: unknown): AdapterSession {
	const details = row as { sd_owner?: string | null; sd_created_at?: unknown; sd_user_agent?: string | null };
	if (details.sd_owner !== ownerKey(session.userId)) return session;
	const createdAt = dateOf(details.sd_created_at);
	return {
		...session,
		...(createdAt ? { createdAt } : {}),
		...(details.sd_user_agent ? { userAgent: details.sd_user_agent } : {})
	};
}

/**
 * Writes the details of a new session (replacing a row left for the same token), when it has any.
 *
 * @example
 * await writeSessionDetails(trx, session);
 */
export async function writeSessionDetails(db: Db, session: AdapterSession): Promise<void> {
	const createdAt = epoch(session.createdAt);
	if (createdAt === null && !session.userAgent) return;
	await db.deleteFrom('kitgate_session_details').where('session_token', '=', session.sessionToken).execute();
	await db
		.insertInto('kitgate_session_details')
		.values({ session_token: session.sessionToken, user_id: ownerKey(session.userId), created_at: createdAt, user_agent: session.userAgent ?? null })
		.execute();
}

/** True when a session carries details to write. */
export function hasSessionDetails(session: AdapterSession): boolean {
	return epoch(session.createdAt) !== null || Boolean(session.userAgent);
}

/**
 * Deletes the details of the sessions with these tokens.
 *
 * @example
 * await deleteSessionDetails(db, [token]);
 */
export async function deleteSessionDetails(db: Db, sessionTokens: string[]): Promise<void> {
	if (sessionTokens.length === 0) return;
	await db.deleteFrom('kitgate_session_details').where('session_token', 'in', sessionTokens).execute();
}

/**
 * Deletes every details row written for `userId` (sessions and passkeys), when the user goes or
 * all their sessions do.
 *
 * @example
 * await deleteDetailsOfUser(trx, userId, { sessions: true, passkeys: true });
 */
export async function deleteDetailsOfUser(db: Db, userId: string | number, what: { sessions: boolean; passkeys: boolean }): Promise<void> {
	if (what.sessions) await db.deleteFrom('kitgate_session_details').where('user_id', '=', ownerKey(userId)).execute();
	if (what.passkeys) await db.deleteFrom('kitgate_passkey_details').where('user_id', '=', ownerKey(userId)).execute();
}

/** The columns an authenticators query selects from the joined details row (alias `pd`). */
export const passkeyDetailsSelection = [
	'pd.user_id as pd_owner',
	'pd.name as pd_name',
	'pd.aaguid as pd_aaguid',
	'pd.created_at as pd_created_at',
	'pd.last_used_at as pd_last_used_at'
] as const;

/**
 * A passkey with the details its joined row holds, when that row was written for the passkey's user.
 *
 * @example
 * const passkey = withPasskeyDetails(authenticatorFromRow(row, values), row);
 */
export function withPasskeyDetails(passkey: AdapterAuthenticator, row: unknown): AdapterAuthenticator {
	const details = row as { pd_owner?: string | null; pd_name?: string | null; pd_aaguid?: string | null; pd_created_at?: unknown; pd_last_used_at?: unknown };
	if (details.pd_owner !== ownerKey(passkey.userId)) return passkey;
	const createdAt = dateOf(details.pd_created_at);
	const lastUsedAt = dateOf(details.pd_last_used_at);
	return {
		...passkey,
		...(details.pd_name ? { name: details.pd_name } : {}),
		...(details.pd_aaguid ? { aaguid: details.pd_aaguid } : {}),
		...(createdAt ? { createdAt } : {}),
		...(lastUsedAt ? { lastUsedAt } : {})
	};
}

/** True when a new passkey carries details to write. */
export function hasPasskeyDetails(passkey: AdapterAuthenticator): boolean {
	return Boolean(passkey.name || passkey.aaguid) || epoch(passkey.createdAt) !== null || epoch(passkey.lastUsedAt) !== null;
}

/**
 * Writes the details of a passkey for its user: a new passkey's, or `changes` merged into what
 * its row holds (a row written for another user is replaced, not merged).
 *
 * @example
 * await writePasskeyDetails(trx, passkey, { name: 'Work laptop' });
 */
export async function writePasskeyDetails(db: Db, passkey: AdapterAuthenticator, changes: AuthenticatorChanges = {}): Promise<void> {
	const merged = { ...passkey, ...changes };
	const row = {
		credential_id: passkey.credentialID,
		user_id: ownerKey(passkey.userId),
		name: merged.name ?? null,
		aaguid: passkey.aaguid ?? null,
		created_at: epoch(passkey.createdAt),
		last_used_at: epoch(merged.lastUsedAt)
	};
	await db.deleteFrom('kitgate_passkey_details').where('credential_id', '=', passkey.credentialID).execute();
	await db.insertInto('kitgate_passkey_details').values(row).execute();
}

/**
 * Deletes the details of the passkey `credentialID`.
 *
 * @example
 * await deletePasskeyDetails(db, credentialID);
 */
export async function deletePasskeyDetails(db: Db, credentialID: string): Promise<void> {
	await db.deleteFrom('kitgate_passkey_details').where('credential_id', '=', credentialID).execute();
}
