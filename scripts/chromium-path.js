// Which Chromium the tests launch (Playwright cannot download browsers here): Debian's headless
// shell when installed, the headless-only build Playwright itself uses for headless runs, at about
// half the CPU of the full browser; else Debian's full Chromium; else Playwright's own (undefined).
// CHROMIUM_PATH names another one (the same variable docs/testing.md gives an app's tests).

import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

/**
 * The executable for `chromium.launch({ executablePath })`, or undefined for Playwright's own.
 *
 * @example
 * const browser = await chromium.launch({ executablePath: chromiumPath() });
 * @returns {string | undefined}
 */
export function chromiumPath() {
	return process.env.CHROMIUM_PATH || CANDIDATES.find((path) => existsSync(path));
}
