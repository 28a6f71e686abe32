// The app the engine scenario runs against on every runtime: kitgate's `Auth()` with every sign-in
// method a runtime allows (credentials, email links, passkeys, an OpenID provider), JWT sessions
// under /jwt and database sessions (memory adapter) under /db, the second factor and the account
// routes and organizations (an invitation by mail included). Web APIs only: the same module is bundled for workerd, edge-runtime, Bun, Deno and Node.
// Mails are kept in memory and read back through /<strategy>/__outbox (test-only route).

import { Auth, verifyPassword, type AuthConfig } from '../../../../index.js';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Credentials from '../../../providers/credentials.js';
import Email from '../../../providers/email.js';
import Passkey from '../../../providers/passkey.js';

/** What the runtime hands the app (Worker bindings, or the process environment). */
export interface RuntimeEnv {
	AUTH_SECRET: string;
	/** `hashPassword('correct horse battery staple')`, made by the test (hashing at start would be slow on Workers). */
	PASSWORD_HASH: string;
	/** The local OpenID provider, when the test runs one. */
	IDP_ISSUER?: string;
	IDP_CLIENT_ID?: string;
	IDP_CLIENT_SECRET?: string;
}

/** A mail the email provider sent: who to, what kind, the link it carries. */
export interface SentMail {
	to: string;
	kind: string;
	url: string;
}

const STRATEGIES = ['jwt', 'db'] as const;

/**
 * The request handler: routes /jwt/* and /db/* to their configs, /<strategy>/__outbox to the mails.
 *
 * @example
 * export default { fetch: (request, env) => runtimeApp(env)(request) };
 */
export function runtimeApp(env: RuntimeEnv): (request: Request) => Promise<Response> {
	const apps = new Map(STRATEGIES.map((strategy) => [strategy, appFor(strategy, env)]));
	return async (request) => {
		const path = new URL(request.url).pathname;
		const strategy = STRATEGIES.find((name) => path.startsWith(`/${name}/`));
		const app = strategy && apps.get(strategy);
		if (!app) return new Response('not found', { status: 404 });
		if (path === `/${strategy}/__outbox`) return Response.json(app.outbox);
		return Auth(request, app.config);
	};
}

function appFor(strategy: (typeof STRATEGIES)[number], env: RuntimeEnv): { config: AuthConfig; outbox: SentMail[] } {
	const outbox: SentMail[] = [];
	const send = (to: string, kind: string, url: string) => void outbox.push({ to, kind, url });
	const providers: AuthConfig['providers'] = [
		Credentials({
			credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
			authorize: async ({ username, password }) =>
				username === 'ada' && (await verifyPassword(String(password), env.PASSWORD_HASH)) ? { id: 'ada', name: 'Ada', email: 'ada@example.com' } : null
		}),
		Email({
			sendVerificationRequest: ({ identifier, url }) => send(identifier, 'sign-in', url),
			sendAccountEmail: ({ identifier, kind, url }) => send(identifier, kind, url)
		}),
		Passkey()
	];
	if (env.IDP_ISSUER) {
		providers.push({ id: 'idp', name: 'Local IdP', type: 'oidc', issuer: env.IDP_ISSUER, clientId: env.IDP_CLIENT_ID, clientSecret: env.IDP_CLIENT_SECRET });
	}
	const config: AuthConfig = {
		secret: env.AUTH_SECRET,
		trustHost: true,
		basePath: `/${strategy}/auth`,
		adapter: MemoryAdapter(),
		session: { strategy: strategy === 'jwt' ? 'jwt' : 'database' },
		experimental: { enableWebAuthn: true },
		organizations: {},
		providers,
		logger: { error: () => undefined, warn: () => undefined, debug: () => undefined }
	};
	return { config, outbox };
}
