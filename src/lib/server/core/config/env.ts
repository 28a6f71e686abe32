// Environment variables as kitgate reads them: `process.env` by default, or what an integration
// hands over (SvelteKit's `$env/dynamic/private`, where Vite puts `.env` files), and how missing ones are reported.

import { InvalidConfiguration } from '../errors.js';

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

/** An environment variable the configuration needs and does not have, and what to put there. */
export interface MissingVariable {
	/** e.g. `AUTH_GITHUB_ID` */
	name: string;
	/** What it holds, and the option that may replace it, e.g. `the client id of provider "github" (or pass \`clientId\`)`. */
	what: string;
}

/** Where an error thrown while a config is resolved lists the variables it is about, so they are reported together. */
export const MISSING_VARIABLES = Symbol.for('kitgate.missingVariables');

/**
 * An `InvalidConfiguration` naming the `missing` variables (`missingVariablesMessage`) and carrying
 * them, so that the config resolver reports them together with every other missing variable.
 *
 * @example
 * throw missingVariablesError([{ name: 'AUTH_GITHUB_ID', what: 'the client id of provider "github" (or pass `clientId`)' }]);
 */
export function missingVariablesError(missing: MissingVariable[]): InvalidConfiguration {
	const error = new InvalidConfiguration(missingVariablesMessage(missing));
	Object.defineProperty(error, MISSING_VARIABLES, { value: missing });
	return error;
}

/**
 * The variables `error` reports missing (see `missingVariablesError`), else undefined.
 *
 * @example
 * const missing = missingVariablesOf(error); // [{ name: 'AUTH_GITHUB_ID', what: '…' }] or undefined
 */
export function missingVariablesOf(error: unknown): MissingVariable[] | undefined {
	const list = error && typeof error === 'object' ? (error as { [MISSING_VARIABLES]?: unknown })[MISSING_VARIABLES] : undefined;
	return Array.isArray(list) ? (list as MissingVariable[]) : undefined;
}

/**
 * One message for every missing variable: their names on the first line, then what each holds,
 * then where to set them.
 *
 * @example
 * missingVariablesMessage([{ name: 'AUTH_SECRET', what: 'at least 32 random characters' }]);
 * // 'Missing environment variable AUTH_SECRET.\n- AUTH_SECRET: at least 32 random characters\nSet it in .env …'
 */
export function missingVariablesMessage(missing: MissingVariable[]): string {
	const several = missing.length > 1;
	return [
		`Missing environment variable${several ? 's' : ''} ${missing.map((variable) => variable.name).join(', ')}.`,
		...missing.map((variable) => `- ${variable.name}: ${variable.what}`),
		`Set ${several ? 'them' : 'it'} in .env in development (SvelteKit reads it; with Express, \`node --env-file=.env\`), ` +
			"and in your server's or hosting platform's environment variables in production."
	].join('\n');
}
