// Attack 9: the `user` form field (Sign in with Apple's one-time name/email post) must be read only
// by a provider that declares it. An attacker who adds it to another provider's form-post
// callback must not get it into the profile, the user or the session; Apple still reads the name,
// and never takes the email from it (only the signed ID token says who the user is).

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDemoIdp, DEMO_ACCOUNT } from '../../../../../../scripts/demo-idp.js';
import Apple from '../../../providers/apple.js';
import type { AuthConfig, OAuthConfig, Profile, User } from '../../types.js';
import { TEST_SECRET } from '../client.js';
import { loginAtIdpFormPost } from '../idp-browser.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { quietLogger } from '../oauth-fixtures.js';
import { attackWorld } from './flows.js';

const CLIENT = { client_id: 'kitgate-form-post', client_secret: 'form-post-secret-form-post-secret', token_endpoint_auth_method: 'client_secret_post' as const };
/** An IdP user whose ID token carries no email (Apple omits it when the user shares none). */
const NO_EMAIL_ACCOUNT = { id: 'no-email', name: 'No Email', preferred_username: 'no-email' };
const FORGED_USER = JSON.stringify({ name: { firstName: 'Evil' }, email: 'victim@example.com' });

const world = attackWorld();
let idp: Awaited<ReturnType<typeof startDemoIdp>>;
beforeAll(async () => {
	const redirect_uris = INTEGRATIONS.flatMap((integration) =>
		['idp', 'apple'].map((id) => `${world.apps[integration].origin}/auth/callback/${id}`)
	);
	// the IdP's account type asks for an email; this account has none on purpose
	const accounts = [DEMO_ACCOUNT, NO_EMAIL_ACCOUNT] as NonNullable<Parameters<typeof startDemoIdp>[0]['accounts']>;
	idp = await startDemoIdp({ clients: [{ ...CLIENT, redirect_uris }], accounts });
});
afterAll(async () => {
	await idp?.close();
});

/** What the app's callbacks were handed during one sign-in. */
interface Seen {
	profiles: Profile[];
	users: User[];
}

/** A config that records the profile and user, and copies the profile's `user` into the session. */
function recordingConfig(provider: OAuthConfig): { config: AuthConfig; seen: Seen } {
	const seen: Seen = { profiles: [], users: [] };
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		logger: quietLogger().logger,
		providers: [provider],
		callbacks: {
			signIn: ({ user, profile }) => {
				seen.users.push(user);
				if (profile) seen.profiles.push(profile);
				return true;
			},
			// an app that keeps what the provider said about the user
			jwt: ({ token, profile }) => (profile ? { ...token, profileUser: profile.user ?? null } : token),
			session: ({ session, token }) => ({ ...session, profileUser: token?.profileUser })
		}
	};
	return { config, seen };
}

/** Signs in through the IdP's form post, adding `extra` fields to the posted form as an attacker would. */
async function signInWithFormPost(app: AppServer, providerId: string, extra: Record<string, string>, login = 'demo') {
	const browser = new Browser();
	const csrfToken = await browser.csrfToken(app.origin);
	const started = await browser.request(`${app.origin}/auth/signin/${providerId}`, { form: { csrfToken, callbackUrl: '/' } });
	expect(started.status).toBe(302);
	const { action, fields } = await loginAtIdpFormPost(started.headers.get('location') as string, { login });
	expect(action).toBe(`${app.origin}/auth/callback/${providerId}`);
	const done = await browser.request(action, { form: { ...fields, ...extra } });
	return { browser, done };
}

describe.each(INTEGRATIONS)('%s', (integration) => {
	test('a generic OIDC provider with response_mode=form_post ignores a forged `user` form field', async () => {
		const app = world.apps[integration];
		const { config, seen } = recordingConfig({
			id: 'idp',
			name: 'Form-post IdP',
			type: 'oidc',
			issuer: idp.issuer,
			clientId: CLIENT.client_id,
			clientSecret: CLIENT.client_secret,
			client: { token_endpoint_auth_method: 'client_secret_post' },
			checks: ['pkce', 'state', 'nonce'],
			authorization: { params: { response_mode: 'form_post' } }
		});
		app.use(config);
		const { browser, done } = await signInWithFormPost(app, 'idp', { user: FORGED_USER });
		expect(done.status).toBe(302);
		expect(new URL(done.headers.get('location') as string).pathname).toBe('/');
		expect(seen.profiles).toHaveLength(1);
		expect(seen.profiles[0].user).toBeUndefined();
		expect(seen.profiles[0]).toMatchObject({ sub: 'demo', email: 'demo@kitgate.dev' });
		expect(seen.users[0]).toMatchObject({ name: 'Demo User', email: 'demo@kitgate.dev' });
		const session = await browser.session(app.origin);
		expect(session).toMatchObject({ user: { name: 'Demo User', email: 'demo@kitgate.dev' }, profileUser: null });
		expect(JSON.stringify(session)).not.toMatch(/Evil|victim@example\.com/);
	});

	test('Apple (form_post against a local issuer) still reads the name from its `user` form field', async () => {
		const app = world.apps[integration];
		// Apple's own scope names plus `openid`, which the local IdP needs to issue an ID token
		const apple = Apple({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret, issuer: idp.issuer, authorization: { params: { scope: 'openid name email' } } });
		const { config, seen } = recordingConfig(apple);
		app.use(config);
		const user = JSON.stringify({ name: { firstName: 'Ada', lastName: 'Lovelace' }, email: 'ada@example.com' });
		const { browser, done } = await signInWithFormPost(app, 'apple', { user });
		expect(done.status).toBe(302);
		expect(seen.profiles[0].user).toEqual({ name: { firstName: 'Ada', lastName: 'Lovelace' }, email: 'ada@example.com' });
		// the name comes from the form field; the email from the signed ID token
		const session = await browser.session(app.origin);
		expect(session?.user).toMatchObject({ name: 'Ada Lovelace', email: 'demo@kitgate.dev' });
	});

	test('Apple never takes the email from the unsigned `user` form field', async () => {
		const app = world.apps[integration];
		const apple = Apple({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret, issuer: idp.issuer, authorization: { params: { scope: 'openid name email' } } });
		const { config, seen } = recordingConfig(apple);
		app.use(config);
		const { browser, done } = await signInWithFormPost(app, 'apple', { user: FORGED_USER }, NO_EMAIL_ACCOUNT.id);
		expect(done.status).toBe(302);
		expect(seen.profiles[0].email).toBeUndefined();
		expect(seen.users[0]).toMatchObject({ id: NO_EMAIL_ACCOUNT.id, name: 'Evil', email: null });
		const session = await browser.session(app.origin);
		expect(session?.user?.email ?? null).toBeNull();
		expect(JSON.stringify(session?.user)).not.toContain('victim@example.com');
	});
});
