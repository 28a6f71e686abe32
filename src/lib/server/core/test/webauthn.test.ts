// Passkeys through `Auth()` with a software authenticator making real P-256 signatures: the
// options route, registration (new user, signed-in user), authentication, on memory and SQLite.

import { describe, expect, test } from 'vitest';
import { memoryAndSqliteAdapters } from './stored-adapters.js';
import { ADA, ORIGIN, optionsUserId, passkeyWorld } from './webauthn-fixture.js';

const adapters = memoryAndSqliteAdapters('webauthn');

describe('GET webauthn-options/:provider', () => {
	test('authenticate: options for any discoverable passkey, challenge in an encrypted httpOnly cookie for 5 minutes', async () => {
		const world = passkeyWorld();
		const { status, body, response } = await world.options({ action: 'authenticate' });
		expect(status).toBe(200);
		expect(body.action).toBe('authenticate');
		expect(body.options).toMatchObject({ rpId: 'localhost', userVerification: 'preferred', timeout: 60000 });
		expect(body.options.allowCredentials ?? []).toEqual([]);
		const cookie = response.headers.getSetCookie().find((c) => c.startsWith('kitgate.challenge='))!;
		expect(cookie).toMatch(/HttpOnly/i);
		expect(cookie).toMatch(/Max-Age=300/);
		expect(cookie).not.toContain(body.options.challenge);
		expect(response.headers.get('cache-control')).toBe('no-store');
	});

	test('a sign-up (register with an email) gets options for a new user with a required resident key', async () => {
		const world = passkeyWorld();
		const { status, body } = await world.options({ action: 'register', email: '  New.User@Example.com ' });
		expect(status).toBe(200);
		expect(body.action).toBe('register');
		expect(body.options.rp).toEqual({ id: 'localhost', name: 'localhost' });
		expect(body.options.user.name).toBe('new.user@example.com');
		expect(body.options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'preferred' });
		expect(body.options.attestation).toBe('none');
	});

	test('signed out, no action means authenticate; signed in, it means register (never decided by the email)', async () => {
		const world = passkeyWorld();
		const query = `/auth/webauthn-options/passkey?${new URLSearchParams({ email: 'grace@example.com' })}`;
		expect(((await (await world.client.request(query)).json()) as { action: string }).action).toBe('authenticate');
		await world.signInWithPassword('ada');
		expect(((await (await world.client.request(query)).json()) as { action: string }).action).toBe('register');
	});

	test('relying party options and X-Forwarded-Host (trustHost) shape the options', async () => {
		const fixed = passkeyWorld({ passkey: { relyingParty: { id: 'example.com', name: 'Example', origin: 'https://example.com' } } });
		const { body } = await fixed.options({ email: 'x@example.com' });
		expect(body.options.rp).toEqual({ id: 'example.com', name: 'Example' });
		const proxied = passkeyWorld();
		const behindProxy = await proxied.options({ action: 'authenticate' }, { 'x-forwarded-host': 'app.example.org', 'x-forwarded-proto': 'https' });
		expect(behindProxy.body.options.rpId).toBe('app.example.org');
	});

	test('provider options reach the browser: user verification, selection, timeout', async () => {
		const world = passkeyWorld({
			passkey: { userVerification: 'required', timeout: 30_000, authenticatorSelection: { authenticatorAttachment: 'platform' } }
		});
		const { body } = await world.options({ action: 'register', email: 'z@example.com' });
		expect(body.options.timeout).toBe(30_000);
		expect(body.options.authenticatorSelection).toMatchObject({
			authenticatorAttachment: 'platform',
			residentKey: 'required',
			userVerification: 'required'
		});
	});

	test('bad requests are 4xx JSON: unknown action, bad email, registration with nobody, non-passkey provider', async () => {
		const world = passkeyWorld();
		expect((await world.options({ action: 'delete' })).body).toEqual({ error: 'InvalidRequest' });
		expect((await world.options({ email: 'not-an-email' })).status).toBe(400);
		const nobody = await world.options({ action: 'register' });
		expect(nobody).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } });
		const response = await world.client.request('/auth/webauthn-options/credentials');
		// as for an unknown provider: no passkey provider by that id
		expect(response.status).toBe(404);
		expect(await response.json()).toEqual({ error: 'InvalidProvider' });
		expect(world.challengeCookie()).toBeUndefined();
	});

	test('a custom getUserInfo naming an existing user: only that user, signed in, may add a passkey (403 otherwise)', async () => {
		const world = passkeyWorld({
			passkey: { getUserInfo: async ({ email, signedInUser, adapter }) => {
				const existing = email ? await adapter.getUserByEmail(email) : null;
				return existing ? { user: existing, exists: true } : signedInUser ? { user: signedInUser, exists: true } : null;
			} }
		});
		await world.signInWithPassword('ada');
		const anonymous = world.browser();
		const { status, body } = await anonymous.options({ action: 'register', email: ADA.email });
		expect(status).toBe(403);
		expect(body).toEqual({ error: 'AccessDenied' });
		expect(anonymous.challengeCookie()).toBeUndefined();
	});

	test('a getUserInfo hook decides whom a registration is for', async () => {
		const world = passkeyWorld({
			passkey: { getUserInfo: ({ email }) => (email ? { user: { email, name: 'Hooked' }, exists: false } : null) }
		});
		const { body } = await world.options({ email: 'h@example.com' });
		expect(body.options.user).toMatchObject({ name: 'h@example.com', displayName: 'Hooked' });
		const created = await world.callback({ action: 'register', data: world.device.register(body.options) });
		expect(created.status).toBe(200);
		expect(await world.adapter.getUser(optionsUserId(body.options))).toMatchObject({ name: 'Hooked', email: '' });
	});
});

describe.each(adapters)('passkey ceremonies (%s)', (_name, makeAdapter) => {
	test('register a new user by email, sign out, sign in with the passkey: same user, counter stored', async () => {
		const events: string[] = [];
		const world = passkeyWorld({
			adapter: makeAdapter(),
			config: {
				events: {
					createUser: () => void events.push('createUser'),
					linkAccount: () => void events.push('linkAccount'),
					signIn: ({ isNewUser }) => void events.push(`signIn:${isNewUser}`)
				}
			}
		});
		const registration = await world.options({ email: 'lin@example.com' });
		const attestation = world.device.register(registration.body.options);
		const created = await world.callback({ action: 'register', data: attestation, callbackUrl: '/welcome' });
		expect(created).toMatchObject({ status: 200, body: { url: `${ORIGIN}/welcome` } });
		expect(created.response.headers.getSetCookie().some((c) => /^kitgate\.challenge=;.*Max-Age=0/i.test(c))).toBe(true);
		expect(world.challengeCookie()).toBeUndefined();
		// a passkey proves no address: the new user is labelled with it, not keyed on it
		expect((await world.session())?.user).toMatchObject({ name: 'lin@example.com', email: '' });
		expect(await world.adapter.getUserByEmail('lin@example.com')).toBeNull();
		expect(events).toEqual(['createUser', 'linkAccount', 'signIn:true']);

		const user = (await world.adapter.getUser(optionsUserId(registration.body.options)))!;
		const stored = await world.adapter.getAuthenticator(attestation.id);
		expect(stored).toMatchObject({
			credentialID: attestation.id,
			userId: user.id,
			providerAccountId: attestation.id,
			counter: 0,
			credentialDeviceType: 'multiDevice',
			credentialBackedUp: true,
			transports: 'internal,hybrid'
		});
		expect(stored?.credentialPublicKey).toMatch(/^[A-Za-z0-9_-]+$/);
		expect(await world.adapter.getUserByAccount({ provider: 'passkey', providerAccountId: attestation.id })).toMatchObject({ id: user.id });
		// the user handle the authenticator keeps is the user's id
		expect(Buffer.from(world.device.credentials[0].userHandle, 'base64url').toString()).toBe(user.id);

		const later = world.browser();
		const login = await later.options({ action: 'authenticate' });
		const assertion = world.device.authenticate(login.body.options);
		const signedIn = await later.callback({ action: 'authenticate', data: assertion });
		expect(signedIn).toMatchObject({ status: 200, body: { url: `${ORIGIN}/` } });
		expect((await later.session())?.user?.name).toBe('lin@example.com');
		expect((await world.adapter.getAuthenticator(attestation.id))?.counter).toBe(1);
	});

	test('a signed-in user adds a second passkey: linked to the same user, the first one excluded', async () => {
		const world = passkeyWorld({ adapter: makeAdapter() });
		await world.signInWithPassword('ada');
		const first = await world.options({ action: 'register' });
		expect(first.body.options.user.name).toBe(ADA.email);
		const one = world.device.register(first.body.options);
		expect((await world.callback({ action: 'register', data: one })).status).toBe(200);
		expect((await world.session())?.user?.email).toBe(ADA.email);

		const second = await world.options({});
		expect(second.body.action).toBe('register'); // signed in: no action means adding a passkey
		const again = await world.options({ action: 'register' });
		expect(again.body.options.excludeCredentials?.map((c) => c.id)).toEqual([one.id]);
		const two = world.device.register(again.body.options);
		expect((await world.callback({ action: 'register', data: two })).status).toBe(200);
		expect((await world.adapter.listAuthenticatorsByUserId(ADA.id)).map((a) => a.credentialID).sort()).toEqual([one.id, two.id].sort());

		const later = world.browser();
		const login = await later.options({ action: 'authenticate', email: ADA.email });
		// never the user's credential ids: they would tell who has an account
		expect(login.body.options.allowCredentials ?? []).toEqual([]);
		const signedIn = await later.callback({ data: world.device.authenticate(login.body.options, { credentialId: two.id }) });
		expect(signedIn.status).toBe(200);
		expect((await later.session())?.user?.name).toBe(ADA.name);
	});
});

describe('built-in sign-in page', () => {
	test('shows the passkey button wired to the routes, under a CSP that allows only its script', async () => {
		const world = passkeyWorld();
		const response = await world.client.request('/auth/signin');
		expect(response.status).toBe(200);
		expect(response.headers.get('content-security-policy')).toMatch(/^script-src 'sha256-[A-Za-z0-9+/]+=*'; object-src 'none'/);
		expect(response.headers.get('x-frame-options')).toBe('DENY');
		const html = await response.text();
		expect(html).toContain(`action="${ORIGIN}/auth/callback/passkey"`);
		expect(html).toContain(`data-options-url="${ORIGIN}/auth/webauthn-options/passkey"`);
		expect(html.match(/<script/g)).toHaveLength(1);
	});
});
