// The layers of kitgate, checked by `npm run lint:layers` (and by `npm test`). A forbidden import
// fails the build. The picture and the reasons: docs/architecture.md.
//
//   integrations (sveltekit, express) ─▶ engine (server/core) ─▶ pages ─▶ failure table, messages
//   adapters, providers ─▶ engine's types and errors (providers ─▶ pages for the email)
//   components, client ─▶ messages
//   pages ─▶ the account components (components/account/: framework-free, shown by the account page)

/** Files that are not part of the layers: tests, their helpers, stories. */
const notShipped = '(\\.test\\.ts$|\\.spec\\.ts$|/test/|\\.stories\\.|/stories/)';

module.exports = {
	forbidden: [
		{
			name: 'no-circular',
			comment: 'Modules that import each other, at run time or for types only, cannot be read, tested or loaded one at a time: a type both need lives below both.',
			severity: 'error',
			from: { pathNot: `${notShipped}|^src/lib/components/SignIn\\.svelte$` },
			to: { circular: true }
		},
		{
			name: 'no-circular-but-a-recursive-component',
			comment: 'SignIn renders itself once per provider for the whole sign-in: that one self-import is recursion, not a circle; any circle through another module is refused.',
			severity: 'error',
			from: { path: '^src/lib/components/SignIn\\.svelte$' },
			to: { circular: true, pathNot: '^src/lib/components/SignIn\\.svelte$' }
		},
		{
			name: 'engine-imports-no-adapter-provider-or-integration',
			comment: 'The engine is handed adapters and providers through the config; it never imports them, nor a framework integration.',
			severity: 'error',
			from: { path: '^src/lib/server/core/', pathNot: notShipped },
			to: { path: '^src/lib/(server/(adapters|providers|sveltekit|express)|components|client|testing)/' }
		},
		{
			name: 'flows-do-not-import-routes',
			comment: 'Routes (actions/) call flows; a flow that imports a route makes the two one module.',
			severity: 'error',
			from: { path: '^src/lib/server/core/flows/', pathNot: notShipped },
			to: { path: '^src/lib/server/core/actions/' }
		},
		{
			name: 'pages-are-a-leaf',
			comment: 'The engine renders the pages; pages read only their props, the failure table, the messages, the public display and view types (core/display-types.ts, core/{account,admin,organization}-types.ts) and the account, two-factor, admin and organization components they show (components/account/, components/two-factor/, components/admin/, components/organization/), and import nothing else above them (not even types).',
			severity: 'error',
			from: { path: '^src/lib/server/pages/', pathNot: notShipped },
			to: { path: '^src/lib/(server/(core|adapters|providers|sveltekit|express)|components|client|testing)/', pathNot: '^src/lib/(components/(account|two-factor|admin|organization)/|server/core/(display|account|admin|organization)-types\\.ts$)' }
		},
		{
			name: 'account-components-are-framework-free',
			comment: 'The built-in pages render the account, two-factor, admin and organization components in plain Node: they use no SvelteKit module and no other component but each other (scripts/compile-pages.js also refuses `$app/…`); the client only lazily, when a button is pressed.',
			severity: 'error',
			from: { path: '^src/lib/components/(account|two-factor|admin|organization)/', pathNot: notShipped },
			to: { path: '^src/lib/(components/(?!account/|two-factor/|admin/|organization/|messages-context|passkey-errors|types)|server/(?!core/(account|admin|organization|display)-types\\.ts$)|testing)' }
		},
		{
			name: 'neutral-modules-stay-neutral',
			comment: 'The failure table and the message catalogues are used in the browser too: they import no server or component code.',
			severity: 'error',
			from: { path: '^src/lib/(failures\\.ts|messages/)', pathNot: notShipped },
			to: { path: '^src/lib/(server|components|client|testing)/' }
		},
		{
			name: 'adapters-and-providers-are-plugins',
			comment: 'Adapters and providers build on the engine\'s types and errors (providers also render the sign-in email with the pages), never on an integration.',
			severity: 'error',
			from: { path: '^src/lib/server/(adapters|providers)/', pathNot: notShipped },
			to: { path: '^src/lib/(server/(sveltekit|express)|components|client)/' }
		},
		{
			name: 'adapters-do-not-import-pages',
			severity: 'error',
			from: { path: '^src/lib/server/adapters/', pathNot: notShipped },
			to: { path: '^src/lib/server/pages/' }
		},
		{
			name: 'adapters-do-not-import-providers',
			severity: 'error',
			from: { path: '^src/lib/server/adapters/', pathNot: notShipped },
			to: { path: '^src/lib/server/providers/' }
		},
		{
			name: 'providers-do-not-import-adapters',
			severity: 'error',
			from: { path: '^src/lib/server/providers/', pathNot: notShipped },
			to: { path: '^src/lib/server/adapters/' }
		},
		{
			name: 'integrations-translate',
			comment: 'An integration talks to the engine only; it does not reach into adapters, providers, pages or the other integration.',
			severity: 'error',
			from: { path: '^src/lib/server/(sveltekit|express)/', pathNot: notShipped },
			to: { path: '^src/lib/(server/(adapters|providers|pages)|components|client)/' }
		},
		{
			name: 'integrations-are-independent',
			severity: 'error',
			from: { path: '^src/lib/server/sveltekit/', pathNot: notShipped },
			to: { path: '^src/lib/server/express/' }
		},
		{
			name: 'integrations-are-independent-2',
			severity: 'error',
			from: { path: '^src/lib/server/express/', pathNot: notShipped },
			to: { path: '^src/lib/server/sveltekit/' }
		},
		{
			name: 'browser-code-has-no-server-code',
			comment: 'Components and the client run in the browser: nothing of the server may be bundled into them (types are fine).',
			severity: 'error',
			from: { path: '^src/lib/(components|client)/', pathNot: notShipped },
			to: { path: '^src/lib/(server|testing)/', dependencyTypesNot: ['type-only'] }
		}
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		exclude: { path: '/compiled/' },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		enhancedResolveOptions: {
			exportsFields: ['exports'],
			conditionNames: ['import', 'types', 'svelte', 'default'],
			extensions: ['.ts', '.js', '.svelte']
		}
	}
};
