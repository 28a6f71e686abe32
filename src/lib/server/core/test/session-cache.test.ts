// `session.cache`: copies of database sessions in an encrypted cookie or a store, read instead of
// the database. Through `Auth()` on the memory adapter and a real SQLite file: how often the database
// is asked, what ends a copy (sign-out, a change in this browser, its maxAge, the session's own
// expiry or extension), what is never trusted (another session's copy, a tampered or foreign one),
// and the start-up errors.

import { describe, expect, test } from 'vitest';
import { resolveConfig } from '../config/resolve-config.js';
import { InvalidConfiguration } from '../errors.js';
import { MemorySessionCacheStore } from '../session/memory-session-cache-store.js';
import { revokeSessions } from '../session/revocation.js';
import type { Adapter, AdapterUser, AuthConfig, SessionCacheOptions } from '../types.js';
import { encodeJwt } from '../crypto/jwt.js';
import { TEST_SECRET, testClient } from './client.js';
import { failingSessionCacheStore, SECOND, sessionCacheWorld } from './session-cache-fixture.js';
import { memoryAndSqliteAdapters } from './stored-adapters.js';

/** Ada signed in on a laptop and a phone, each having read its session once (so each holds a copy). */
async function twoDevicesWithCopies<B extends { signIn(): Promise<unknown>; session(): Promise<unknown> }>(browser: () => B) {
	const laptop = browser();
	const phone = browser();
	await laptop.signIn();
	await phone.signIn();
	await laptop.session();
	await phone.session();
	return { laptop, phone };
}

describe.each(memoryAndSqliteAdapters('session-cache'))('session.cache on the %s adapter', (_name, makeAdapter) => {
	const world = (cache: SessionCacheOptions, overrides: Partial<AuthConfig> = {}) => sessionCacheWorld(makeAdapter, cache, overrides);

	describe('in a cookie', () => {
		test('the first read asks the database and sets the copy; reads within maxAge ask nothing; then the database again', async () => {
			const { clock, reads, signedIn } = world({ maxAge: 60 });
			const ada = await signedIn();
			expect(ada.client.jar.has('kitgate.session-cache')).toBe(false);
			reads.count = 0;
			expect(await ada.session()).toMatchObject({ user: { name: 'Ada' }, userId: 'ada-1' });
			expect(reads.count).toBe(1);
			expect(ada.client.jar.has('kitgate.session-cache')).toBe(true);
			for (let i = 0; i < 5; i++) expect(await ada.session()).toMatchObject({ userId: 'ada-1' });
			expect(reads.count).toBe(1);
			clock.now += 61 * SECOND;
			expect(await ada.session()).toMatchObject({ userId: 'ada-1' });
			expect(reads.count).toBe(2);
		});

		test('the copy cookie is httpOnly, SameSite=Lax, path /, expires with the copy, and never holds the token or the email in clear', async () => {
			const { clock, signedIn } = world({ maxAge: 60 });
			const ada = await signedIn();
			const response = await ada.client.request('/auth/session');
			const line = response.headers.getSetCookie().find((value) => value.startsWith('kitgate.session-cache='))!;
			expect(line).toMatch(/; Path=\//);
			expect(line).toMatch(/; HttpOnly/);
			expect(line).toMatch(/; SameSite=Lax/);
			expect(line).toContain(`Expires=${new Date(clock.now + 60 * SECOND).toUTCString()}`);
			const value = ada.client.jar.get('kitgate.session-cache')!;
			expect(value).not.toContain(ada.client.jar.get('kitgate.session-token')!);
			expect(Buffer.from(value.replaceAll('.', ''), 'base64url').toString('latin1')).not.toContain('ada@example.com');
		});

		test('over HTTPS the copy cookie is __Secure- and Secure', async () => {
			const { config } = world({ maxAge: 60 });
			const client = testClient(config, 'https://app.example');
			const csrfToken = await client.csrfToken();
			await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada', password: 'x' } });
			const response = await client.request('/auth/session');
			const line = response.headers.getSetCookie().find((value) => value.startsWith('__Secure-kitgate.session-cache='));
			expect(line).toMatch(/; Secure/);
		});

		test('a session ended through kitgate (revokeSessions, sign-out) is over at once, on every server sharing the revocation store', async () => {
			const { clock, browser, config } = world({ maxAge: 30 });
			const { laptop, phone } = await twoDevicesWithCopies(browser);
			await revokeSessions('ada-1', config);
			expect(await laptop.session()).toBeNull();
			expect(await phone.session()).toBeNull();
			clock.now += 5 * SECOND;
			expect(await laptop.session()).toBeNull();
		});

		test('a session deleted behind kitgate (the app deleting the row itself) is read from the copy until maxAge, never after', async () => {
			const { clock, raw, reads, withCopy } = world({ maxAge: 30 });
			const ada = await withCopy();
			await raw.deleteSession!(ada.client.jar.get('kitgate.session-token')!);
			clock.now += 29 * SECOND;
			expect(await ada.session()).toMatchObject({ userId: 'ada-1' });
			clock.now += 2 * SECOND;
			reads.count = 0;
			expect(await ada.session()).toBeNull();
			expect(reads.count).toBe(1);
			expect(ada.client.jar.has('kitgate.session-cache')).toBe(false);
			expect(ada.client.jar.has('kitgate.session-token')).toBe(false);
		});

		test('with revocationCheck "refresh", copies are not checked: a session ended elsewhere lives on in a copy until maxAge', async () => {
			const { clock, withCopy, config } = world({ maxAge: 30 }, { session: { maxAge: 30 * 86400, updateAge: 86400, revocationCheck: 'refresh', cache: { maxAge: 30 } } });
			const ada = await withCopy();
			await revokeSessions('ada-1', config);
			expect(await ada.session()).toMatchObject({ userId: 'ada-1' });
			clock.now += 31 * SECOND;
			expect(await ada.session()).toBeNull();
		});

		test('sign-out clears the copy with the session; a copy replayed after it is no session', async () => {
			const { browser, withCopy } = world({ maxAge: 60 });
			const ada = await withCopy();
			const copied = new Map(ada.client.jar);
			const response = await ada.signOut();
			expect(response.headers.getSetCookie().some((line) => line.startsWith('kitgate.session-cache=;'))).toBe(true);
			// the cookies copied before the sign-out are no session: the ended session's copies are stale
			const thief = browser();
			for (const [name, value] of copied) thief.client.jar.set(name, value);
			expect(await thief.session()).toBeNull();
		});

		test.each([
			['a cookie', undefined],
			['a store', MemorySessionCacheStore]
		])("a change of the user through kitgate's adapter shows at once, copies in %s", async (_where, makeStore) => {
			const { signedIn, config } = world({ maxAge: 3600, ...(makeStore ? { store: makeStore() } : {}) });
			const ada = await signedIn();
			expect(await ada.session()).toMatchObject({ user: { name: 'Ada' } });
			await resolveConfig(config).adapter!.updateUser({ id: 'ada-1', name: 'Ada Lovelace' });
			expect(await ada.session()).toMatchObject({ user: { name: 'Ada Lovelace' } });
		});

		test("another session's copy is never this session's: a copy moved beside another token is ignored", async () => {
			const { reads, withCopy, signedIn } = world({ maxAge: 60 });
			const ada = await withCopy();
			const other = await signedIn();
			other.client.jar.set('kitgate.session-cache', ada.client.jar.get('kitgate.session-cache')!);
			reads.count = 0;
			expect(await other.session()).toMatchObject({ userId: 'ada-1' });
			// it was read from the database, and the foreign copy replaced by this session's own
			expect(reads.count).toBe(1);
			expect(other.client.jar.get('kitgate.session-cache')).not.toBe(ada.client.jar.get('kitgate.session-cache'));
		});

		test('a tampered copy, or one sealed with another secret, is ignored (the database is asked)', async () => {
			const { reads, withCopy } = world({ maxAge: 60 });
			const ada = await withCopy();
			const value = ada.client.jar.get('kitgate.session-cache')!;
			const parts = value.split('.');
			parts[3] = parts[3].slice(0, -2) + (parts[3].endsWith('AA') ? 'BB' : 'AA');
			ada.client.jar.set('kitgate.session-cache', parts.join('.'));
			reads.count = 0;
			expect(await ada.session()).toMatchObject({ userId: 'ada-1' });
			expect(reads.count).toBe(1);

			const otherSecret = 'another-secret-another-secret-another-0123';
			const forged = await encodeJwt({ token: { k: 'x', until: Date.UTC(2040, 0), copy: '{}' }, secret: otherSecret, salt: 'kitgate.session-cache', maxAge: 60 });
			ada.client.jar.set('kitgate.session-cache', forged);
			reads.count = 0;
			expect(await ada.session()).toMatchObject({ userId: 'ada-1' });
			expect(reads.count).toBe(1);
		});

		test('a session due for extension (updateAge) is read from the database and extended, with a new copy', async () => {
			const { clock, reads, raw, withCopy } = world({ maxAge: 3600 });
			const ada = await withCopy();
			clock.now += 86400 * SECOND + SECOND;
			reads.count = 0;
			const response = await ada.client.request('/auth/session');
			expect(reads.count).toBe(1);
			const stored = await raw.getSessionAndUser!(ada.client.jar.get('kitgate.session-token')!);
			expect(stored?.session.expires.getTime()).toBe(clock.now + 30 * 86400 * SECOND);
			expect(response.headers.getSetCookie().some((line) => line.startsWith('kitgate.session-cache=') && !line.startsWith('kitgate.session-cache=;'))).toBe(true);
		});

		test('the copy never outlives the session: it expires with it', async () => {
			// a session of 40 s, never extended in that time: the copy is cut to it
			const { clock, reads, withCopy } = world({ maxAge: 3600 }, { session: { maxAge: 40, updateAge: 3600, cache: { maxAge: 3600 } } });
			const ada = await withCopy();
			clock.now += 41 * SECOND;
			reads.count = 0;
			expect(await ada.session()).toBeNull();
			expect(reads.count).toBe(1);
		});

		test("a change through kitgate's routes in this browser drops the copy (its next read asks the database)", async () => {
			const { withCopy, readsDuring } = world({ maxAge: 60 });
			const ada = await withCopy();
			const csrfToken = await ada.client.csrfToken();
			// the session update route (POST /session) is such a change
			const response = await ada.client.request('/auth/session', { json: { csrfToken, data: { theme: 'dark' } } });
			expect(response.status).toBe(200);
			expect(ada.client.jar.has('kitgate.session-cache')).toBe(false);
			expect(await readsDuring(() => ada.session())).toBe(1);
		});

		test("the user's dates come back as dates from a copy", async () => {
			const { raw, reads, signedIn } = world({ maxAge: 60 });
			const ada = await signedIn();
			await raw.updateUser!({ id: 'ada-1', emailVerified: new Date(Date.UTC(2030, 1, 2)) } as Partial<AdapterUser> & { id: string });
			const fromDatabase = await ada.session();
			reads.count = 0;
			const fromCopy = await ada.session();
			expect(reads.count).toBe(0);
			expect(fromCopy).toEqual(fromDatabase);
			expect(fromCopy?.verified).toBe('date');
		});

		test('a user too large for one cookie is not copied (read from the database each time)', async () => {
			const { raw, reads, signedIn } = world({ maxAge: 60 });
			const ada = await signedIn();
			await raw.updateUser!({ id: 'ada-1', name: 'A'.repeat(5000) });
			await ada.session();
			expect(ada.client.jar.has('kitgate.session-cache')).toBe(false);
			reads.count = 0;
			expect(await ada.session()).toMatchObject({ userId: 'ada-1' });
			expect(reads.count).toBe(1);
		});
	});

	describe('in a store', () => {
		test('reads within maxAge ask the store, not the database; a sign-out drops the copy at once', async () => {
			const store = MemorySessionCacheStore();
			const { reads, browser, signedIn } = world({ maxAge: 60, store });
			const ada = await signedIn();
			reads.count = 0;
			await ada.session();
			await ada.session();
			await ada.session();
			expect(reads.count).toBe(1);
			expect(ada.client.jar.has('kitgate.session-cache')).toBe(false);
			const token = ada.client.jar.get('kitgate.session-token')!;
			await ada.signOut();
			const thief = browser();
			thief.client.jar.set('kitgate.session-token', token);
			expect(await thief.session()).toBeNull();
		});

		test('revokeSessions drops every copy of that user at once', async () => {
			const store = MemorySessionCacheStore();
			const { reads, browser, config } = world({ maxAge: 3600, store });
			const { laptop, phone } = await twoDevicesWithCopies(browser);
			reads.count = 0;
			await revokeSessions('ada-1', config);
			expect(await laptop.session()).toBeNull();
			expect(await phone.session()).toBeNull();
			expect(reads.count).toBe(2);
		});

		test('a store that fails is logged and the database answers', async () => {
			const errors: unknown[] = [];
			const broken = failingSessionCacheStore('store down');
			const { reads, signedIn } = world({ maxAge: 60, store: broken }, { logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} } });
			const ada = await signedIn();
			reads.count = 0;
			expect(await ada.session()).toMatchObject({ userId: 'ada-1' });
			expect(await ada.session()).toMatchObject({ userId: 'ada-1' });
			expect(reads.count).toBe(2);
			expect(errors.length).toBeGreaterThan(0);
			const response = await ada.signOut();
			expect(response.status).toBe(302);
			expect(await ada.session()).toBeNull();
		});
	});
});

describe('session.cache at start-up', () => {
	const base = { secret: TEST_SECRET, trustHost: true, providers: [] };
	const adapter = { getSessionAndUser: async () => null } as unknown as Adapter;

	test('with JWT sessions it is refused, saying to remove it or use database sessions', () => {
		expect(() => resolveConfig({ ...base, session: { cache: { maxAge: 60 } } })).toThrow(InvalidConfiguration);
		expect(() => resolveConfig({ ...base, session: { cache: { maxAge: 60 } } })).toThrow(/session\.strategy "database"/);
		expect(() => resolveConfig({ ...base, adapter, session: { strategy: 'jwt', cache: { maxAge: 60 } } })).toThrow(/remove session\.cache/);
	});

	test('maxAge must be a whole number of seconds, at least 1', () => {
		for (const maxAge of [0, -5, 1.5, Number.NaN, '60', undefined]) {
			expect(() => resolveConfig({ ...base, adapter, session: { cache: { maxAge } as never } })).toThrow(/session\.cache\.maxAge/);
		}
		expect(() => resolveConfig({ ...base, adapter, session: { cache: { maxAge: 1 } } })).not.toThrow();
	});

	test('store must be "cookie" or a store with its four methods', () => {
		expect(() => resolveConfig({ ...base, adapter, session: { cache: { maxAge: 60, store: 'redis' as never } } })).toThrow(/session\.cache\.store/);
		expect(() => resolveConfig({ ...base, adapter, session: { cache: { maxAge: 60, store: { get() {} } as never } } })).toThrow(/forgetUser/);
		expect(() => resolveConfig({ ...base, adapter, session: { cache: { maxAge: 60, store: MemorySessionCacheStore() } } })).not.toThrow();
	});
});
