// The start-up check of a provider factory's options, for factories that read no environment
// (credentials, passkey): run when the engine resolves the config, never while an app is built.

import { PROVIDER_WITH_ENV } from '../core/config/env.js';
import { describeUnknownKeys, unknownKeys } from '../core/config/option-keys.js';
import { InvalidConfiguration } from '../core/errors.js';
import type { Provider } from '../core/types.js';

/**
 * `provider`, which refuses, when the config is resolved, an option of `options` that is not in
 * `accepted` (naming the option it most likely meant).
 *
 * @example
 * return checkedWhenResolved({ id: 'passkey', name: 'Passkey', ...options, type: 'webauthn' }, options, PASSKEY_OPTION_KEYS);
 */
export function checkedWhenResolved<T extends Provider>(provider: T, options: object, accepted: readonly string[]): T {
	const check = () => {
		const unknown = unknownKeys(options, accepted);
		if (unknown.length > 0) {
			throw new InvalidConfiguration(`Provider "${provider.id}": ${describeUnknownKeys(unknown)}. A misspelt option would be ignored.`);
		}
		return provider;
	};
	Object.defineProperty(provider, PROVIDER_WITH_ENV, { value: check });
	return provider;
}
