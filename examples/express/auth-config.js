// kitgate configuration of the Express demo: the same demo accounts as the SvelteKit demo (the demo
// user, an admin, two more people), email sign-in through the local mail sink with users in SQLite,
// and kitgate's built-in admin pages at /auth/admin (KITGATE_DEMO_EMAIL=off leaves out all but the
// demo user).

import Credentials from 'kitgate/providers/credentials';
import Passkey from 'kitgate/providers/passkey';
import { isAdmin } from 'kitgate';

/** Credentials of the demo user. */
export const DEMO_CREDENTIALS = { username: 'demo', password: 'demo-password' };

// demo only: a fixed secret so the demo needs no set-up; real apps set AUTH_SECRET
const DEMO_SECRET = 'kitgate-demo-secret-do-not-use-in-production-0123456789';

/** Email sign-in needs nodemailer and an adapter (better-sqlite3, kysely), all optional peers: off with KITGATE_DEMO_EMAIL=off. */
export const EMAIL_ENABLED = process.env.KITGATE_DEMO_EMAIL !== 'off';

/** Where the demo mail sink (scripts/demo-smtp.js) lists what it received. */
export const MAILBOX_URL = process.env.DEMO_MAILBOX_URL ?? 'http://127.0.0.1:2526/messages';

/** The email provider and the SQLite adapter it stores users and one-time tokens in; loaded only when enabled. */
async function emailSignIn() {
	const [{ default: Email }, { SQLiteAdapter }] = await Promise.all([
		import('kitgate/providers/email'),
		import('kitgate/adapters/sqlite')
	]);
	return {
		providers: [
			Email({
				server: { host: '127.0.0.1', port: Number(process.env.DEMO_SMTP_PORT ?? 2525), secure: false, ignoreTLS: true },
				from: 'kitgate demo <no-reply@kitgate.dev>'
			})
		],
		// JWT sessions by default (the adapter keeps users, accounts and email tokens);
		// KITGATE_SESSION_STRATEGY=database keeps the sessions in it too (the end-to-end tests run both)
		options: {
			adapter: SQLiteAdapter({ filename: process.env.KITGATE_EXPRESS_DB_FILE ?? '.data/express-demo.sqlite' }),
			session: { strategy: process.env.KITGATE_SESSION_STRATEGY === 'database' ? 'database' : 'jwt' },
			// how recent a sign-in sensitive account changes need (default 600 s); the end-to-end tests shorten it
			account: { freshSignIn: { maxAge: Number(process.env.KITGATE_FRESH_SIGN_IN_MAX_AGE ?? 600) } },
			// KITGATE_TWO_FACTOR_REQUIRED=yes: every user sets up a second factor; KITGATE_TRUST_BROWSER_DAYS=N offers "Trust this browser"
			twoFactor: { required: process.env.KITGATE_TWO_FACTOR_REQUIRED === 'yes', trustBrowserDays: Number(process.env.KITGATE_TRUST_BROWSER_DAYS ?? 0) },
			// the built-in admin pages at /auth/admin, for users whose stored role is "admin" (the demo's "admin" account)
			admin: { admins: 'role' },
			// organizations with kitgate's built-in pages at /auth/organizations (they need the adapter);
			// a custom "billing" role beside owner, admin and member
			organizations: { roles: { billing: { invoice: ['read', 'pay'] } } }
		}
	};
}

const email = EMAIL_ENABLED ? await emailSignIn() : { providers: [], options: {} };

/** @type {import('kitgate').AuthConfig} */
export const authConfig = {
	secret: process.env.AUTH_SECRET ?? DEMO_SECRET,
	trustHost: true,
	...email.options,
	providers: [
		{
			// the local OpenID Provider of the demos (scripts/demo-idp.js)
			id: 'demo-idp',
			name: 'Demo IdP',
			type: 'oidc',
			issuer: process.env.DEMO_IDP_ISSUER ?? 'http://127.0.0.1:9090',
			clientId: 'kitgate-demo',
			clientSecret: 'kitgate-demo-secret',
			// with the adapter, the IdP user and an email sign-in of the same address are one person (only for IdPs that verify emails)
			allowDangerousEmailAccountLinking: EMAIL_ENABLED,
			style: { brandColor: '#0f766e' }
		},
		Credentials({
			name: 'Demo account',
			credentials: {
				username: { label: 'Username', autocomplete: 'username' },
				password: { label: 'Password', type: 'password', autocomplete: 'current-password' }
			},
			authorize: ({ username, password }) => demoUser(email.options.adapter, username, password)
		}),
		...email.providers,
		// passkeys are stored through the adapter, so they come and go with it (experimental)
		...(email.options.adapter ? [Passkey({ relyingParty: { name: 'kitgate Express demo' } })] : [])
	],
	experimental: { enableWebAuthn: Boolean(email.options.adapter) },
	theme: { brandColor: '#4f46e5' }
};

/** Every demo account (all with the demo password): username, profile, stored role. Without an adapter only "demo" signs in. */
const DEMO_USERS = [
	{ username: 'demo', name: 'Demo User', email: 'demo@kitgate.dev', role: null },
	{ username: 'admin', name: 'Demo Admin', email: 'admin@example.com', role: 'admin' },
	{ username: 'ada', name: 'Ada Lovelace', email: 'ada@example.com', role: null },
	{ username: 'grace', name: 'Grace Hopper', email: 'grace@example.com', role: null }
];

/** The stored user of one demo account, created (with its role) when missing. */
async function storedDemoUser(adapter, { name, email, role }) {
	const user = (await adapter.getUserByEmail(email)) ?? (await adapter.createUser({ id: crypto.randomUUID(), name, email, emailVerified: null }));
	// the stored role is what makes the admin one; put back at each sign-in so the demo always has an admin
	if (role && (await adapter.getUserAdmin(user.id))?.role !== role) await adapter.setUserAdmin({ userId: user.id, role });
	return user;
}

let seeded;

/** Stores every demo account once per process (the admin pages list them before they ever sign in). */
function seedDemoUsers(adapter) {
	seeded ??= Promise.all(DEMO_USERS.map((account) => storedDemoUser(adapter, account))).catch((error) => {
		seeded = undefined;
		throw error;
	});
	return seeded;
}

/** The demo account whose credentials match, else null; with an adapter it is stored (found by email), so passkeys and email links reach the same person. */
async function demoUser(adapter, username, password) {
	const account = DEMO_USERS.find((candidate) => candidate.username === username);
	if (!account || password !== DEMO_CREDENTIALS.password) return null;
	if (!adapter) return account.username === 'demo' ? { id: 'demo-user', name: account.name, email: account.email } : null;
	await seedDemoUsers(adapter);
	return storedDemoUser(adapter, account);
}

/**
 * Whether the session's user is an admin now (the nav shows the Admin link): the demo's sessions
 * carry no user id (no `session` callback adds it), so the user is found by email. An impersonated
 * session is never an admin's.
 *
 * @param {import('kitgate').Session | null} session
 */
export async function sessionIsAdmin(session) {
	const adapter = email.options.adapter;
	if (!authConfig.admin || !adapter || !session?.user?.email || session.impersonation) return false;
	const user = await adapter.getUserByEmail(session.user.email);
	return user ? isAdmin(user.id, authConfig) : false;
}
