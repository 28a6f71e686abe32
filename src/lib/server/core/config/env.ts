// Environment variables as kitgate reads them: `process.env` by default, or what an integration
// hands over (SvelteKit's `$env/dynamic/private`, where Vite puts `.env` files). Pure helpers.

/** Environment variables kitgate reads. */
export type AuthEnv = Record<string, string | undefined>;

/**
 * `process.env` where there is one (Node), else an empty record.
 *
 * @example
 * resolveConfig(config, processEnv());
 */
export function processEnv(): AuthEnv {
	return (globalThis as { process?: { env: AuthEnv } }).process?.env ?? {};
}

/**
 * The environment prefix of provider `id`: upper case, every character other than a letter or
 * digit replaced by `_`.
 *
 * @example
 * providerEnvPrefix("microsoft-entra-id") // "AUTH_MICROSOFT_ENTRA_ID" (reads AUTH_MICROSOFT_ENTRA_ID_ID, …_SECRET, …_ISSUER)
 */
export function providerEnvPrefix(id: string): string {
	return `AUTH_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * Where a built-in provider keeps how to rebuild itself with another environment: the engine
 * calls it with the environment the integration read (so `AUTH_GITHUB_ID` from a `.env` file
 * that only SvelteKit loaded still reaches `GitHub()`). Registered, so two copies of kitgate agree.
 */
export const PROVIDER_WITH_ENV = Symbol.for('kitgate.providerWithEnv');
