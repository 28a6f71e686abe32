import { sveltekit } from '@sveltejs/kit/vite';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { compilePages } from './scripts/compile-pages.js';
import { unitOwnModules } from './scripts/unit-own-modules.js';
import { writeSqlFiles } from './scripts/write-sql-files.js';

// The built-in pages are compiled to plain JS so the engine runs without Vite (Express, plain Node).
compilePages();
// The SQL adapters' migrations as .sql files, for the package (their source is the migration lists).
writeSqlFiles();

// Split rule: a test file that (itself or through a test helper) uses PostgreSQL, SMTP, an identity provider, the SvelteKit test app, a child process or a socket is `integration`; the rest (pure modules, renders, Auth() on memory or SQLite files) is `unit`.
const integration = [
	'src/lib/components/slot-types.test.ts',
	'src/lib/server/adapters/{authjs-postgres,delete-authenticator,lazy-config,postgres,rate-limit-store,redis,session-cache-store,update-account}.test.ts',
	'src/lib/server/adapters/sql/migrations.test.ts',
	// a local Cloudflare D1 (Miniflare starts workerd)
	'src/lib/server/adapters/{d1,d1-wrangler,workerd}.test.ts',
	'src/lib/server/core/flows/oauth/client-auth.test.ts',
	'src/lib/server/core/test/{authjs-sessions,client-auth,email,email-negative,faults,fuzz,fuzz-integrations,mix-up}.test.ts',
	'src/lib/server/core/test/{oauth,oauth1,oauth-concurrency,oauth-linking,oauth-negative,oauth-refresh,rate-limit}.test.ts',
	'src/lib/server/core/test/pwned-passwords-range.test.ts',
	'src/lib/server/core/test/banned-user-passkeys-and-sessions.test.ts',
	'src/lib/server/core/test/nameless-oidc-users.test.ts',
	// against a crafted OpenID provider on 127.0.0.1 (hostile-openid-provider.ts)
	'src/lib/server/core/test/{authorization-response-binding,id-token-integrity,issuer-impersonation,provider-subject,upstream-tokens-stay-on-server}.test.ts',
	'src/lib/server/core/test/attacks/{address-rotation,apple-user-field,authjs-cookie-takeover,broken-config,credentials-enumeration}.test.ts',
	'src/lib/server/core/test/attacks/{credentials-lockout,email-link-takeover,express-body-limit,harness-smoke}.test.ts',
	'src/lib/server/core/test/attacks/{host-header-links,jwt-outlives-user,oauth-login-csrf,passkey-accounts}.test.ts',
	'src/lib/server/core/test/attacks/{rate-limit-flood,hostile-cookies,csrf-and-open-redirects,pre-account-takeover}.test.ts',
	'src/lib/server/core/test/attacks/{email-and-oidc-first-sign-in-race,redirect-proxy-confused-deputy,sveltekit-actions-beside-a-session-hook}.test.ts',
	'src/lib/server/core/test/attacks/two-factor-integrations.test.ts',
	'src/lib/server/core/test/attacks/{banned-users,impersonation-integrations,ban-during-sign-in,impersonation-escalation,banned-user-copies}.test.ts',
	'src/lib/server/core/test/attacks/{unknown-provider,unverified-identities}.test.ts',
	'src/lib/server/core/test/attacks/{sveltekit-action-csrf,sveltekit-sign-in-action-fields,sveltekit-action-outcomes}.test.ts',
	'src/lib/server/core/test/attacks/{failure-answers,session-readers,session-read-shortcuts}.test.ts',
	'src/lib/server/core/test/attacks/oauth1-sign-in.test.ts',
	'src/lib/server/core/test/attacks/account-attacks.test.ts',
	// the active organization through both integrations (issue 33)
	'src/lib/server/core/test/attacks/active-organization-integrations.test.ts',
	// the admin routes through both integrations (issue 32)
	'src/lib/server/core/admin/{admin-route-attacks,admin-routes-refuse-non-admins,admin-input-on-postgres}.test.ts',
	// the organization routes through both integrations (issue 33)
	'src/lib/server/core/organizations/{organization-route-attacks,member-role-change-races,organization-foreign-ids-and-tricks,organization-pages-escape-stored-text}.test.ts',
	'src/lib/server/core/test/attacks/email-change-links.test.ts',
	// invitations to organizations through both integrations (issue 33)
	'src/lib/server/core/organizations/{invitation-flows,invitation-attacks,invitation-mail-attacks,invitation-link-secrecy,organization-landing}.test.ts',
	'src/lib/server/core/test/attacks/userinfo-email-refutation.test.ts',
	'src/lib/server/adapters/sql-adapters-on-authjs-tables.test.ts',
	'src/lib/server/core/test/attacks/existing-authjs-database.test.ts',
	'src/lib/server/core/test/attacks/second-factor-against-a-thief.test.ts',
	'src/lib/server/core/test/attacks/jwt-session-list.test.ts',
	'src/lib/server/core/test/attacks/hot-path-shortcuts-on-servers.test.ts',
	'src/lib/server/core/test/runtimes/*.test.ts',
	'src/lib/server/express/express.test.ts',
	'src/lib/server/sveltekit/actions.test.ts',
	// kitgate/testing's local OpenID provider and mailbox
	'src/lib/testing/{idp,mailbox}.test.ts',
	// runs git
	'bin/init/git-tracked.test.ts',
	// starts Chromium
	'src/lib/components/admin/admin-in-chromium.test.ts',
	// the organization components in Chromium (issue 33)
	'src/lib/components/organization/organization-in-chromium.test.ts'
];

export default defineConfig({
	plugins: [sveltekit()],
	server: { host: '127.0.0.1' },
	preview: { host: '127.0.0.1' },
	test: {
		environment: 'node',
		testTimeout: 20_000,
		hookTimeout: 60_000,
		// vitest's default is one worker fewer than the cores (one on these 2-core machines), but many
		// files wait on sockets (SMTP, the IdP, PostgreSQL, Chromium): with two workers on two cores
		// about an eighth of the CPU stayed idle, so one worker more than the cores
		maxWorkers: availableParallelism() + 1,
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['src/**/*.test.ts', 'bin/**/*.test.{js,ts}'],
					exclude: [...configDefaults.exclude, ...integration, ...unitOwnModules],
					// the files share their worker's loaded modules: the engine is transformed and evaluated once
					// per worker, not once per file (files that replace modules: scripts/unit-own-modules.js)
					isolate: false,
					// a unit test that opens a socket or starts a process fails here, naming the rule
					setupFiles: ['src/lib/server/core/test/unit-isolation.ts']
				}
			},
			{
				extends: true,
				test: {
					name: 'unit (own modules)',
					include: unitOwnModules,
					exclude: [...configDefaults.exclude, ...integration],
					setupFiles: ['src/lib/server/core/test/unit-isolation.ts']
				}
			},
			{
				extends: true,
				test: {
					name: 'integration',
					include: integration,
					// a PostgreSQL cluster and the SvelteKit test app, for this project only
					globalSetup: ['src/lib/server/core/test/global-setup.ts']
				}
			}
		]
	}
});
