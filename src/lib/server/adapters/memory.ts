// An adapter that keeps everything in process memory, for tests and quick experiments; it follows the
// SQL adapters' rules (unique keys, cascading deletes, single-use tokens). Export path: `kitgate/adapters/memory`.
import { randomUuid } from '../core/crypto/random.js';
import { AdapterError } from '../core/errors.js';
import type {
	Adapter,
	AdapterAccount,
	AdapterAuditEntry,
	AdapterAuthenticator,
	AdapterSession,
	AdapterTwoFactor,
	AdapterUser,
	AdapterUserAdmin,
	VerificationToken
} from '../core/types.js';
import { boundAuditLimit, boundUserListQuery } from '../core/store/admin-query-bounds.js';
import { UniqueViolationError } from './errors.js';
import { memoryOrganizations } from './memory/organizations.js';

/**
 * Creates an adapter whose data lives in this process and is lost on exit. Nothing to close.
 * Every call returns copies, so changing a returned object never changes what is stored.
 *
 * @example
 * import { MemoryAdapter } from 'kitgate/adapters/memory';
 *
 * const adapter = MemoryAdapter();
 * const user = await adapter.createUser({ id: '', email: 'ada@example.com', emailVerified: null });
 */
export function MemoryAdapter(): Required<Adapter> {
	const users = new Map<string, AdapterUser>();
	const accounts = new Map<string, AdapterAccount>();
	const sessions = new Map<string, AdapterSession>();
	const verificationTokens = new Map<string, VerificationToken>();
	const authenticators = new Map<string, AdapterAuthenticator>();
	const twoFactors = new Map<string, AdapterTwoFactor>();
	const userAdmins = new Map<string, AdapterUserAdmin>();
	const auditTrail: AdapterAuditEntry[] = [];
	const { forgetUser: forgetMemberships, ...organizationMethods } = memoryOrganizations(users, sessions);

	function requireUser(userId: string, operation: string): void {
		if (!users.has(userId)) throw new AdapterError(`${operation}: no user with id ${userId}`);
	}

	function requireFreeEmail(email: string, exceptUserId?: string): void {
		if (!email) return; // users without an email do not collide, as NULLs in a SQL unique column
		for (const user of users.values()) {
			if (user.email === email && user.id !== exceptUserId) {
				throw new UniqueViolationError('users_email_key', 'A user with this email already exists');
			}
		}
	}

	// Methods are async but never await before writing, so check-then-insert cannot interleave.
	return {
		...organizationMethods,
		async createUser(user) {
			const stored = normalizeUser({ ...user, id: user.id || randomUuid() });
			if (users.has(stored.id)) throw new UniqueViolationError('users_pkey', 'A user with this id already exists');
			requireFreeEmail(stored.email);
			users.set(stored.id, stored);
			return copy(stored);
		},

		async getUser(id) {
			return copyOrNull(users.get(id));
		},

		async getUserByEmail(email) {
			if (!email) return null;
			return copyOrNull([...users.values()].find((user) => user.email === email));
		},

		async getUserByAccount({ provider, providerAccountId }) {
			const account = accounts.get(accountKey(provider, providerAccountId));
			return account ? copyOrNull(users.get(account.userId)) : null;
		},

		async updateUser(changes) {
			const current = users.get(changes.id);
			if (!current) throw new AdapterError(`updateUser: no user with id ${changes.id}`);
			const next = normalizeUser({
				id: current.id,
				name: changes.name !== undefined ? changes.name : current.name,
				email: changes.email !== undefined ? changes.email : current.email,
				emailVerified: changes.emailVerified !== undefined ? changes.emailVerified : current.emailVerified,
				image: changes.image !== undefined ? changes.image : current.image
			});
			requireFreeEmail(next.email, next.id);
			users.set(next.id, next);
			return copy(next);
		},

		async deleteUser(userId) {
			const user = users.get(userId);
			if (!user) return null;
			users.delete(userId);
			deleteWhere(sessions, (session) => session.userId === userId);
			deleteWhere(accounts, (account) => account.userId === userId);
			deleteWhere(authenticators, (authenticator) => authenticator.userId === userId);
			twoFactors.delete(userId);
			userAdmins.delete(userId);
			forgetMemberships(userId);
			return copy(user);
		},

		async linkAccount(account) {
			requireUser(account.userId, 'linkAccount');
			const key = accountKey(account.provider, account.providerAccountId);
			if (accounts.has(key)) {
				throw new UniqueViolationError('accounts_provider_account_key', 'This provider account is already linked');
			}
			const stored = withoutEmptyFields(account);
			accounts.set(key, stored);
			return copy(stored);
		},

		async updateAccount(changes) {
			const key = accountKey(changes.provider, changes.providerAccountId);
			const current = accounts.get(key);
			if (!current) return null;
			// as in the SQL adapters: a null or undefined field leaves the stored value
			const given = withoutEmptyFields(changes as AdapterAccount);
			const next = withoutEmptyFields({ ...current, ...given, userId: current.userId, type: current.type });
			accounts.set(key, next);
			return copy(next);
		},

		async unlinkAccount({ provider, providerAccountId }) {
			const key = accountKey(provider, providerAccountId);
			const account = accounts.get(key);
			accounts.delete(key);
			return account ? copy(account) : undefined;
		},

		async getAccount(providerAccountId, provider) {
			return copyOrNull(accounts.get(accountKey(provider, providerAccountId)));
		},

		async listAccountsByUserId(userId) {
			return [...accounts.values()].filter((account) => account.userId === userId).map(copy);
		},

		async createSession(session) {
			requireUser(session.userId, 'createSession');
			if (sessions.has(session.sessionToken)) {
				throw new UniqueViolationError('sessions_session_token_key', 'A session with this token already exists');
			}
			const stored: AdapterSession = {
				sessionToken: session.sessionToken,
				userId: session.userId,
				expires: new Date(session.expires),
				...sessionDetails(session)
			};
			sessions.set(stored.sessionToken, stored);
			return copy(stored);
		},

		async getSessionAndUser(sessionToken) {
			const session = sessions.get(sessionToken);
			const user = session && users.get(session.userId);
			return session && user ? { session: copy(session), user: copy(user) } : null;
		},

		async updateSession(changes) {
			const current = sessions.get(changes.sessionToken);
			if (!current) return null;
			if (changes.userId !== undefined) requireUser(changes.userId, 'updateSession');
			const next: AdapterSession = {
				...current,
				sessionToken: current.sessionToken,
				userId: changes.userId ?? current.userId,
				expires: changes.expires !== undefined ? new Date(changes.expires) : current.expires,
				...(changes.activeOrganizationId !== undefined ? { activeOrganizationId: changes.activeOrganizationId } : {})
			};
			sessions.set(next.sessionToken, next);
			return copy(next);
		},

		async deleteSession(sessionToken) {
			const session = sessions.get(sessionToken);
			sessions.delete(sessionToken);
			return copyOrNull(session);
		},

		async deleteSessionsByUserId(userId) {
			deleteWhere(sessions, (session) => session.userId === userId);
		},

		async listSessionsByUserId(userId) {
			return [...sessions.values()]
				.filter((session) => session.userId === userId)
				.sort((a, b) => (a.sessionToken < b.sessionToken ? -1 : a.sessionToken > b.sessionToken ? 1 : 0))
				.map(copy);
		},

		async deleteSessionOfUser(userId, sessionToken) {
			const session = sessions.get(sessionToken);
			if (!session || session.userId !== userId) return null;
			sessions.delete(sessionToken);
			return copy(session);
		},

		async createVerificationToken(token) {
			const key = tokenKey(token.identifier, token.token);
			if (verificationTokens.has(key)) {
				throw new UniqueViolationError('verification_tokens_pkey', 'This verification token already exists');
			}
			const stored = { identifier: token.identifier, token: token.token, expires: new Date(token.expires) };
			verificationTokens.set(key, stored);
			return copy(stored);
		},

		async useVerificationToken({ identifier, token }) {
			const key = tokenKey(identifier, token);
			const stored = verificationTokens.get(key);
			verificationTokens.delete(key);
			return copyOrNull(stored);
		},

		async createAuthenticator(authenticator) {
			requireUser(authenticator.userId, 'createAuthenticator');
			if (authenticators.has(authenticator.credentialID)) {
				throw new UniqueViolationError('authenticators_credential_id_key', 'This credential is already registered');
			}
			const stored: AdapterAuthenticator = {
				credentialID: authenticator.credentialID,
				userId: authenticator.userId,
				providerAccountId: authenticator.providerAccountId,
				credentialPublicKey: authenticator.credentialPublicKey,
				counter: authenticator.counter,
				credentialDeviceType: authenticator.credentialDeviceType,
				credentialBackedUp: authenticator.credentialBackedUp,
				transports: authenticator.transports ?? null,
				...authenticatorDetails(authenticator)
			};
			authenticators.set(stored.credentialID, stored);
			return copy(stored);
		},

		async getAuthenticator(credentialID) {
			return copyOrNull(authenticators.get(credentialID));
		},

		async listAuthenticatorsByUserId(userId) {
			return [...authenticators.values()]
				.filter((authenticator) => authenticator.userId === userId)
				.sort((a, b) => (a.credentialID < b.credentialID ? -1 : a.credentialID > b.credentialID ? 1 : 0))
				.map(copy);
		},

		async updateAuthenticatorCounter(credentialID, newCounter) {
			const current = authenticators.get(credentialID);
			if (!current) {
				throw new AdapterError(`updateAuthenticatorCounter: no authenticator with credential ID ${credentialID}`);
			}
			const next = { ...current, counter: newCounter };
			authenticators.set(credentialID, next);
			return copy(next);
		},

		async deleteAuthenticator(credentialID) {
			const current = authenticators.get(credentialID);
			authenticators.delete(credentialID);
			return copyOrNull(current);
		},

		async updateAuthenticator(credentialID, changes) {
			const current = authenticators.get(credentialID);
			if (!current) return null;
			const next: AdapterAuthenticator = { ...current };
			if (changes.name !== undefined) next.name = changes.name;
			if (changes.lastUsedAt !== undefined) next.lastUsedAt = changes.lastUsedAt === null ? null : new Date(changes.lastUsedAt);
			const stored = withoutEmptyDetails(next);
			authenticators.set(credentialID, stored);
			return copy(stored);
		},

		async getTwoFactor(userId) {
			return copyOrNull(twoFactors.get(userId));
		},

		async setTwoFactor(record) {
			requireUser(record.userId, 'setTwoFactor');
			// the last used step never goes back: a record read before a code was used cannot undo that use
			const before = twoFactors.get(record.userId)?.lastUsedStep ?? null;
			const given = record.lastUsedStep ?? null;
			const stored: AdapterTwoFactor = {
				userId: record.userId,
				totpSecret: record.totpSecret,
				lastUsedStep: before === null ? given : given === null ? before : Math.max(before, given),
				recoveryCodes: [...record.recoveryCodes],
				createdAt: record.createdAt ? new Date(record.createdAt) : null
			};
			twoFactors.set(record.userId, stored);
			return copy(stored);
		},

		async deleteTwoFactor(userId) {
			twoFactors.delete(userId);
		},

		async useTotpStep(userId, step) {
			const current = twoFactors.get(userId);
			if (!current || (current.lastUsedStep !== null && step <= current.lastUsedStep)) return false;
			twoFactors.set(userId, { ...current, lastUsedStep: step });
			return true;
		},

		async useRecoveryCode(userId, hash) {
			const current = twoFactors.get(userId);
			if (!current || !current.recoveryCodes.includes(hash)) return false;
			twoFactors.set(userId, { ...current, recoveryCodes: current.recoveryCodes.filter((code) => code !== hash) });
			return true;
		},

		async listUsers(query) {
			const { search, limit, offset } = boundUserListQuery(query);
			const needle = search.toLowerCase();
			const matches = (user: AdapterUser) =>
				!search || user.id === search || user.email.toLowerCase().includes(needle) || (user.name ?? '').toLowerCase().includes(needle);
			const matching = [...users.values()].filter(matches).sort((a, b) => compareCodeUnits(a.email, b.email) || compareCodeUnits(a.id, b.id));
			return { users: matching.slice(offset, offset + limit).map(copy), total: matching.length };
		},

		async getUserAdmin(userId) {
			const record = userAdmins.get(userId);
			return record ? copyUserAdmin(record) : null;
		},

		async setUserAdmin(changes) {
			requireUser(changes.userId, 'setUserAdmin');
			const current = userAdmins.get(changes.userId) ?? emptyUserAdmin(changes.userId);
			const next: AdapterUserAdmin = { ...current };
			for (const key of USER_ADMIN_FIELDS) if (changes[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = changes[key];
			userAdmins.set(changes.userId, copyUserAdmin(next));
			return copyUserAdmin(next);
		},

		async createAuditEntry(entry) {
			if (typeof entry.id !== 'string' || entry.id.length === 0) throw new AdapterError('createAuditEntry: the entry has no id');
			if (typeof entry.action !== 'string' || entry.action.length === 0) throw new AdapterError('createAuditEntry: the entry has no action');
			if (auditTrail.some((stored) => stored.id === entry.id)) throw new UniqueViolationError('kitgate_audit_pkey', 'An audit entry with this id already exists');
			const stored: AdapterAuditEntry = {
				id: entry.id,
				at: new Date(entry.at),
				actorId: entry.actorId ?? null,
				subjectId: entry.subjectId ?? null,
				action: entry.action,
				detail: entry.detail ?? null
			};
			auditTrail.push(stored);
			return copy(stored);
		},

		async listAuditEntries(userId, { limit }) {
			// newest first; entries of one millisecond by id, descending, as the SQL adapters order them
			return auditTrail
				.filter((entry) => entry.actorId === userId || entry.subjectId === userId)
				.sort((a, b) => b.at.getTime() - a.at.getTime() || compareCodeUnits(b.id, a.id))
				.slice(0, boundAuditLimit(limit))
				.map(copy);
		}
	};
}

const USER_ADMIN_FIELDS = ['role', 'bannedAt', 'banReason', 'banExpires', 'createdAt', 'lastSignInAt'] as const;

function emptyUserAdmin(userId: string): AdapterUserAdmin {
	return { userId, role: null, bannedAt: null, banReason: null, banExpires: null, createdAt: null, lastSignInAt: null };
}

/** A copy with its own Date objects. */
function copyUserAdmin(record: AdapterUserAdmin): AdapterUserAdmin {
	const date = (value: Date | null) => (value ? new Date(value) : null);
	return { ...record, bannedAt: date(record.bannedAt), banExpires: date(record.banExpires), createdAt: date(record.createdAt), lastSignInAt: date(record.lastSignInAt) };
}

/** Keeps the fields a SQL adapter stores, with the same defaults (no email reads back as ''). */
function normalizeUser(user: AdapterUser): AdapterUser {
	return {
		id: user.id,
		name: user.name ?? null,
		email: user.email ?? '',
		emailVerified: user.emailVerified ? new Date(user.emailVerified) : null,
		image: user.image ?? null
	};
}

/** The optional details of a session that are given, as the SQL adapters keep them (absent when not given). */
function sessionDetails(session: AdapterSession): Partial<AdapterSession> {
	const details: Partial<AdapterSession> = {};
	if (session.createdAt) details.createdAt = new Date(session.createdAt);
	if (session.userAgent) details.userAgent = session.userAgent;
	if (session.activeOrganizationId) details.activeOrganizationId = session.activeOrganizationId;
	return details;
}

/** The optional details of a passkey that are given (absent when not given). */
function authenticatorDetails(authenticator: AdapterAuthenticator): Partial<AdapterAuthenticator> {
	const details: Partial<AdapterAuthenticator> = {};
	if (authenticator.name) details.name = authenticator.name;
	if (authenticator.aaguid) details.aaguid = authenticator.aaguid;
	if (authenticator.createdAt) details.createdAt = new Date(authenticator.createdAt);
	if (authenticator.lastUsedAt) details.lastUsedAt = new Date(authenticator.lastUsedAt);
	return details;
}

/** A passkey without its null details, as they read back from a SQL adapter. */
function withoutEmptyDetails(authenticator: AdapterAuthenticator): AdapterAuthenticator {
	const { name, aaguid, createdAt, lastUsedAt, ...rest } = authenticator;
	return { ...rest, ...authenticatorDetails({ ...rest, name, aaguid, createdAt, lastUsedAt }) };
}

/** A SQL adapter reads a NULL token field back as absent; do the same here. */
function withoutEmptyFields(account: AdapterAccount): AdapterAccount {
	return Object.fromEntries(
		Object.entries(account).filter(([, value]) => value !== null && value !== undefined)
	) as AdapterAccount;
}

function accountKey(provider: string, providerAccountId: string): string {
	return JSON.stringify([provider, providerAccountId]);
}

function tokenKey(identifier: string, token: string): string {
	return JSON.stringify([identifier, token]);
}

function deleteWhere<T>(map: Map<string, T>, matches: (value: T) => boolean): void {
	for (const [key, value] of map) if (matches(value)) map.delete(key);
}

/** Orders strings by UTF-16 code units, as SQLite's BINARY collation and PostgreSQL's "C" order ASCII text. */
function compareCodeUnits(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

function copy<T>(value: T): T {
	return structuredClone(value);
}

function copyOrNull<T>(value: T | undefined): T | null {
	return value === undefined ? null : structuredClone(value);
}
