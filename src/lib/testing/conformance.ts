// The adapter conformance suite: the behaviour kitgate's engine relies on, as vitest tests that any
// adapter author can run in their own vitest. Export path: `kitgate/testing` (vitest is an optional peer).
import type * as Vitest from 'vitest';
import { base64, base64url, utf8Bytes } from '../server/core/crypto/bytes.js';
import type {
	Adapter,
	AdapterAccount,
	AdapterAuthenticator,
	AdapterUser
} from '../server/core/types.js';
// the engine's own check: a raw driver error would pass a broader one and still not be understood
import { isUniqueViolation } from '../server/core/store/unique-violation.js';
import { registerAdminTests } from './conformance-admin.js';
import { registerOrganizationTests } from './conformance-organizations.js';

/**
 * Options of {@link runAdapterTests}.
 *
 * @example
 * const options: AdapterTestOptions = { name: 'MyAdapter', adapter: () => MyAdapter(), cleanup: () => db.close() };
 */
export interface AdapterTestOptions {
	/** Creates the adapter under test. Called once, before the first test; tests use fresh random keys. */
	adapter: () => Promise<Adapter> | Adapter;
	/** Runs after the last test: close connections, drop the test database. */
	cleanup?: () => Promise<void> | void;
	/** Label of the suite (default `"adapter"`). */
	name?: string;
	/** How many concurrent `linkAccount` calls race for one provider account (default 50). */
	concurrentLinks?: number;
	/**
	 * Whether the adapter stores passkeys (default `true`). `false` for one whose database has no
	 * table for them: the suite then checks that each authenticator method is absent or rejects,
	 * instead of checking what it stores.
	 */
	authenticators?: boolean;
}

// loaded when present: the rest of `kitgate/testing` (sessions, IdP, mailbox) is used without vitest too (Playwright)
const vitest: typeof Vitest | undefined = await import('vitest').catch((error: unknown) => {
	if ((error as { code?: string })?.code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes("'vitest'")) return undefined;
	throw error;
});

const adapterMethods = [
	'createUser',
	'getUser',
	'getUserByEmail',
	'getUserByAccount',
	'updateUser',
	'deleteUser',
	'linkAccount',
	'unlinkAccount',
	'getAccount',
	'createSession',
	'getSessionAndUser',
	'updateSession',
	'deleteSession',
	'createVerificationToken',
	'useVerificationToken',
	'createAuthenticator',
	'getAuthenticator',
	'listAuthenticatorsByUserId',
	'updateAuthenticatorCounter'
] as const satisfies readonly (keyof Adapter)[];

const authenticatorMethods = [
	'createAuthenticator',
	'getAuthenticator',
	'listAuthenticatorsByUserId',
	'updateAuthenticatorCounter'
] as const satisfies readonly (keyof Adapter)[];

/**
 * Registers the conformance tests for an adapter: every method of the Adapter interface, not-found
 * cases, single-use tokens, cascading deletes, time-zone-safe dates and unique-key races. The
 * adapter must implement every required method; the optional ones (account management, second
 * factor, admin: user list, admin record, audit trail) are checked when it has them.
 *
 * @example
 * // my-adapter.test.ts
 * import { runAdapterTests } from 'kitgate/testing';
 * import { MyAdapter } from './my-adapter.js';
 *
 * const db = await openTestDatabase();
 * runAdapterTests({ name: 'MyAdapter', adapter: () => MyAdapter(db), cleanup: () => db.close() });
 */
export function runAdapterTests(options: AdapterTestOptions): void {
	if (!vitest) throw new Error('runAdapterTests() registers vitest tests and needs the package vitest: npm install --save-dev vitest');
	const { afterAll, beforeAll, describe, expect, test } = vitest;
	const concurrentLinks = options.concurrentLinks ?? 50;
	const storesPasskeys = options.authenticators ?? true;
	const requiredMethods = adapterMethods.filter(
		(method) => storesPasskeys || !(authenticatorMethods as readonly string[]).includes(method)
	);

	describe(`${options.name ?? 'adapter'} conformance`, () => {
		let raw: Adapter;
		// Every test but the first relies on the first one's check that all methods exist.
		let adapter: Required<Adapter>;

		beforeAll(async () => {
			raw = await options.adapter();
			adapter = raw as Required<Adapter>;
		});
		afterAll(async () => {
			await options.cleanup?.();
		});

		async function createUser(overrides: Partial<AdapterUser> = {}): Promise<AdapterUser> {
			return adapter.createUser({ ...newUser(), ...overrides });
		}

		async function createUserWithEverything() {
			const user = await createUser();
			const account = newAccount(user.id);
			await adapter.linkAccount(account);
			const session = { sessionToken: randomUUID(), userId: user.id, expires: inOneDay() };
			await adapter.createSession(session);
			const authenticator = newAuthenticator(user.id);
			if (storesPasskeys) await adapter.createAuthenticator(authenticator);
			return { user, account, session, authenticator };
		}

		test('implements every adapter method', () => {
			const missing = requiredMethods.filter((method) => typeof raw[method] !== 'function');
			expect(missing, 'missing adapter methods').toEqual([]);
		});

		describe('users', () => {
			test('createUser returns the user, and getUser reads it back', async () => {
				const input = newUser({ emailVerified: new Date('2030-05-06T07:08:09.123Z') });
				const created = await adapter.createUser(input);
				expect(created).toMatchObject({ email: input.email, name: input.name, image: input.image });
				expect(created.id).toEqual(expect.any(String));
				expect(created.emailVerified?.getTime()).toBe(input.emailVerified?.getTime());
				expect(await adapter.getUser(created.id)).toEqual(created);
			});

			test('getUserByEmail finds the user with that email', async () => {
				const user = await createUser();
				await createUser();
				expect(await adapter.getUserByEmail(user.email)).toEqual(user);
			});

			test('createUser rejects a second user with the same email as a unique violation', async () => {
				const user = await createUser();
				const error = await rejection(adapter.createUser(newUser({ email: user.email })));
				expect(error).not.toBeNull();
				expect(isUniqueViolation(error)).toBe(true);
			});

			test('concurrent createUser with one email: exactly one wins, the others are unique violations', async () => {
				const email = `${randomUUID()}@example.com`;
				const results = await Promise.allSettled(
					Array.from({ length: 8 }, () => adapter.createUser(newUser({ email })))
				);
				const winners = results.filter((result) => result.status === 'fulfilled');
				const losers = results.filter((result) => result.status === 'rejected');
				expect(winners).toHaveLength(1);
				expect(losers.every((result) => isUniqueViolation(result.reason))).toBe(true);
				expect((await adapter.getUserByEmail(email))?.id).toBe(winners[0]?.value.id);
			});

			test('users without an email do not collide, and are not found by an empty email', async () => {
				const first = await createUser({ email: '' });
				const second = await createUser({ email: '' });
				expect(first.id).not.toBe(second.id);
				expect((await adapter.getUser(first.id))?.email).toBe('');
				expect(await adapter.getUserByEmail('')).toBeNull();
			});

			test('updateUser changes the given fields and keeps the others', async () => {
				const user = await createUser();
				const verified = new Date('2031-01-02T03:04:05.678Z');
				const updated = await adapter.updateUser({ id: user.id, name: 'Grace', emailVerified: verified });
				expect(updated).toMatchObject({ id: user.id, name: 'Grace', email: user.email, image: user.image });
				expect(updated.emailVerified?.getTime()).toBe(verified.getTime());
				expect(await adapter.getUser(user.id)).toEqual(updated);

				const email = `${randomUUID()}@example.com`;
				expect((await adapter.updateUser({ id: user.id, email })).email).toBe(email);
				expect((await adapter.getUserByEmail(email))?.id).toBe(user.id);
			});

			test('updateUser rejects an unknown id', async () => {
				await expect(Promise.resolve(adapter.updateUser({ id: randomUUID(), name: 'Nobody' }))).rejects.toThrow();
			});

			test('updateUser rejects an email another user has, as a unique violation', async () => {
				const taken = await createUser();
				const user = await createUser();
				const error = await rejection(adapter.updateUser({ id: user.id, email: taken.email }));
				expect(isUniqueViolation(error)).toBe(true);
			});

			test('deleteUser removes the user and cascades to sessions, accounts and authenticators', async () => {
				const doomed = await createUserWithEverything();
				const kept = await createUserWithEverything();
				const deleted = await adapter.deleteUser(doomed.user.id);
				if (deleted) expect(deleted).toEqual(doomed.user);

				expect(await adapter.getUser(doomed.user.id)).toBeNull();
				expect(await adapter.getSessionAndUser(doomed.session.sessionToken)).toBeNull();
				expect(await adapter.getAccount(doomed.account.providerAccountId, doomed.account.provider)).toBeNull();
				expect(await adapter.getUserByAccount(doomed.account)).toBeNull();
				if (storesPasskeys) {
					expect(await adapter.getAuthenticator(doomed.authenticator.credentialID)).toBeNull();
					expect(await adapter.listAuthenticatorsByUserId(doomed.user.id)).toEqual([]);
				}

				expect(await adapter.getSessionAndUser(kept.session.sessionToken)).not.toBeNull();
				expect(await adapter.getAccount(kept.account.providerAccountId, kept.account.provider)).not.toBeNull();
				if (storesPasskeys) expect(await adapter.getAuthenticator(kept.authenticator.credentialID)).not.toBeNull();
			});

			test('deleteUser of an unknown id resolves without a user', async () => {
				expect((await adapter.deleteUser(randomUUID())) ?? null).toBeNull();
			});
		});

		describe('not-found lookups return null', () => {
			const lookups: Record<string, (adapter: Required<Adapter>) => unknown> = {
				getUser: (a) => a.getUser(randomUUID()),
				getUserByEmail: (a) => a.getUserByEmail(`${randomUUID()}@example.com`),
				getUserByAccount: (a) => a.getUserByAccount({ provider: 'github', providerAccountId: randomUUID() }),
				getAccount: (a) => a.getAccount(randomUUID(), 'github'),
				getSessionAndUser: (a) => a.getSessionAndUser(randomUUID()),
				useVerificationToken: (a) =>
					a.useVerificationToken({ identifier: `${randomUUID()}@example.com`, token: randomUUID() }),
				...(storesPasskeys ? { getAuthenticator: (a: Required<Adapter>) => a.getAuthenticator(randomUUID()) } : {})
			};
			for (const [method, lookup] of Object.entries(lookups)) {
				test(method, async () => {
					expect(await lookup(adapter)).toBeNull();
				});
			}
		});

		describe('accounts', () => {
			test('linkAccount stores token fields, OAuth 1.0a tokens and unknown fields; getAccount and getUserByAccount read them', async () => {
				const user = await createUser();
				const account: AdapterAccount = {
					...newAccount(user.id),
					oauth_token: 'oauth-token',
					oauth_token_secret: 'oauth-token-secret',
					refresh_token_expires_in: 15_897_600,
					authorization_details: [{ type: 'payment', amount: '10.00' }]
				};
				const linked = await adapter.linkAccount(account);
				if (linked) expect(linked).toEqual(account);
				expect(await adapter.getAccount(account.providerAccountId, account.provider)).toEqual(account);
				expect(await adapter.getUserByAccount(account)).toEqual(user);
			});

			test('one user can have several accounts', async () => {
				const user = await createUser();
				const first = newAccount(user.id);
				const second = { ...newAccount(user.id), provider: 'gitlab' };
				await adapter.linkAccount(first);
				await adapter.linkAccount(second);
				expect((await adapter.getUserByAccount(first))?.id).toBe(user.id);
				expect((await adapter.getUserByAccount(second))?.id).toBe(user.id);
			});

			test('listAccountsByUserId, when the adapter has this optional method, lists the accounts of that user only', async () => {
				if (typeof raw.listAccountsByUserId !== 'function') return;
				const [user, other] = [await createUser(), await createUser()];
				const first = newAccount(user.id);
				const second = { ...newAccount(user.id), provider: 'gitlab' };
				await adapter.linkAccount(first);
				await adapter.linkAccount(second);
				await adapter.linkAccount(newAccount(other.id));
				const listed = await adapter.listAccountsByUserId(user.id);
				expect(listed.map((a) => a.provider).sort()).toEqual(['gitlab', first.provider].sort());
				expect(listed.every((a) => a.userId === user.id)).toBe(true);
				expect(await adapter.listAccountsByUserId(randomUUID())).toEqual([]);
			});

			test('linkAccount for a user that does not exist rejects', async () => {
				await expect(Promise.resolve(adapter.linkAccount(newAccount(randomUUID())))).rejects.toThrow();
			});

			test('unlinkAccount removes the account and leaves the user', async () => {
				const user = await createUser();
				const account = newAccount(user.id);
				await adapter.linkAccount(account);
				const unlinked = await adapter.unlinkAccount(account);
				if (unlinked) expect(unlinked).toEqual(account);
				expect(await adapter.getAccount(account.providerAccountId, account.provider)).toBeNull();
				expect(await adapter.getUserByAccount(account)).toBeNull();
				expect(await adapter.getUser(user.id)).toEqual(user);
			});

			test(`${concurrentLinks} concurrent linkAccount of one provider account: exactly one row, the others are unique violations`, async () => {
				const user = await createUser();
				const providerAccountId = randomUUID();
				const attempts = Array.from({ length: concurrentLinks }, (_, index) => ({
					...newAccount(user.id),
					providerAccountId,
					access_token: `token-${index}`
				}));
				const results = await Promise.allSettled(attempts.map((account) => adapter.linkAccount(account)));
				const winners = results.flatMap((result, index) => (result.status === 'fulfilled' ? [attempts[index]] : []));
				const losers = results.filter((result) => result.status === 'rejected');
				expect(winners).toHaveLength(1);
				expect(losers.every((result) => isUniqueViolation(result.reason))).toBe(true);
				expect(await adapter.getAccount(providerAccountId, 'github')).toEqual(winners[0]);
				await adapter.unlinkAccount({ provider: 'github', providerAccountId });
				expect(await adapter.getAccount(providerAccountId, 'github')).toBeNull();
			});
		});

		describe('sessions', () => {
			test('createSession returns the session; getSessionAndUser returns it with its user', async () => {
				const user = await createUser();
				const session = { sessionToken: randomUUID(), userId: user.id, expires: inOneDay() };
				const created = await adapter.createSession(session);
				expect(created).toEqual(session);
				expect(await adapter.getSessionAndUser(session.sessionToken)).toEqual({ session, user });
			});

			test('createSession for a user that does not exist rejects', async () => {
				const session = { sessionToken: randomUUID(), userId: randomUUID(), expires: inOneDay() };
				await expect(Promise.resolve(adapter.createSession(session))).rejects.toThrow();
			});

			test('updateSession changes expires', async () => {
				const user = await createUser();
				const session = { sessionToken: randomUUID(), userId: user.id, expires: inOneDay() };
				await adapter.createSession(session);
				const expires = new Date(session.expires.getTime() + 30 * 86_400_000 + 7);
				const updated = await adapter.updateSession({ sessionToken: session.sessionToken, expires });
				if (updated) expect(updated).toEqual({ ...session, expires });
				const stored = await adapter.getSessionAndUser(session.sessionToken);
				expect(stored?.session.expires.getTime()).toBe(expires.getTime());
			});

			test('updateSession of an unknown token resolves without a session', async () => {
				const result = await adapter.updateSession({ sessionToken: randomUUID(), expires: inOneDay() });
				expect(result ?? null).toBeNull();
			});

			test('deleteSession returns the deleted session and removes it', async () => {
				const user = await createUser();
				const session = { sessionToken: randomUUID(), userId: user.id, expires: inOneDay() };
				await adapter.createSession(session);
				expect(await adapter.deleteSession(session.sessionToken)).toEqual(session);
				expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull();
				expect((await adapter.deleteSession(session.sessionToken)) ?? null).toBeNull();
				expect(await adapter.getUser(user.id)).toEqual(user);
			});

			test('deleteSessionsByUserId, when the adapter has this optional method, deletes every session of the user and no other', async () => {
				// a kitgate addition (revokeSessions); adapters without it get MissingAdapterMethod there
				if (typeof raw.deleteSessionsByUserId !== 'function') return;
				const [owner, other] = [await createUser(), await createUser()];
				const tokens = [randomUUID(), randomUUID(), randomUUID()];
				for (const sessionToken of tokens) await adapter.createSession({ sessionToken, userId: owner.id, expires: inOneDay() });
				const kept = { sessionToken: randomUUID(), userId: other.id, expires: inOneDay() };
				await adapter.createSession(kept);
				await adapter.deleteSessionsByUserId(owner.id);
				for (const sessionToken of tokens) expect(await adapter.getSessionAndUser(sessionToken)).toBeNull();
				expect(await adapter.getSessionAndUser(kept.sessionToken)).toEqual({ session: kept, user: other });
				expect(await adapter.getUser(owner.id)).toEqual(owner);
				await adapter.deleteSessionsByUserId(randomUUID());
			});
		});

		describe('verification tokens', () => {
			test('useVerificationToken returns the token once, then null', async () => {
				const token = { identifier: `${randomUUID()}@example.com`, token: randomUUID(), expires: inOneDay() };
				const created = await adapter.createVerificationToken(token);
				if (created) expect(created).toEqual(token);
				expect(await adapter.useVerificationToken(token)).toEqual(token);
				expect(await adapter.useVerificationToken(token)).toBeNull();
			});

			test('useVerificationToken needs both identifier and token to match', async () => {
				const token = { identifier: `${randomUUID()}@example.com`, token: randomUUID(), expires: inOneDay() };
				await adapter.createVerificationToken(token);
				expect(await adapter.useVerificationToken({ ...token, identifier: 'other@example.com' })).toBeNull();
				expect(await adapter.useVerificationToken({ ...token, token: randomUUID() })).toBeNull();
				expect(await adapter.useVerificationToken(token)).toEqual(token);
			});

			test('concurrent useVerificationToken: exactly one caller gets the token', async () => {
				const token = { identifier: `${randomUUID()}@example.com`, token: randomUUID(), expires: inOneDay() };
				await adapter.createVerificationToken(token);
				const results = await Promise.all(Array.from({ length: 10 }, () => adapter.useVerificationToken(token)));
				expect(results.filter((result) => result !== null)).toEqual([token]);
			});
		});

		// registered only when they apply: a suite that cannot apply is not a skipped test
		if (!storesPasskeys) describe('without passkey storage', () => {
			test('every authenticator method is absent or rejects, and a refused createAuthenticator leaves the user as it was', async () => {
				const user = await createUser();
				const authenticator = newAuthenticator(user.id);
				const calls: Record<(typeof authenticatorMethods)[number], () => unknown> = {
					createAuthenticator: () => raw.createAuthenticator?.(authenticator),
					getAuthenticator: () => raw.getAuthenticator?.(authenticator.credentialID),
					listAuthenticatorsByUserId: () => raw.listAuthenticatorsByUserId?.(user.id),
					updateAuthenticatorCounter: () => raw.updateAuthenticatorCounter?.(authenticator.credentialID, 4)
				};
				for (const method of authenticatorMethods) {
					if (typeof raw[method] !== 'function') continue;
					// a synchronous throw counts as a rejection too
					expect(await rejection(Promise.resolve().then(calls[method])), `${method} should reject`).toBeInstanceOf(Error);
				}
				expect(await adapter.getUser(user.id)).toEqual(user);
			});
		});

		if (storesPasskeys) describe('authenticators', () => {
			test('createAuthenticator returns it; getAuthenticator and listAuthenticatorsByUserId read it', async () => {
				const user = await createUser();
				const backedUp = { ...newAuthenticator(user.id), credentialBackedUp: true, transports: 'internal,hybrid' };
				const { transports: _, ...single } = { ...newAuthenticator(user.id), credentialBackedUp: false, counter: 0 };
				expect(await adapter.createAuthenticator(backedUp)).toEqual(backedUp);
				const created = await adapter.createAuthenticator(single);
				expect(created).toMatchObject(single);
				expect(created.transports ?? null).toBeNull();
				expect(await adapter.getAuthenticator(backedUp.credentialID)).toEqual(backedUp);
				const listed = await adapter.listAuthenticatorsByUserId(user.id);
				expect(listed.map((a) => a.credentialID).sort()).toEqual(
					[backedUp.credentialID, single.credentialID].sort()
				);
				expect(listed.find((a) => a.credentialID === single.credentialID)?.credentialBackedUp).toBe(false);
			});

			test('createAuthenticator rejects a duplicate credentialID', async () => {
				const user = await createUser();
				const authenticator = newAuthenticator(user.id);
				await adapter.createAuthenticator(authenticator);
				const error = await rejection(adapter.createAuthenticator({ ...authenticator, counter: 9 }));
				expect(error).toBeInstanceOf(Error);
				expect(isUniqueViolation(error)).toBe(true);
				expect((await adapter.getAuthenticator(authenticator.credentialID))?.counter).toBe(authenticator.counter);
			});

			test('listAuthenticatorsByUserId returns [] for an unknown user', async () => {
				expect(await adapter.listAuthenticatorsByUserId(randomUUID())).toEqual([]);
			});

			test('updateAuthenticatorCounter stores the new counter (up to 2^32 - 1)', async () => {
				const user = await createUser();
				const authenticator = newAuthenticator(user.id);
				await adapter.createAuthenticator(authenticator);
				const updated = await adapter.updateAuthenticatorCounter(authenticator.credentialID, 4_294_967_295);
				expect(updated).toEqual({ ...authenticator, counter: 4_294_967_295 });
				expect((await adapter.getAuthenticator(authenticator.credentialID))?.counter).toBe(4_294_967_295);
			});

			test('updateAuthenticatorCounter rejects an unknown credential', async () => {
				await expect(Promise.resolve(adapter.updateAuthenticatorCounter(randomUUID(), 1))).rejects.toThrow();
			});
		});

		// kitgate additions for account management (docs/account.md): checked when the adapter has them
		describe('account management (optional methods)', () => {
			test('listSessionsByUserId lists the sessions of that user only, with createdAt and userAgent as given', async () => {
				if (typeof raw.listSessionsByUserId !== 'function') return;
				const [user, other] = [await createUser(), await createUser()];
				const createdAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000 + 123);
				const detailed = { sessionToken: randomUUID(), userId: user.id, expires: inOneDay(), createdAt, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' };
				const plain = { sessionToken: randomUUID(), userId: user.id, expires: inOneDay() };
				expect(await adapter.createSession(detailed)).toEqual(detailed);
				await adapter.createSession(plain);
				await adapter.createSession({ sessionToken: randomUUID(), userId: other.id, expires: inOneDay() });
				const listed = await adapter.listSessionsByUserId(user.id);
				expect(listed.map((session) => session.sessionToken).sort()).toEqual([detailed.sessionToken, plain.sessionToken].sort());
				expect(listed.find((session) => session.sessionToken === detailed.sessionToken)).toEqual(detailed);
				expect(listed.find((session) => session.sessionToken === plain.sessionToken)).toEqual(plain);
				expect(await adapter.getSessionAndUser(detailed.sessionToken)).toEqual({ session: detailed, user });
				expect(await adapter.listSessionsByUserId(randomUUID())).toEqual([]);
			});

			test('deleteSessionOfUser deletes a session of that user, and never another user\'s', async () => {
				if (typeof raw.deleteSessionOfUser !== 'function') return;
				const [owner, intruder] = [await createUser(), await createUser()];
				const session = { sessionToken: randomUUID(), userId: owner.id, expires: inOneDay() };
				await adapter.createSession(session);
				expect((await adapter.deleteSessionOfUser(intruder.id, session.sessionToken)) ?? null).toBeNull();
				expect(await adapter.getSessionAndUser(session.sessionToken)).toEqual({ session, user: owner });
				const deleted = await adapter.deleteSessionOfUser(owner.id, session.sessionToken);
				if (deleted) expect(deleted).toEqual(session);
				expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull();
				expect((await adapter.deleteSessionOfUser(owner.id, session.sessionToken)) ?? null).toBeNull();
			});

			test('deleteSessionOfUser of another user keeps the session\'s createdAt and userAgent', async () => {
				if (typeof raw.deleteSessionOfUser !== 'function' || typeof raw.listSessionsByUserId !== 'function') return;
				const [owner, intruder] = [await createUser(), await createUser()];
				const session = { sessionToken: randomUUID(), userId: owner.id, expires: inOneDay(), createdAt: new Date(1_700_000_000_000), userAgent: 'Owner' };
				await adapter.createSession(session);
				expect((await adapter.deleteSessionOfUser(intruder.id, session.sessionToken)) ?? null).toBeNull();
				expect(await adapter.getSessionAndUser(session.sessionToken)).toEqual({ session, user: owner });
				expect(await adapter.listSessionsByUserId(owner.id)).toEqual([session]);
			});

			test('a session moved to another user and deleted by them leaves no details behind for its token', async () => {
				if (typeof raw.deleteSessionOfUser !== 'function' || typeof raw.listSessionsByUserId !== 'function') return;
				const [first, second] = [await createUser(), await createUser()];
				const sessionToken = randomUUID();
				await adapter.createSession({ sessionToken, userId: first.id, expires: inOneDay(), createdAt: new Date(1_700_000_000_000), userAgent: 'First' });
				await adapter.updateSession({ sessionToken, userId: second.id });
				await adapter.deleteSessionOfUser(second.id, sessionToken);
				expect(await adapter.getSessionAndUser(sessionToken)).toBeNull();
				const again = { sessionToken, userId: first.id, expires: inOneDay() };
				await adapter.createSession(again);
				expect(await adapter.getSessionAndUser(sessionToken)).toEqual({ session: again, user: first });
			});

			test('a session token used again after a delete does not bring back the details of the one before', async () => {
				if (typeof raw.listSessionsByUserId !== 'function') return;
				const [first, second] = [await createUser(), await createUser()];
				const sessionToken = randomUUID();
				await adapter.createSession({ sessionToken, userId: first.id, expires: inOneDay(), createdAt: new Date(1_700_000_000_000), userAgent: 'First' });
				await adapter.deleteSession(sessionToken);
				const again = { sessionToken, userId: second.id, expires: inOneDay() };
				await adapter.createSession(again);
				expect(await adapter.getSessionAndUser(sessionToken)).toEqual({ session: again, user: second });
			});

			if (storesPasskeys) {
				test('createAuthenticator keeps name, aaguid, createdAt and lastUsedAt; updateAuthenticator renames and records use', async () => {
					if (typeof raw.updateAuthenticator !== 'function') return;
					const user = await createUser();
					const passkey = {
						...newAuthenticator(user.id),
						name: 'Phone',
						aaguid: 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4',
						createdAt: new Date('2030-01-02T03:04:05.678Z')
					};
					expect(await adapter.createAuthenticator(passkey)).toEqual(passkey);
					const renamed = await adapter.updateAuthenticator(passkey.credentialID, { name: 'Work phone' });
					if (renamed) expect(renamed).toEqual({ ...passkey, name: 'Work phone' });
					const lastUsedAt = new Date('2030-02-03T04:05:06.789Z');
					await adapter.updateAuthenticator(passkey.credentialID, { lastUsedAt });
					expect(await adapter.getAuthenticator(passkey.credentialID)).toEqual({ ...passkey, name: 'Work phone', lastUsedAt });
					const [listed] = await adapter.listAuthenticatorsByUserId(user.id);
					expect(listed).toEqual({ ...passkey, name: 'Work phone', lastUsedAt });
					await adapter.updateAuthenticator(passkey.credentialID, { name: null });
					expect((await adapter.getAuthenticator(passkey.credentialID))?.name ?? null).toBeNull();
					expect((await adapter.updateAuthenticator(randomUUID(), { name: 'Nobody' })) ?? null).toBeNull();
				});

				test('a passkey removed and registered again (by another user) does not keep the name of the one before', async () => {
					if (typeof raw.updateAuthenticator !== 'function') return;
					const [first, second] = [await createUser(), await createUser()];
					const passkey = { ...newAuthenticator(first.id), name: 'Secret project laptop' };
					await adapter.createAuthenticator(passkey);
					await adapter.deleteAuthenticator(passkey.credentialID);
					const again = { ...passkey, userId: second.id, name: undefined };
					delete again.name;
					await adapter.createAuthenticator(again);
					expect((await adapter.getAuthenticator(passkey.credentialID))?.name ?? null).toBeNull();
				});
			}

			test('second factor: setTwoFactor stores and replaces, getTwoFactor reads it back, deleteTwoFactor removes it', async () => {
				if (typeof raw.getTwoFactor !== 'function') return;
				const [user, other] = [await createUser(), await createUser()];
				expect(await adapter.getTwoFactor(user.id)).toBeNull();
				const record = { userId: user.id, totpSecret: 'sealed-secret', lastUsedStep: null, recoveryCodes: ['hash-a', 'hash-b', 'hash-c'], createdAt: new Date('2030-01-02T03:04:05.678Z') };
				const stored = await adapter.setTwoFactor(record);
				expect({ ...stored, recoveryCodes: [...stored.recoveryCodes].sort() }).toEqual(record);
				const read = await adapter.getTwoFactor(user.id);
				expect({ ...read!, recoveryCodes: [...read!.recoveryCodes].sort() }).toEqual(record);
				expect(await adapter.getTwoFactor(other.id)).toBeNull();
				await adapter.setTwoFactor({ ...record, totpSecret: 'sealed-again', lastUsedStep: 58_908_240, recoveryCodes: ['hash-d'] });
				expect(await adapter.getTwoFactor(user.id)).toEqual({ ...record, totpSecret: 'sealed-again', lastUsedStep: 58_908_240, recoveryCodes: ['hash-d'] });
				await adapter.deleteTwoFactor(user.id);
				expect(await adapter.getTwoFactor(user.id)).toBeNull();
				await adapter.deleteTwoFactor(user.id);
			});

			test('second factor: setTwoFactor never moves lastUsedStep back (a record read before a code was used cannot undo that use)', async () => {
				if (typeof raw.setTwoFactor !== 'function') return;
				const user = await createUser();
				const record = { userId: user.id, totpSecret: 'sealed', lastUsedStep: 100, recoveryCodes: ['hash-a'] };
				await adapter.setTwoFactor(record);
				expect(await adapter.useTotpStep(user.id, 101)).toBe(true);
				await adapter.setTwoFactor({ ...record, recoveryCodes: ['hash-b'] });
				expect(await adapter.getTwoFactor(user.id)).toMatchObject({ lastUsedStep: 101, recoveryCodes: ['hash-b'] });
				expect(await adapter.useTotpStep(user.id, 101)).toBe(false);
				await adapter.setTwoFactor({ ...record, lastUsedStep: null });
				expect((await adapter.getTwoFactor(user.id))?.lastUsedStep).toBe(101);
			});

			test('second factor: useTotpStep accepts only a later step, once, even when called concurrently', async () => {
				if (typeof raw.useTotpStep !== 'function') return;
				const [user, other] = [await createUser(), await createUser()];
				expect(await adapter.useTotpStep(user.id, 100)).toBe(false);
				await adapter.setTwoFactor({ userId: user.id, totpSecret: 'sealed', lastUsedStep: null, recoveryCodes: [] });
				const results = await Promise.all(Array.from({ length: 5 }, () => adapter.useTotpStep(user.id, 58_908_240)));
				expect(results.filter(Boolean)).toHaveLength(1);
				expect(await adapter.useTotpStep(user.id, 58_908_239)).toBe(false);
				expect(await adapter.useTotpStep(user.id, 58_908_241)).toBe(true);
				expect((await adapter.getTwoFactor(user.id))?.lastUsedStep).toBe(58_908_241);
				expect(await adapter.useTotpStep(other.id, 58_908_242)).toBe(false);
			});

			test('second factor: useRecoveryCode removes a code of that user once, and never another user\'s', async () => {
				if (typeof raw.useRecoveryCode !== 'function') return;
				const [user, other] = [await createUser(), await createUser()];
				await adapter.setTwoFactor({ userId: user.id, totpSecret: 'sealed', lastUsedStep: null, recoveryCodes: ['hash-a', 'hash-b'] });
				expect(await adapter.useRecoveryCode(other.id, 'hash-a')).toBe(false);
				const results = await Promise.all(Array.from({ length: 5 }, () => adapter.useRecoveryCode(user.id, 'hash-a')));
				expect(results.filter(Boolean)).toHaveLength(1);
				expect((await adapter.getTwoFactor(user.id))?.recoveryCodes).toEqual(['hash-b']);
				expect(await adapter.useRecoveryCode(user.id, 'hash-z')).toBe(false);
			});

			test('second factor: deleteUser removes it', async () => {
				if (typeof raw.getTwoFactor !== 'function') return;
				const user = await createUser();
				await adapter.setTwoFactor({ userId: user.id, totpSecret: 'sealed', lastUsedStep: 1, recoveryCodes: ['hash-a'] });
				await adapter.deleteUser(user.id);
				expect(await adapter.getTwoFactor(user.id)).toBeNull();
			});

			test('deleteUser removes what listSessionsByUserId and listAccountsByUserId list for that user', async () => {
				if (typeof raw.listSessionsByUserId !== 'function' || typeof raw.listAccountsByUserId !== 'function') return;
				const doomed = await createUserWithEverything();
				await adapter.deleteUser(doomed.user.id);
				expect(await adapter.listSessionsByUserId(doomed.user.id)).toEqual([]);
				expect(await adapter.listAccountsByUserId(doomed.user.id)).toEqual([]);
			});
		});

		// kitgate additions for the admin routes (docs/admin.md): checked when the adapter has them
		registerAdminTests({ vitest: { describe, expect, test }, adapter: () => raw, createUser });

		// kitgate additions for organizations (docs/organizations.md): checked when the adapter has them
		registerOrganizationTests({ vitest: { describe, expect, test }, adapter: () => raw, createUser });

		test('dates round-trip to the millisecond, whatever the time zone of the writer and the reader', async () => {
			const previousTimeZone = process.env.TZ;
			const emailVerified = new Date('1969-07-20T20:17:40.001Z');
			const expires = new Date('2033-11-05T23:59:59.999Z');
			const sessionToken = randomUUID();
			const token = { identifier: `${randomUUID()}@example.com`, token: randomUUID(), expires };
			try {
				process.env.TZ = 'Pacific/Chatham'; // UTC+12:45 or +13:45: off by neither whole hours nor zero
				const user = await createUser({ emailVerified });
				await adapter.createSession({ sessionToken, userId: user.id, expires });
				await adapter.createVerificationToken(token);

				process.env.TZ = 'America/St_Johns'; // UTC-3:30 or -2:30
				const stored = await adapter.getSessionAndUser(sessionToken);
				expect(stored?.user.emailVerified?.getTime()).toBe(emailVerified.getTime());
				expect(stored?.session.expires.getTime()).toBe(expires.getTime());
				expect((await adapter.useVerificationToken(token))?.expires.getTime()).toBe(expires.getTime());
			} finally {
				if (previousTimeZone === undefined) delete process.env.TZ;
				else process.env.TZ = previousTimeZone;
			}
		});
	});
}

function newUser(overrides: Partial<AdapterUser> = {}): AdapterUser {
	const id = randomUUID();
	return {
		id,
		name: 'Ada Lovelace',
		email: `${id}@example.com`,
		emailVerified: null,
		image: `https://example.com/avatars/${id}.png`,
		...overrides
	};
}

function newAccount(userId: string): AdapterAccount {
	return {
		userId,
		type: 'oidc',
		provider: 'github',
		providerAccountId: randomUUID(),
		access_token: 'access-token',
		id_token: 'id-token',
		refresh_token: 'refresh-token',
		expires_at: 1_900_000_000,
		scope: 'openid email profile',
		token_type: 'bearer',
		session_state: { sid: 'abc', rotated: 2 }
	};
}

function newAuthenticator(userId: string): AdapterAuthenticator {
	return {
		credentialID: base64url(utf8Bytes(randomUUID())),
		userId,
		providerAccountId: randomUUID(),
		credentialPublicKey: base64(utf8Bytes(`public-key-${randomUUID()}`)),
		counter: 3,
		credentialDeviceType: 'multiDevice',
		credentialBackedUp: true,
		transports: 'usb,nfc'
	};
}

/** The reason a call rejected with, or null when it succeeded. */
function rejection(result: unknown): Promise<unknown> {
	return Promise.resolve(result).then(
		() => null,
		(reason: unknown) => reason
	);
}

/** A random UUID from the runtime's Web Crypto: the suite runs wherever vitest does (Node, or a Workers pool). */
function randomUUID(): string {
	return crypto.randomUUID();
}

function inOneDay(): Date {
	// A fixed odd millisecond so a store that drops milliseconds is caught.
	return new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000 + 321);
}
