// kitgate configuration of the Express demo: the same demo user as the SvelteKit demo, and email
// sign-in through the local mail sink with users in SQLite (KITGATE_DEMO_EMAIL=off leaves both out).

import Credentials from 'kitgate/providers/credentials';
import Passkey from 'kitgate/providers/passkey';

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
			twoFactor: { required: process.env.KITGATE_TWO_FACTOR_REQUIRED === 'yes', trustBrowserDays: Number(process.env.KITGATE_TRUST_BROWSER_DAYS ?? 0) }
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
			authorize: ({ username, password }) =>
				username === DEMO_CREDENTIALS.username && password === DEMO_CREDENTIALS.password ? demoUser(email.options.adapter) : null
		}),
		...email.providers,
		// passkeys are stored through the adapter, so they come and go with it (experimental)
		...(email.options.adapter ? [Passkey({ relyingParty: { name: 'kitgate Express demo' } })] : [])
	],
	experimental: { enableWebAuthn: Boolean(email.options.adapter) },
	theme: { brandColor: '#4f46e5' }
};

/** The demo user; with an adapter it is stored (found by email), so passkeys and email links reach the same person. */
async function demoUser(adapter) {
	const user = { name: 'Demo User', email: 'demo@kitgate.dev' };
	if (!adapter) return { id: 'demo-user', ...user };
	return (await adapter.getUserByEmail(user.email)) ?? adapter.createUser({ id: crypto.randomUUID(), ...user, emailVerified: null });
}
