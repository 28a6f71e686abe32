// What the `jwt` and `session` callbacks and the `session` event receive, at run time and in their
// types (checked by svelte-check / tsc): `user` only at sign-in, `token` or `user` by strategy,
// never a value typed as present that is undefined; the sign-in token's `picture`. Also: a
// plain-object provider typed with its own profile record is a `Provider`.

import { describe, expect, expectTypeOf, test } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import Credentials from '../providers/credentials.js';
import { TEST_SECRET, testClient } from './test/client.js';
import type {
	AdapterUser,
	AuthConfig,
	CallbacksOptions,
	EventCallbacks,
	JWT,
	JWTCallbackParams,
	OAuthConfig,
	Profile,
	Provider,
	SessionCallbackParams,
	User
} from './types.js';

function config(overrides: Partial<AuthConfig>): AuthConfig {
	return {
		secret: TEST_SECRET,
		trustHost: true,
		providers: [
			Credentials({
				credentials: { username: { label: 'Username' } },
				authorize: ({ username }) => (username === 'ada' ? { id: 'user-ada', name: 'Ada', email: 'ada@example.com' } : null)
			})
		],
		...overrides
	};
}

async function signIn(client: ReturnType<typeof testClient>) {
	const csrfToken = await client.csrfToken();
	return client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada', callbackUrl: '/' } });
}

async function update(client: ReturnType<typeof testClient>, data: unknown) {
	const csrfToken = await client.csrfToken();
	return client.request('/auth/session', { json: { csrfToken, data } });
}

describe('jwt callback', () => {
	test('gets user, account and trigger at sign-in; the token alone on a read; session data on update', async () => {
		const calls: JWTCallbackParams[] = [];
		const client = testClient(config({ callbacks: { jwt: (params) => (calls.push(params), params.token) } }));
		await signIn(client);
		await client.request('/auth/session');
		await update(client, { theme: 'dark' });

		expect(calls.map((c) => c.trigger)).toEqual(['signIn', undefined, 'update']);
		const [atSignIn, onRead, onUpdate] = calls;
		expect(atSignIn.user).toMatchObject({ id: 'user-ada', name: 'Ada' });
		expect(atSignIn.account).toMatchObject({ provider: 'credentials' });
		for (const later of [onRead, onUpdate]) {
			expect(later.user).toBeUndefined();
			expect(later.account).toBeNull();
			expect(later.profile).toBeUndefined();
			expect(later.token).toMatchObject({ sub: 'user-ada', name: 'Ada' });
		}
		expect(onRead.session).toBeUndefined();
		expect(onUpdate.session).toEqual({ theme: 'dark' });
	});

	test('the sign-in token is { name, email, picture, sub } as Auth.js writes it (picture, not image); the session shows user.image', async () => {
		// docs/decisions.md (issue 31): `picture` is the registered claim, and what Auth.js apps' callbacks read
		const tokens: JWT[] = [];
		const image = 'https://img.example.com/ada.png';
		const client = testClient(config({
			providers: [Credentials({ authorize: () => ({ id: 'user-ada', name: 'Ada', email: 'ada@example.com', image }) })],
			callbacks: { jwt: ({ token, trigger }) => (trigger === 'signIn' && tokens.push({ ...token }), token) }
		}));
		await signIn(client);
		expect(tokens).toEqual([{ name: 'Ada', email: 'ada@example.com', picture: image, sub: 'user-ada' }]);
		const session = (await (await client.request('/auth/session')).json()) as { user: Record<string, unknown> };
		expect(session.user).toEqual({ name: 'Ada', email: 'ada@example.com', image });
	});

	test('types: `user` is possibly undefined, and present once `trigger` says sign-in', () => {
		expectTypeOf<JWTCallbackParams['user']>().toEqualTypeOf<User | AdapterUser | undefined>();
		expectTypeOf<JWTCallbackParams['token']>().toEqualTypeOf<JWT>();
		const jwt: CallbacksOptions['jwt'] = ({ token, user, trigger }) => {
			if (trigger === 'signIn' || trigger === 'signUp') expectTypeOf(user).toEqualTypeOf<User | AdapterUser>();
			// the Auth.js idiom
			return user ? { ...token, id: user.id } : token;
		};
		expect(jwt).toBeTypeOf('function');
	});
});

describe('session callback and event', () => {
	test('JWT sessions: the token, no user', async () => {
		const calls: SessionCallbackParams[] = [];
		const events: Parameters<EventCallbacks['session']>[0][] = [];
		const client = testClient(config({
			callbacks: { session: (params) => (calls.push(params), params.session) },
			events: { session: (message) => void events.push(message) }
		}));
		await signIn(client);
		await client.request('/auth/session');
		expect(calls).toHaveLength(1);
		expect(calls[0].token).toMatchObject({ sub: 'user-ada' });
		expect(calls[0].user).toBeUndefined();
		expect(events[0].token).toMatchObject({ sub: 'user-ada' });
		expect(events[0].user).toBeUndefined();
	});

	test('database sessions: the user, no token; trigger and newSession on update', async () => {
		const calls: SessionCallbackParams[] = [];
		const events: Parameters<EventCallbacks['session']>[0][] = [];
		const client = testClient(config({
			adapter: MemoryAdapter(),
			callbacks: { session: (params) => (calls.push(params), params.session) },
			events: { session: (message) => void events.push(message) }
		}));
		await signIn(client);
		await client.request('/auth/session');
		await update(client, { theme: 'dark' });
		expect(calls).toHaveLength(2);
		for (const call of calls) {
			expect(call.user).toMatchObject({ id: expect.any(String), email: 'ada@example.com' });
			expect(call.token).toBeUndefined();
		}
		expect(calls[1]).toMatchObject({ trigger: 'update', newSession: { theme: 'dark' } });
		expect(events[0].user).toMatchObject({ email: 'ada@example.com' });
		expect(events[0].token).toBeUndefined();
	});

	test('types: `token` or `user`, and checking one gives the other', () => {
		expectTypeOf<SessionCallbackParams['token']>().toEqualTypeOf<JWT | undefined>();
		expectTypeOf<SessionCallbackParams['user']>().toEqualTypeOf<AdapterUser | undefined>();
		const session: CallbacksOptions['session'] = ({ session, token, user }) => {
			const id: string | undefined = token ? token.sub : user.id;
			return { ...session, id };
		};
		expect(session).toBeTypeOf('function');
	});
});

describe('Provider type', () => {
	test('a plain-object provider typed with its own profile record is accepted; a profile that contradicts Profile is not', () => {
		interface AcmeProfile extends Profile {
			login: string;
			avatar: string;
		}
		const acme: OAuthConfig<AcmeProfile> = {
			id: 'acme',
			name: 'Acme',
			type: 'oauth',
			authorization: 'https://acme.example/authorize',
			token: 'https://acme.example/token',
			userinfo: 'https://acme.example/me',
			profile: (p) => ({ id: String(p.id), name: p.login, image: p.avatar })
		};
		expectTypeOf(acme).toExtend<Provider>();
		const accepted: AuthConfig = { providers: [acme] };

		// `id` of a profile is a string (or null): a profile record with a numeric id is not one
		// @ts-expect-error the profile's parameter type contradicts Profile
		const refused: AuthConfig = { providers: [{ id: 'x', name: 'X', type: 'oauth', profile: (p: { id: number }) => ({ id: String(p.id) }) }] };
		// the profile callback must still return a User (`id` a string, not null)
		// @ts-expect-error a profile callback returning a non-User is refused
		const badUser: AuthConfig = { providers: [{ id: 'x', name: 'X', type: 'oauth', profile: (p) => ({ id: p.sub }) }] };
		expect([accepted, refused, badUser]).toHaveLength(3);
	});
});
