// Measuring builds of kitgate without the cryptography of a credentials sign-in: copies of dist/
// with the CSRF cookie's MAC, the session token's encryption, or both replaced by constants. They
// accept forged CSRF cookies and hand every user the same token, so they only ever serve a load
// test: the difference between them and the real build is what that cryptography costs.

import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Replacements in the built files; each must match exactly once, so a changed build fails here, not silently. */
const STUBS = {
	csrfMac: {
		file: 'server/core/request/csrf.js',
		from: 'return secretHmac(secret).update(token).digest("hex");',
		to: 'return "0".repeat(64);'
	},
	sessionToken: {
		file: 'server/core/crypto/jwe-sync.js',
		from: 'function encryptJweSync(payload, key, header = {}) {',
		// the first token made is handed out again: the same cookie and length as a real one, no cipher work
		to: 'let floorToken;\nfunction encryptJweSync(payload, key, header = {}) {\n  return floorToken ??= realEncryptJweSync(payload, key, header);\n}\nfunction realEncryptJweSync(payload, key, header = {}) {'
	}
};

/** The measuring builds, by name: what each leaves out. */
export const FLOOR_VARIANTS = {
	'no-csrf-mac': [STUBS.csrfMac],
	'no-token-cipher': [STUBS.sessionToken],
	'no-crypto': [STUBS.csrfMac, STUBS.sessionToken]
};

/**
 * Writes the measuring build `name` (a key of FLOOR_VARIANTS) from dist/ into bench/.ab/floor-<name>
 * (inside the project, so its imports resolve) and returns that folder, for `KITGATE_DIST`.
 */
export function buildCryptoFloor(name) {
	const stubs = FLOOR_VARIANTS[name];
	if (!stubs) throw new Error(`No measuring build named ${name}.`);
	const dir = join(ROOT, 'bench', '.ab', `floor-${name}`);
	rmSync(dir, { recursive: true, force: true });
	cpSync(join(ROOT, 'dist'), dir, { recursive: true });
	for (const stub of stubs) {
		const path = join(dir, stub.file);
		const text = readFileSync(path, 'utf8');
		if (text.split(stub.from).length !== 2) throw new Error(`${stub.file}: the text to replace is not there exactly once; update bench/crypto-floor.js for the current build.`);
		writeFileSync(path, text.replace(stub.from, stub.to));
	}
	return dir;
}
