// Shared set-up of the passkey tests: a config with the passkey and credentials providers on a
// real adapter, an injectable clock, a recording logger, and helpers for the two passkey routes.

import { MemoryAdapter } from '../../adapters/memory.js';
import Credentials from '../../providers/credentials.js';
import Passkey, { type PasskeyOptions } from '../../providers/passkey.js';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Adapter, AuthConfig } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { softwareAuthenticator } from './software-authenticator.js';

export const ORIGIN = 'http://localhost:3000';

/** The credentials user of the tests (stored on first sign-in under database sessions). */
export const ADA = { id: 'user-ada', name: 'Ada', email: 'ada@example.com' };
export const BOB = { id: 'user-bob', name: 'Bob', email: 'bob@example.com' };

/** What the options route answers. */
export interface OptionsAnswer {
	action: 'register' | 'authenticate';
	options: PublicKeyCredentialCreationOptionsJSON & PublicKeyCredentialRequestOptionsJSON;
}

/**
 * A passkey test world: config, cookie-keeping client, software authenticator, clock and log.
 *
 * @example
 * const world = passkeyWorld();
 * const { body } = await world.options({ email: 'new@example.com' });
 */
export function passkeyWorld(
	options: { adapter?: Adapter; passkey?: PasskeyOptions; config?: Partial<AuthConfig>; origin?: string } = {}
) {
	const adapter = options.adapter ?? MemoryAdapter();
	const clock = { now: Date.UTC(2026, 5, 1, 12) };
	const warnings: { code: string; message: string }[] = [];
	const errors: Error[] = [];
	// every failure logged, errors and warnings alike, as `<code>: <message>` in order
	const failures: string[] = [];
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		now: () => clock.now,
		experimental: { enableWebAuthn: true },
		logger: {
			warn: (code, ...message) => {
				warnings.push({ code, message: message.join(' ') });
				failures.push(`${code}: ${message[0]}`);
			},
			error: (_code, logged) => {
				const error = logged as Error;
				errors.push(error);
				failures.push(`${(error as { type?: string }).type ?? error.name}: ${error.message}`);
			},
			debug: () => undefined
		},
		providers: [
			Passkey(options.passkey),
			Credentials({ authorize: ({ username }) => [ADA, BOB].find((u) => u.name.toLowerCase() === username) ?? null })
		],
		...options.config
	};
	const origin = options.origin ?? ORIGIN;
	const device = softwareAuthenticator(origin);
	return { config, adapter: adapter as Required<Adapter>, clock, warnings, errors, failures, device, ...routes(config, origin) };
}

/** The id of the user a registration's options are for (its WebAuthn user handle). */
export function optionsUserId(options: OptionsAnswer['options']): string {
	return Buffer.from(options.user.id, 'base64url').toString();
}

/** Route helpers for one browser (one cookie jar); `browser()` makes another. */
function routes(config: AuthConfig, origin: string) {
	const client = testClient(config, origin);
	async function options(query: Record<string, string> = {}, headers: Record<string, string> = {}) {
		// an email without an action is a sign-up, as PasskeySignIn sends it
		const sent = query.email !== undefined && query.action === undefined ? { action: 'register', ...query } : query;
		const response = await client.request(`/auth/webauthn-options/passkey?${new URLSearchParams(sent)}`, { headers });
		return { response, status: response.status, body: (await response.json()) as OptionsAnswer & { error?: string } };
	}
	async function callback(payload: Record<string, unknown>, { csrf = true } = {}) {
		const csrfToken = csrf ? await client.csrfToken() : undefined;
		const response = await client.request('/auth/callback/passkey', { json: { csrfToken, ...payload } });
		return { response, status: response.status, body: (await response.json()) as { url?: string; error?: string } };
	}
	async function signInWithPassword(username: string) {
		const csrfToken = await client.csrfToken();
		return client.request('/auth/callback/credentials', { form: { csrfToken, username } });
	}
	async function session() {
		return (await (await client.request('/auth/session')).json()) as { user?: { email?: string; name?: string } } | null;
	}
	const challengeCookie = () => client.jar.get('kitgate.challenge');
	return { client, options, callback, signInWithPassword, session, challengeCookie, browser: () => routes(config, origin) };
}
