// Two switches of the interface's configuration, as it states them: `experimental.enableWebAuthn`
// "prints a warning to the console" when on, and `debug` (default false) "enables debug messages":
// off, no debug message reaches the console or the app's `logger.debug`.

import { afterEach, describe, expect, test, vi } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { Auth } from '../auth.js';
import type { AuthConfig, LoggerInstance, WebAuthnConfig } from '../types.js';

const SECRET = 'experimental-and-debug-test-secret-0123';
const passkey: WebAuthnConfig = { id: 'passkey', name: 'Passkey', type: 'webauthn' };

/** `resolveConfig` from a fresh copy of the module: the warning is once per process, so once per copy. */
async function freshResolve() {
	vi.resetModules();
	return (await import('./resolve-config.js')).resolveConfig;
}

afterEach(() => {
	vi.restoreAllMocks();
});

describe('experimental.enableWebAuthn', () => {
	test('enabling it prints a warning to the console, once', async () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const resolveConfig = await freshResolve();
		const config = (): AuthConfig => ({ secret: SECRET, trustHost: true, adapter: MemoryAdapter(), providers: [passkey], experimental: { enableWebAuthn: true } });
		resolveConfig(config(), {});
		expect(warn).toHaveBeenCalledTimes(1);
		expect(String(warn.mock.calls[0][0])).toBe('[kitgate][warn][experimental-webauthn]');
		expect(String(warn.mock.calls[0][1])).toMatch(/WebAuthn.*experimental/);
		resolveConfig(config(), {});
		expect(warn).toHaveBeenCalledTimes(1);
	});

	test('through the app’s logger when it has one; nothing when the flag is off', async () => {
		const warn = vi.fn();
		const logger: Partial<LoggerInstance> = { warn, error: () => {}, debug: () => {} };
		let resolveConfig = await freshResolve();
		resolveConfig({ secret: SECRET, trustHost: true, providers: [], logger, experimental: { enableWebAuthn: false } }, {});
		resolveConfig({ secret: SECRET, trustHost: true, providers: [], logger }, {});
		expect(warn).not.toHaveBeenCalled();
		resolveConfig = await freshResolve();
		resolveConfig({ secret: SECRET, trustHost: true, adapter: MemoryAdapter(), providers: [passkey], logger, experimental: { enableWebAuthn: true } }, {});
		expect(warn).toHaveBeenCalledWith('experimental-webauthn', expect.stringMatching(/experimental/));
	});
});

describe('debug', () => {
	/** A session read whose custom `jwt.decode` throws: the engine's debug message `jwt-decode`. */
	async function readWithThrowingDecoder(overrides: Partial<AuthConfig>) {
		const config: AuthConfig = {
			secret: SECRET,
			trustHost: true,
			providers: [],
			jwt: {
				decode: () => {
					throw new Error('not ours');
				}
			},
			...overrides
		};
		const response = await Auth(new Request('http://localhost:3000/auth/session', { headers: { cookie: 'kitgate.session-token=abc' } }), config);
		expect(await response.json()).toBeNull();
	}

	test('off by default and with `debug: false`: neither the console nor the app’s logger.debug hears a debug message', async () => {
		const consoleDebug = vi.spyOn(console, 'debug').mockImplementation(() => {});
		const debug = vi.fn();
		await readWithThrowingDecoder({});
		await readWithThrowingDecoder({ debug: false });
		await readWithThrowingDecoder({ debug: false, logger: { debug, warn: () => {}, error: () => {} } });
		expect(consoleDebug).not.toHaveBeenCalled();
		expect(debug).not.toHaveBeenCalled();
	});

	test('`debug: true` lets them through, to the app’s logger.debug or the console', async () => {
		const consoleDebug = vi.spyOn(console, 'debug').mockImplementation(() => {});
		const debug = vi.fn();
		await readWithThrowingDecoder({ debug: true, logger: { debug, warn: () => {}, error: () => {} } });
		expect(debug).toHaveBeenCalledWith('jwt-decode', expect.any(String), expect.any(Error));
		await readWithThrowingDecoder({ debug: true });
		expect(consoleDebug).toHaveBeenCalledWith('[kitgate][debug][jwt-decode]', expect.any(String), expect.any(Error));
	});
});
