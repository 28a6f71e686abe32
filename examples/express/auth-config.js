// kitgate configuration of the Express demo: the same demo user as the SvelteKit demo.

import Credentials from 'kitgate/providers/credentials';

/** Credentials of the demo user. */
export const DEMO_CREDENTIALS = { username: 'demo', password: 'demo-password' };

// demo only: a fixed secret so the demo needs no set-up; real apps set AUTH_SECRET
const DEMO_SECRET = 'kitgate-demo-secret-do-not-use-in-production-0123456789';

/** @type {import('kitgate').AuthConfig} */
export const authConfig = {
	secret: process.env.AUTH_SECRET ?? DEMO_SECRET,
	trustHost: true,
	providers: [
		{
			// the local OpenID Provider of the demos (scripts/demo-idp.js)
			id: 'demo-idp',
			name: 'Demo IdP',
			type: 'oidc',
			issuer: process.env.DEMO_IDP_ISSUER ?? 'http://127.0.0.1:9090',
			clientId: 'kitgate-demo',
			clientSecret: 'kitgate-demo-secret',
			style: { brandColor: '#0f766e' }
		},
		Credentials({
			name: 'Demo account',
			credentials: {
				username: { label: 'Username', autocomplete: 'username' },
				password: { label: 'Password', type: 'password', autocomplete: 'current-password' }
			},
			authorize: ({ username, password }) =>
				username === DEMO_CREDENTIALS.username && password === DEMO_CREDENTIALS.password
					? { id: 'demo-user', name: 'Demo User', email: 'demo@kitgate.dev' }
					: null
		})
	],
	theme: { brandColor: '#4f46e5' }
};
