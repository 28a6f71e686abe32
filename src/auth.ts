// The demo app's kitgate configuration: embedded defaults so sign-in works on a fresh machine
// with no accounts anywhere. Real apps read their secret from AUTH_SECRET.

import { SvelteKitAuth, type SvelteKitAuthConfig } from '$lib/server/sveltekit/index.js';
import Credentials from '$lib/server/providers/credentials.js';
import Passkey from '$lib/server/providers/passkey.js';
import Email from '$lib/server/providers/email.js';
import { SQLiteAdapter } from '$lib/server/adapters/sqlite.js';
import { isAdmin, type Session } from '$lib/index.js';
import { base } from '$app/paths';
import { demoUser } from './demo-users.js';

// demo only: a fixed secret so `npm start` needs no set-up; never do this in a real app
const DEMO_SECRET = 'kitgate-demo-secret-do-not-use-in-production-0123456789';

/** Users, accounts and database sessions in an embedded SQLite file (created on first use). */
export const adapter = SQLiteAdapter({ filename: process.env.KITGATE_DB_FILE ?? '.data/demo.sqlite' });

/** Database sessions by default; KITGATE_SESSION_STRATEGY=jwt runs the same demo on JWT sessions (the end-to-end tests run both). */
const strategy = process.env.KITGATE_SESSION_STRATEGY === 'jwt' ? 'jwt' : 'database';

/** How recent a sign-in sensitive account changes need, in seconds (default 600); the end-to-end tests shorten it. */
const freshSignInMaxAge = Number(process.env.KITGATE_FRESH_SIGN_IN_MAX_AGE ?? 600);

/** KITGATE_TWO_FACTOR_REQUIRED=yes makes every user set up a second factor; KITGATE_TRUST_BROWSER_DAYS=N offers "Trust this browser" (both off by default). */
const twoFactor = { required: process.env.KITGATE_TWO_FACTOR_REQUIRED === 'yes', trustBrowserDays: Number(process.env.KITGATE_TRUST_BROWSER_DAYS ?? 0) };

/** The demo's configuration. */
export const authConfig: SvelteKitAuthConfig = {
	secret: process.env.AUTH_SECRET ?? DEMO_SECRET,
	trustHost: true,
	adapter,
	session: { strategy },
	account: { freshSignIn: { maxAge: freshSignInMaxAge } },
	twoFactor,
	// the admin pages (/auth/admin, and the demo's own /admin): users whose stored role is "admin" (the demo's "admin" account)
	admin: { admins: 'role' },
	// organizations (the demo's /organizations pages): owner, admin and member built in, plus a custom
	// "billing" role that may read and pay invoices (an app checks it with can(session, 'invoice', 'pay', authConfig))
	organizations: { roles: { billing: { invoice: ['read', 'pay'] } } },
	basePath: `${base}/auth`,
	providers: [
		{
			// the local OpenID Provider that `npm start` runs (scripts/demo-idp.js)
			id: 'demo-idp',
			name: 'Demo IdP',
			type: 'oidc',
			issuer: process.env.DEMO_IDP_ISSUER ?? 'http://127.0.0.1:9090',
			clientId: 'kitgate-demo',
			clientSecret: 'kitgate-demo-secret',
			// the demo IdP and the demo account share an email: link them (only for IdPs that verify emails)
			allowDangerousEmailAccountLinking: true,
			style: { brandColor: '#0f766e' }
		},
		Credentials({
			name: 'Demo account',
			credentials: {
				username: { label: 'Username', autocomplete: 'username' },
				password: { label: 'Password', type: 'password', autocomplete: 'current-password' }
			},
			authorize: ({ username, password }) => demoUser(adapter, username, password)
		}),
		Email({
			// the local mail sink that `npm start` runs (scripts/demo-smtp.js); read the mail at /dev/mailbox
			server: { host: '127.0.0.1', port: Number(process.env.DEMO_SMTP_PORT ?? 2525), secure: false, ignoreTLS: true },
			from: 'kitgate demo <no-reply@kitgate.dev>'
		}),
		// passkeys: added on /account once signed in, then a way to sign in (experimental)
		Passkey({ relyingParty: { name: 'kitgate demo' } })
	],
	experimental: { enableWebAuthn: true },
	theme: { brandColor: '#4f46e5' }
};

export const { handle, signIn, signOut } = SvelteKitAuth(authConfig);

/**
 * Whether the session's user is an admin now (the nav shows the Admin link): the demo's sessions
 * carry no user id (no `session` callback adds it), so the user is found by email. An impersonated
 * session is never an admin's.
 */
export async function sessionIsAdmin(session: Session | null): Promise<boolean> {
	if (!session?.user?.email || session.impersonation) return false;
	const user = await adapter.getUserByEmail(session.user.email);
	return user ? isAdmin(user.id, authConfig) : false;
}
