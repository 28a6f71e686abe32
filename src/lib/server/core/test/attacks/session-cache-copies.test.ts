// Attacks on `session.cache` (copies of database sessions in an encrypted cookie or a
// store). Each test is named after the attack, with what the attacker gains. Tests that pass are
// defences that held. Written against 9664364, where 29 failed: fde77d2 fixed the anonymous flood
// (made-up tokens), one account's sign-out loop, revokeSessions / deleteUser / end-other-sessions
// eviction and the rotation rollout; the next fixes kept the ends of copies in a table of this
// process that raises a floor when full instead of forgetting one (floods of many accounts, void
// deleteSession adapters, user changes), gave MemorySessionCacheStore the same floor (its flushed
// tombstones), sealed store values to their key (a writable Redis choosing the user), and record the
// deleted user's revocation before deleting (a full pool now stops the deletion, as for JWT).

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import { resolveConfig } from '../../config/resolve-config.js';
import { encodeJwt } from '../../crypto/jwt.js';
import { MemoryRateLimitStore } from '../../limits/memory-rate-limit-store.js';
import { MemorySessionCacheStore } from '../../session/memory-session-cache-store.js';
import { deleteUser, revokeSessions } from '../../session/revocation.js';
import { sessionCacheKey } from '../../session/session-cache-invalidation.js';
import type { Adapter, AuthConfig, SessionCacheOptions, SessionCacheStore } from '../../types.js';
import { TEST_SECRET, testClient } from '../client.js';
import { failingSessionCacheStore, SECOND, sessionCacheWorld, type SharedServer } from '../session-cache-fixture.js';
import { memoryAndSqliteAdapters } from '../stored-adapters.js';

const OLD_SECRET = 'old-secret-old-secret-old-secret-old-secret-0123';
const NEW_SECRET = 'new-secret-new-secret-new-secret-new-secret-4567';

type Jar = Map<string, string>;

/** Rate limits in a memory store whose revocation pool holds 20 records: small enough for the tests to flood. */
const smallRevocationPool = () => ({ rateLimit: { store: MemoryRateLimitStore({ maxRevocations: 20 }) } });

type World = ReturnType<typeof sessionCacheWorld>;

/** Ada signed in and read her session (a copy was made), and the cookies a thief copied then. */
async function signedInAndStolen(withCopy: World['withCopy']) {
	const ada = await withCopy();
	return { ada, stolen: new Map(ada.client.jar) as Jar };
}

/**
 * The attack most eviction tests make: Ada's session is read (a copy made) and stolen, `end` ends
 * it (held: the stolen copy is no session right after), then `flood` writes revocation records
 * into the pool. The stolen copy must still be no session.
 */
async function stolenCopyStaysEnded(w: World, end: (ada: ReturnType<World['browser']>) => Promise<unknown>, flood: () => Promise<unknown>) {
	const { ada, stolen } = await signedInAndStolen(w.withCopy);
	await end(ada);
	expect(await w.replay(stolen).session()).toBeNull();
	await flood();
	expect(await w.replay(stolen).session()).toBeNull();
}

/**
 * A thief's read of the `stolen` cookies fetches the row and waits there while Ada signs out (and
 * `meanwhile` runs), then finishes: answers the thief's browser, holding whatever that read set.
 */
async function readRacingSignOut(w: World, ada: ReturnType<World['browser']>, stolen: Jar, meanwhile: () => Promise<unknown> = async () => undefined) {
	const thief = w.replay(stolen);
	const gate = w.holdNextRead();
	const racing = thief.session();
	await gate.arrived;
	await ada.signOut();
	await meanwhile();
	gate.open();
	await racing;
	return thief;
}

describe.each(memoryAndSqliteAdapters('session-cache-copies'))('session.cache attacks on the %s adapter', (_name, makeAdapter) => {
	const world = (cache: SessionCacheOptions, overrides: Partial<AuthConfig> = {}, shared?: SharedServer) => sessionCacheWorld(makeAdapter, cache, overrides, shared);

	describe('cookie copies: eviction of the records that end them', () => {
		/** The same adapter, but its deleteSession answers nothing (as Auth.js adapters may: `Awaitable<AdapterSession | null | undefined | void>`). */
		const voidDelete = (adapter: Adapter): Adapter => ({ ...adapter, deleteSession: async (token: string) => void (await adapter.deleteSession!(token)) });

		// attacker gains: a free, anonymous write into the bounded revocation pool for every POST /signout with a made-up session cookie
		test('anonymous sign-out with a made-up token records a copy revocation (free write into the revocation pool)', async () => {
			const writes: string[] = [];
			const inner = MemoryRateLimitStore();
			// the process's own store, watched (a copy that keeps it what it is): ends of copies never enter its bounded pool
			// (they go to kitgate's own table of ends, safe when full); shared stores (Redis, SQL) keep them, unbounded
			const spy = Object.assign(Object.create(inner) as typeof inner, { revoke: (key: string, at: number, keep: number, options?: Parameters<typeof inner.revoke>[3]) => (writes.push(key), inner.revoke(key, at, keep, options)) });
			const { anonymousSignOuts } = world({ maxAge: 60 }, { rateLimit: { store: spy } });
			await anonymousSignOuts(3);
			// a session that never existed has no copy anywhere: nothing should need recording
			expect(writes.filter((key) => key.startsWith('kitgate.session-copy:'))).toEqual([]);
		});

		// attacker gains: the same free write with an adapter whose deleteSession returns nothing (allowed by the Adapter type)
		test('anonymous sign-out with a made-up token, adapter whose deleteSession returns void: still a record', async () => {
			const writes: string[] = [];
			const inner = MemoryRateLimitStore();
			// the process's own store, watched (a copy that keeps it what it is): ends of copies never enter its bounded pool
			// (they go to kitgate's own table of ends, safe when full); shared stores (Redis, SQL) keep them, unbounded
			const spy = Object.assign(Object.create(inner) as typeof inner, { revoke: (key: string, at: number, keep: number, options?: Parameters<typeof inner.revoke>[3]) => (writes.push(key), inner.revoke(key, at, keep, options)) });
			const base = world({ maxAge: 60 });
			const { anonymousSignOuts } = world({ maxAge: 60 }, { rateLimit: { store: spy }, adapter: voidDelete(base.config.adapter!) });
			await anonymousSignOuts(3);
			expect(writes.filter((key) => key.startsWith('kitgate.session-copy:'))).toEqual([]);
		});

		// attacker gains: a stolen session (token + copy cookie) works again after the victim signed out, for up to cache.maxAge, without any account
		test('sign-out, then an anonymous sign-out flood evicts the record: the stolen copy is a session again', async () => {
			const w = world({ maxAge: 3600 }, smallRevocationPool());
			await stolenCopyStaysEnded(w, (ada) => ada.signOut(), () => w.anonymousSignOuts(20));
		});

		// attacker gains: as above, on an app whose adapter's deleteSession returns nothing
		test('sign-out, then an anonymous sign-out flood (adapter deleteSession returns void) evicts the record: the stolen copy is a session again', async () => {
			const base = world({ maxAge: 3600 });
			const w = world({ maxAge: 3600 }, { adapter: voidDelete(base.config.adapter!), ...smallRevocationPool() });
			await stolenCopyStaysEnded(w, (ada) => ada.signOut(), () => w.anonymousSignOuts(20));
		});

		// attacker gains: a stolen session works again after the victim signed out: sign-ins and sign-outs of as many of the attacker's own accounts as the pool holds push the victim's record out (each owner holds one record, the victim's is the oldest)
		test('sign-out, then sign-outs of many attacker accounts evict the record: the stolen copy is a session again', async () => {
			const w = world({ maxAge: 3600 }, smallRevocationPool());
			await stolenCopyStaysEnded(w, (ada) => ada.signOut(), () => w.accountSignOuts(20));
		});

		// attacker gains: a stolen session works again after the victim signed out, with ONE attacker account signing in and out over and over (records owned by their key, not their user, defeat the pool's fairness)
		test('one attacker account signing in and out many times evicts the victim\'s sign-out record', async () => {
			const { withCopy, replay, accountSignOuts } = world({ maxAge: 3600 }, smallRevocationPool());
			const { ada, stolen } = await signedInAndStolen(withCopy);
			await ada.signOut();
			await accountSignOuts(1, 40);
			expect(await replay(stolen).session()).toBeNull();
		});

		// attacker gains: a thief's copy outlives revokeSessions ("sign out everywhere") for up to cache.maxAge
		test('revokeSessions, then sign-outs of many attacker accounts evict the user record: the stolen copy is a session again', async () => {
			const w = world({ maxAge: 3600 }, smallRevocationPool());
			await stolenCopyStaysEnded(w, () => revokeSessions('ada-1', w.config), () => w.accountSignOuts(20));
		});

		// attacker gains: a deleted account stays signed in (locals.auth()/getSession show its user) for up to cache.maxAge
		test('deleteUser, then sign-outs of many attacker accounts evict the user record: the deleted user is signed in again', async () => {
			const w = world({ maxAge: 3600 }, smallRevocationPool());
			await stolenCopyStaysEnded(w, () => deleteUser('ada-1', w.config), () => w.accountSignOuts(20));
		});

		// attacker gains: "end this session" on the account page (the victim kicking the thief out) is undone by sign-outs of many attacker accounts
		test('end-session from the account page, then sign-outs of many attacker accounts: the ended session is read again from its copy', async () => {
			const { browser, replay, accountSignOuts } = world({ maxAge: 3600 }, smallRevocationPool());
			const laptop = browser();
			const phone = browser();
			await laptop.signIn();
			await phone.signIn();
			expect(await phone.session()).toMatchObject({ userId: 'ada-1' });
			const stolen = new Map(phone.client.jar);
			const overview = (await (await laptop.client.request('/auth/account')).json()) as { sessions: { id: string; current: boolean }[] };
			const other = overview.sessions.find((s) => !s.current)!;
			const csrfToken = await laptop.client.csrfToken();
			const ended = await laptop.client.request('/auth/account/end-session', { json: { csrfToken, sessionId: other.id } });
			expect(ended.status).toBe(200);
			expect(await replay(stolen).session()).toBeNull();
			await accountSignOuts(20);
			expect(await replay(stolen).session()).toBeNull();
		});

		// attacker gains: after a change of the user through kitgate (an email change, or the removal of a claimed address from its claimant), a browser's copy shows the old user again once sign-outs of many accounts push out the record
		test('updateUser, then sign-outs of many attacker accounts: the copy shows the user as it was', async () => {
			const { signedIn, replay, accountSignOuts, config } = world({ maxAge: 3600 }, smallRevocationPool());
			const phone = await signedIn();
			expect(await phone.session()).toMatchObject({ user: { email: 'ada@example.com' } });
			const copied = new Map(phone.client.jar);
			await resolveConfig(config).adapter!.updateUser!({ id: 'ada-1', email: 'ada@new.example' });
			expect(await replay(copied).session()).toMatchObject({ user: { email: 'ada@new.example' } });
			await accountSignOuts(20);
			expect(await replay(copied).session()).toMatchObject({ user: { email: 'ada@new.example' } });
		});

		// attacker gains: a deleted user stays signed in for up to cache.maxAge once the never-dropped revocation pool is full: the record deleteUser needs is refused, and the refusal is only logged
		test('deleteUser when the revocation pool is full of live user revocations: refused before anything is deleted (never a deleted user whose copy lives on)', async () => {
			const errors: unknown[] = [];
			const { withCopy, signedIn, replay, config } = world({ maxAge: 3600 }, { rateLimit: { store: MemoryRateLimitStore({ maxRevocations: 5 }) }, logger: { error: (e) => void errors.push(e), warn: () => undefined, debug: () => undefined } });
			const { stolen } = await signedInAndStolen(withCopy);
			// five attacker accounts each "end their other sessions": one live revocation each, kept for the JWT lifetime
			for (let i = 0; i < 5; i++) {
				const eve = await signedIn(`eve-${i}`);
				const csrfToken = await eve.client.csrfToken();
				const ended = await eve.client.request('/auth/account/end-other-sessions', { json: { csrfToken } });
				expect(ended.status).toBe(200);
			}
			// as for JWT sessions: the revocation the copies end through is recorded first, and its refusal stops the deletion
			await expect(deleteUser('ada-1', config)).rejects.toThrow();
			expect(await resolveConfig(config).adapter!.getUser('ada-1')).toMatchObject({ id: 'ada-1' });
			expect(await replay(stolen).session()).toMatchObject({ userId: 'ada-1' });
		});

		// held: without a flood, the record of a sign-out ends a stolen copy for its whole life
		test('held: a stolen copy replayed after sign-out stays no session until it expires', async () => {
			const { clock, withCopy, replay } = world({ maxAge: 60 });
			const { ada, stolen } = await signedInAndStolen(withCopy);
			await ada.signOut();
			for (let i = 0; i < 6; i++) {
				expect(await replay(stolen).session()).toBeNull();
				clock.now += 10 * SECOND;
			}
		});
	});
	describe('cookie copies: secrets and servers', () => {
		// attacker gains: during a secret rotation rolled out server by server, a sign-out on a rotated server does not end the thief's copy on a server not yet rotated (up to cache.maxAge)
		test('secret rotation rollout: a sign-out on the rotated server leaves the copy made by the old server alive there', async () => {
			const old = world({ maxAge: 3600 }, { secret: OLD_SECRET });
			const shared = { raw: old.raw, clock: old.clock, revocationStore: old.revocationStore };
			const rotated = world({ maxAge: 3600 }, { secret: [NEW_SECRET, OLD_SECRET] }, shared);
			// the victim signs in and reads the session on the server still on the old secret (the thief steals both cookies)
			const onOld = await old.withCopy();
			expect(onOld.client.jar.has('kitgate.session-cache')).toBe(true);
			const stolen = new Map(onOld.client.jar);
			// the next request of the victim lands on the rotated server: it signs out there
			const onRotated = rotated.replay(new Map(onOld.client.jar));
			expect((await onRotated.signOut()).status).toBe(302);
			// held on the rotated server itself
			expect(await rotated.replay(stolen).session()).toBeNull();
			// the thief's requests land on the server on the old secret
			expect(await old.replay(stolen).session()).toBeNull();
		});

		// held: once every server has rotated, a copy sealed and keyed under the old secret is never used (its key is another)
		test('held: after rotation a copy made under the old secret is ignored (the database is asked)', async () => {
			const old = world({ maxAge: 3600 }, { secret: OLD_SECRET });
			const rotated = world({ maxAge: 3600 }, { secret: [NEW_SECRET, OLD_SECRET] }, { raw: old.raw, clock: old.clock, revocationStore: old.revocationStore });
			const ada = await old.withCopy();
			const jar = new Map(ada.client.jar);
			const later = rotated.replay(jar);
			rotated.reads.count = 0;
			expect(await later.session()).toMatchObject({ userId: 'ada-1' });
			expect(rotated.reads.count).toBe(1);
		});

		// held: a copy taken from Ada's browser and put beside Bob's token is not Bob's session, nor Ada's
		test("held: Ada's copy beside Bob's session token shows Bob (the copy is bound to its token)", async () => {
			const { browser, withCopy, signedIn, reads } = world({ maxAge: 3600 });
			const ada = await withCopy('ada');
			const bob = await signedIn('bob');
			bob.client.jar.set('kitgate.session-cache', ada.client.jar.get('kitgate.session-cache')!);
			reads.count = 0;
			expect(await bob.session()).toMatchObject({ userId: 'bob-1', user: { email: 'bob@example.com' } });
			expect(reads.count).toBe(1);
			// and a copy alone (no session token) is no session
			const copyOnly = browser();
			copyOnly.client.jar.set('kitgate.session-cache', ada.client.jar.get('kitgate.session-cache')!);
			expect(await copyOnly.session()).toBeNull();
		});

		// held: over HTTPS only the __Secure- copy is read; a copy tossed under the plain name (from an http:// sibling) is ignored
		test('held: over HTTPS a copy cookie under the plain name is not read, and cannot be sealed for the __Secure- name', async () => {
			const { withCopy, readsDuring } = world({ maxAge: 3600 });
			const ada = await withCopy('ada', 'https://app.example');
			const value = ada.client.jar.get('__Secure-kitgate.session-cache')!;
			expect(value).toBeTruthy();
			ada.client.jar.delete('__Secure-kitgate.session-cache');
			ada.client.jar.set('kitgate.session-cache', value);
			expect(await readsDuring(() => ada.session())).toBe(1);
			// a copy made over HTTP (salt of the plain name) put under the __Secure- name is not read either
			const plain = await withCopy();
			ada.client.jar.set('__Secure-kitgate.session-cache', plain.client.jar.get('kitgate.session-cache')!);
			ada.client.jar.set('__Secure-kitgate.session-token', plain.client.jar.get('kitgate.session-token')!);
			expect(await readsDuring(() => ada.session())).toBe(1);
		});

		// held: a copy re-sealed with another secret claiming a far `until` for this very session is ignored
		test('held: a forged copy (right key, far until, other secret) is ignored', async () => {
			const { signedIn, reads } = world({ maxAge: 3600 });
			const ada = await signedIn();
			const token = ada.client.jar.get('kitgate.session-token')!;
			const k = sessionCacheKey(TEST_SECRET, token);
			const copy = JSON.stringify({ user: { id: 'bob-1', name: 'Bob', email: 'bob@example.com' }, expires: Date.UTC(2040, 0) });
			const forged = await encodeJwt({ token: { k, from: Date.UTC(2040, 0), until: Date.UTC(2040, 0), copy }, secret: 'x'.repeat(48), salt: 'kitgate.session-cache', maxAge: 3600 });
			ada.client.jar.set('kitgate.session-cache', forged);
			reads.count = 0;
			expect(await ada.session()).toMatchObject({ userId: 'ada-1' });
			expect(reads.count).toBe(1);
		});
	});

	describe('races between a read and an end of the session', () => {
		// held: a read that fetched the row before the sign-out and writes its copy after it leaves a copy that is already stale
		test('held (cookie): a copy written by a read that raced the sign-out is stale at once', async () => {
			const w = world({ maxAge: 3600 });
			const ada = await w.signedIn();
			const stolen = new Map(ada.client.jar);
			const thief = await readRacingSignOut(w, ada, stolen);
			// the thief kept whatever copy the racing read set
			const withCopy = new Map(stolen);
			const copy = thief.client.jar.get('kitgate.session-cache');
			if (copy) withCopy.set('kitgate.session-cache', copy);
			expect(await w.replay(withCopy).session()).toBeNull();
		});

		// held: in a store, the tombstone of the sign-out refuses the copy of a read that raced it
		test('held (store): a copy read before the sign-out is never stored after it', async () => {
			const store = MemorySessionCacheStore();
			const w = world({ maxAge: 3600, store });
			const ada = await w.signedIn();
			const stolen = new Map(ada.client.jar);
			await readRacingSignOut(w, ada, stolen);
			expect(await w.replay(stolen).session()).toBeNull();
		});

		// attacker gains: a signed-out session read from the store's copy for up to cache.maxAge: sign-outs of the attacker's own sessions fill the tombstones, and a full set is forgotten all at once
		test('store: sign-outs of the attacker\'s own sessions flush the tombstones, so a read that raced the sign-out stores its stale copy', async () => {
			// 30 tombstones here; the default store's 10,000 take as many sign-ins and sign-outs
			const store = MemorySessionCacheStore({ maxEntries: 30 });
			const w = world({ maxAge: 3600, store });
			const ada = await w.signedIn();
			const stolen = new Map(ada.client.jar);
			await readRacingSignOut(w, ada, stolen, () => w.accountSignOuts(1, 30));
			expect(await w.replay(stolen).session()).toBeNull();
		});

		// held: the memory store's bound is on entries; a flood never brings back a copy that was forgotten (copies go with the tombstones)
		test('held (store): a flood of sign-outs after a sign-out never brings back the forgotten copy', async () => {
			const store = MemorySessionCacheStore({ maxEntries: 30 });
			const { withCopy, replay, accountSignOuts } = world({ maxAge: 3600, store });
			const { ada, stolen } = await signedInAndStolen(withCopy);
			await ada.signOut();
			await accountSignOuts(1, 35);
			expect(await replay(stolen).session()).toBeNull();
		});
	});

	describe('the account page', () => {
		// attacker gains: once the revocation pool is full (a busy site, or filled by the attacker's accounts), ONE more sign-out by anyone after "end other sessions" brings back a thief's session: the victim's records are evicted first, because the victim "holds the most"
		test('end-other-sessions on a full pool: the victim\'s own records are the first evicted', async () => {
			const { browser, replay, accountSignOuts } = world({ maxAge: 3600 }, smallRevocationPool());
			const laptop = browser();
			const phone = browser();
			const tablet = browser();
			await laptop.signIn();
			await phone.signIn();
			await tablet.signIn();
			expect(await phone.session()).toMatchObject({ userId: 'ada-1' });
			expect(await tablet.session()).toMatchObject({ userId: 'ada-1' });
			const stolenPhone = new Map(phone.client.jar);
			const stolenTablet = new Map(tablet.client.jar);
			// a busy pool: full of other people's sign-outs
			await accountSignOuts(20);
			const csrfToken = await laptop.client.csrfToken();
			const ended = await laptop.client.request('/auth/account/end-other-sessions', { form: { csrfToken, callbackUrl: '/settings' } });
			expect(new URL(ended.headers.get('location')!).searchParams.get('account')).toBe('other-sessions-ended');
			// held right after
			expect(await replay(stolenPhone).session()).toBeNull();
			expect(await replay(stolenTablet).session()).toBeNull();
			// one more sign-out, of anyone else
			await accountSignOuts(1, 1, 100);
			expect([await replay(stolenPhone).session(), await replay(stolenTablet).session()]).toEqual([null, null]);
		});

		// held: the routes that act read the database: a stolen copy (even one a flood brought back) opens no account page
		test('held: the account page and its changes never trust a copy', async () => {
			const { withCopy, replay, config } = world({ maxAge: 3600 }, { session: { maxAge: 30 * 86400, updateAge: 86400, revocationCheck: 'refresh', cache: { maxAge: 3600 } } });
			const { stolen } = await signedInAndStolen(withCopy);
			await revokeSessions('ada-1', config);
			// with revocationCheck "refresh" the copy is read until maxAge (documented) ...
			const thief = replay(stolen);
			expect(await thief.session()).toMatchObject({ userId: 'ada-1' });
			// ... but never by the account routes
			expect((await replay(stolen).client.request('/auth/account')).status).toBe(401);
			const csrf = await thief.client.csrfToken();
			const change = await replay(stolen).client.request('/auth/account/end-other-sessions', { json: { csrfToken: csrf } });
			expect(change.status).toBe(401);
		});

		// held: an email change through kitgate shows at once in every browser holding a copy
		test('held: updateUser through kitgate (an email change) shows at once in another browser', async () => {
			const { browser, config } = world({ maxAge: 3600 });
			const laptop = browser();
			const phone = browser();
			await laptop.signIn();
			await phone.signIn();
			expect(await phone.session()).toMatchObject({ user: { email: 'ada@example.com' } });
			await resolveConfig(config).adapter!.updateUser!({ id: 'ada-1', email: 'ada@new.example' });
			expect(await phone.session()).toMatchObject({ user: { email: 'ada@new.example' } });
		});
	});

	describe('stores, logs and sizes', () => {
		// attacker gains: whoever can write to the shared store (Redis reached through SSRF, another app on the same Redis) signs in as ANY user: store copies carry no seal, so rewriting the value under one's own key (found by the user id in it) makes one's session another user's
		test('store write access: rewriting the value of one\'s own copy makes one\'s session another user\'s', async () => {
			const inner = MemorySessionCacheStore();
			// what a Redis client sees: keys and values
			const visible = new Map<string, { userId: string; value: string }>();
			const redisView: SessionCacheStore = {
				get: (key) => inner.get(key),
				set: (key, entry) => (visible.set(key, { userId: entry.userId, value: entry.value }), inner.set(key, entry)),
				forget: (key, ttl) => inner.forget(key, ttl),
				forgetUser: (userId, ttl) => inner.forgetUser(userId, ttl)
			};
			const { withCopy } = world({ maxAge: 3600, store: redisView });
			await withCopy('ada');
			const bob = await withCopy('bob');
			// Bob finds his own copy by the user id in it, and Ada's user in hers
			const [bobKey] = [...visible].find(([, entry]) => entry.userId === 'bob-1')!;
			const adaValue = [...visible.values()].find((entry) => entry.userId === 'ada-1')!.value;
			const miss = (await inner.get('no-such-key')) as { missedAt: number };
			await inner.set(bobKey, { userId: 'bob-1', value: adaValue, missedAt: miss.missedAt, ttlSeconds: 3600 });
			expect(await bob.session()).toMatchObject({ userId: 'bob-1' });
		});

		// held: a store answering junk is a miss (the database answers), never a session of someone else or a crash
		test('held: a store returning junk is a miss', async () => {
			for (const value of ['junk', '{}', 'null', '{"user":{"id":7},"expires":1}', '{"user":{"id":"x"},"expires":"soon"}', '[]']) {
				const junk: SessionCacheStore = { get: () => ({ value }), set: () => undefined, forget: () => undefined, forgetUser: () => undefined };
				const { signedIn, reads } = world({ maxAge: 60, store: junk });
				const ada = await signedIn();
				reads.count = 0;
				expect(await ada.session()).toMatchObject({ userId: 'ada-1' });
				expect(reads.count).toBe(1);
			}
		});

		// held: neither the store's keys nor its values hold the session token; a failing store's log holds neither the token nor the address
		test('held: the store never sees the session token; failure logs hold no token or email', async () => {
			const seen: string[] = [];
			const inner = MemorySessionCacheStore();
			const spy: SessionCacheStore = {
				get: (key) => (seen.push(key), inner.get(key)),
				set: (key, entry) => (seen.push(key, JSON.stringify(entry)), inner.set(key, entry)),
				forget: (key, ttl) => (seen.push(key), inner.forget(key, ttl)),
				forgetUser: (userId, ttl) => (seen.push(userId), inner.forgetUser(userId, ttl))
			};
			const { withCopy } = world({ maxAge: 60, store: spy });
			const ada = await withCopy();
			await ada.session();
			const token = ada.client.jar.get('kitgate.session-token')!;
			await ada.signOut();
			expect(seen.length).toBeGreaterThan(0);
			expect(seen.join('\n')).not.toContain(token);

			const logged: string[] = [];
			const failing = failingSessionCacheStore('down');
			const keep = (...args: unknown[]) => void logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${JSON.stringify(a.cause ?? '')}` : JSON.stringify(a))).join(' '));
			const broken = world({ maxAge: 60, store: failing }, { logger: { error: keep, warn: keep, debug: keep } });
			const bob = await broken.withCopy('bob');
			const bobToken = bob.client.jar.get('kitgate.session-token')!;
			await bob.signOut();
			expect(logged.length).toBeGreaterThan(0);
			expect(logged.join('\n')).not.toContain(bobToken);
			expect(logged.join('\n')).not.toContain('bob@example.com');
		});

		// held: a revocation store that fails makes cookie copies misses (fail closed), so a signed-out copy stays dead
		test('held: a failing revocation store makes every cookie copy a miss', async () => {
			const inner = MemoryRateLimitStore();
			let down = false;
			const flaky = { ...inner, revokedAt: (key: string, now: number) => (down ? (() => { throw new Error('down'); })() : inner.revokedAt(key, now)) };
			const { withCopy, readsDuring } = world({ maxAge: 60 }, { rateLimit: { store: flaky }, logger: { error: () => undefined, warn: () => undefined, debug: () => undefined } });
			const ada = await withCopy();
			down = true;
			expect(await readsDuring(() => ada.session())).toBe(1);
		});

		// held: a user too large for one cookie is not copied into a cookie (no chunking, no header blow-up)
		test('held: an oversized user gets no cookie copy and no chunks', async () => {
			const { raw, signedIn } = world({ maxAge: 60 });
			const ada = await signedIn();
			await raw.updateUser!({ id: 'ada-1', name: 'A'.repeat(20_000) });
			const response = await ada.client.request('/auth/session');
			expect(response.headers.getSetCookie().filter((line) => line.includes('session-cache')).every((line) => /session-cache=;/.test(line) || !/session-cache\.\d=/.test(line))).toBe(true);
			expect([...ada.client.jar.keys()].some((name) => name.includes('session-cache'))).toBe(false);
		});

		// held: the session token of a JWT session's row (`jwt:…`) is never a database session, so it never gets a copy
		test('held: a `jwt:` row token is no database session and gets no copy', async () => {
			const { browser, reads } = world({ maxAge: 60 });
			const ada = browser();
			ada.client.jar.set('kitgate.session-token', 'jwt:abc');
			reads.count = 0;
			expect(await ada.session()).toBeNull();
			expect(reads.count).toBe(0);
			expect(ada.client.jar.has('kitgate.session-cache')).toBe(false);
		});
	});
});

describe('session.cache on the default revocation store (memory adapter)', () => {
	// attacker gains: with the default memory revocation store (50,000 records) and an adapter whose deleteSession answers nothing, 50,000 anonymous POST /signout (seconds of one core) bring a stolen, signed-out session back
	test('default revocation store, void deleteSession: 50,000 anonymous sign-outs evict the sign-out record of a stolen copy', async () => {
		const memory = MemoryAdapter();
		const adapter: Adapter = { ...memory, deleteSession: async (token: string) => void (await memory.deleteSession!(token)) };
		const w = sessionCacheWorld(() => adapter, { maxAge: 3600 });
		const ada = await w.withCopy();
		const stolen = new Map(ada.client.jar);
		await ada.signOut();
		expect(await w.replay(stolen).session()).toBeNull();
		const attacker = testClient(w.config);
		const csrfToken = await attacker.csrfToken();
		for (let i = 0; i <= 50_000; i++) {
			attacker.jar.set('kitgate.session-token', `made-up-${i}`);
			await attacker.request('/auth/signout', { form: { csrfToken } });
		}
		expect(await w.replay(stolen).session()).toBeNull();
	}, 120_000);
});
