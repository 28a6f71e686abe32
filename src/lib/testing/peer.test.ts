// loadPeer: a missing optional peer dependency is named, with the command that installs it; any
// other failure of the import is passed on as it is.

import { expect, test } from 'vitest';
import { loadPeer } from './peer.js';

test('a missing package is named with its install command and the helper that needs it', async () => {
	// @ts-expect-error: a package that is not installed, on purpose
	const failing = loadPeer(() => import('kitgate-no-such-package'), 'kitgate-no-such-package', 'startSomething');
	await expect(failing).rejects.toThrow('startSomething() needs the package kitgate-no-such-package: npm install --save-dev kitgate-no-such-package');
});

test('an installed package loads; another error of its import is not mistaken for a missing package', async () => {
	expect(await loadPeer(() => import('node:path'), 'node:path', 'x')).toHaveProperty('join');
	const broken = new Error('boom inside the package');
	await expect(loadPeer(() => Promise.reject(broken), 'smtp-server', 'startTestMailbox')).rejects.toBe(broken);
});
