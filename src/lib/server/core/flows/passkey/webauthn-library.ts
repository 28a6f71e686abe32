// Loads @simplewebauthn/server on first use. It is an optional peer: apps without passkeys, and
// the engine's start-up, never need it installed.

import type * as SimpleWebAuthnServer from '@simplewebauthn/server';
import { InvalidConfiguration } from '../../errors.js';

/** The @simplewebauthn/server module. */
export type WebAuthnServerLibrary = typeof SimpleWebAuthnServer;

let loading: Promise<WebAuthnServerLibrary> | undefined;

/**
 * The @simplewebauthn/server module, imported once; `Configuration` error when it is not installed.
 *
 * @example const { verifyRegistrationResponse } = await loadWebAuthnServer();
 */
export function loadWebAuthnServer(): Promise<WebAuthnServerLibrary> {
	loading ??= import('@simplewebauthn/server').catch((error: unknown) => {
		loading = undefined;
		throw new InvalidConfiguration('Passkeys need the package @simplewebauthn/server: run `npm install @simplewebauthn/server`.', {
			cause: { err: error }
		});
	});
	return loading;
}
