// Loads @simplewebauthn/server on first use. It is an optional peer: apps without passkeys, and
// the engine's start-up, never need it installed, and the engine never names it in an import a
// bundler follows: `Passkey()` (kitgate/providers/passkey) hands over its own loader, so only apps
// with a passkey provider carry the library in their bundle (a Worker without passkeys: ~320 KiB less).

import type * as SimpleWebAuthnServer from '@simplewebauthn/server';
import { InvalidConfiguration } from '../../errors.js';
import type { Provider } from '../../types.js';
import { runtimeName } from '../../util/runtime.js';

/** The @simplewebauthn/server module. */
export type WebAuthnServerLibrary = typeof SimpleWebAuthnServer;

/** Where `Passkey()` puts its loader of the library on the provider it makes. */
export const WEBAUTHN_LIBRARY = Symbol.for('kitgate.webauthn-library');

/** A provider that may carry a loader of the library. */
type LoaderCarrier = { [WEBAUTHN_LIBRARY]?: () => Promise<WebAuthnServerLibrary> };

let loading: Promise<WebAuthnServerLibrary> | undefined;

/**
 * The @simplewebauthn/server module, imported once: through the loader a passkey provider of
 * `providers` carries, else by its name (Node resolves it from node_modules; a bundle without the
 * loader has nothing to resolve it with). `Configuration` error when it cannot be loaded.
 *
 * @example const { verifyRegistrationResponse } = await loadWebAuthnServer(ctx.config.providers);
 */
export function loadWebAuthnServer(providers: readonly Provider[]): Promise<WebAuthnServerLibrary> {
	const carried = providers.map((provider) => (provider as LoaderCarrier)[WEBAUTHN_LIBRARY]).find((loader) => typeof loader === 'function');
	// a name made at run time: bundlers leave the import alone, so apps without passkeys never carry
	// the library (nor warn they cannot find it). A constant would not do: Vite's bundler (Rolldown)
	// writes a constant into `import()`, and adapter-node's Rollup then looks the package up.
	const name = ['@simplewebauthn', 'server'].join('/');
	loading ??= (carried ? carried() : (import(/* @vite-ignore */ name) as Promise<WebAuthnServerLibrary>)).catch((error: unknown) => {
		loading = undefined;
		throw new InvalidConfiguration(
			carried || runtimeName() === 'Node.js'
				? 'Passkeys need the package @simplewebauthn/server: run `npm install @simplewebauthn/server`.'
				: `Passkeys need the package @simplewebauthn/server, which a provider made by hand cannot load on ${runtimeName()}: use Passkey() from kitgate/providers/passkey (it brings the library into the bundle).`,
			{ cause: { err: error } }
		);
	});
	return loading;
}
