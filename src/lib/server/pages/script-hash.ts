// The CSP source that lets one inline script run: `'sha256-<base64 of its SHA-256>'`, hashed with
// `@noble/hashes` so the pages load on every runtime (no node:crypto).

import { sha256 } from '@noble/hashes/sha2.js';

/**
 * The `script-src` entry of `script`.
 *
 * @example
 * scriptHashSource('console.log(1)'); // "'sha256-…'"
 */
export function scriptHashSource(script: string): string {
	return `'sha256-${btoa(String.fromCharCode(...sha256(new TextEncoder().encode(script))))}'`;
}
