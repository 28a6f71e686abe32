// The unit test files that replace modules or globals (vi.mock, vi.doMock, vi.resetModules,
// vi.stubGlobal, vi.stubEnv): vite.config.ts runs them with modules of their own, while the other
// unit files share their worker's loaded modules. src/lib/unit-files-that-replace-modules.test.ts
// fails when a file that replaces one, itself or through a helper it imports, is missing here.

/** Paths from the repository's root. */
export const unitOwnModules = [
	'src/lib/components/passkey-autofill-ssr.test.ts',
	'src/lib/server/providers/providers.test.ts',
	'src/lib/server/sveltekit/dev-startup.test.ts',
	'src/lib/server/sveltekit/fieldless-credentials.test.ts',
	'src/lib/server/sveltekit/vite-preview.test.ts',
	'src/lib/server/core/config/experimental-warning-and-debug.test.ts',
	'src/lib/server/core/test/session-token-integrity.test.ts',
	'src/lib/server/core/test/credentials-stored-user.test.ts',
	'src/lib/server/core/test/attacks/oauth-loaded-on-first-use.test.ts',
	'src/lib/server/core/passwords/password-hashing.test.ts',
	'src/lib/server/adapters/runtime-neutral.test.ts',
	'src/lib/client/base-path.test.ts',
	'src/lib/client/client.test.ts',
	'src/lib/client/focus-refresh.test.ts',
	'src/lib/client/passkey-autofill.test.ts',
	'src/lib/client/session-state-async-ssr.test.ts',
	'src/lib/client/session-state-races.test.ts',
	'src/lib/client/session-state-ssr.test.ts',
	'src/lib/client/session-state-types.test.ts',
	'src/lib/client/session-state.test.ts',
	'src/lib/client/update-session-claims.test.ts'
];
