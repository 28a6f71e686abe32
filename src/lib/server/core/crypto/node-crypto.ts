// The Node fast path of the crypto module: node:crypto and Buffer where the runtime has them (Node,
// Bun, Deno), found at first use through `process.getBuiltinModule`. Nothing imports node:crypto,
// so bundles for Workers and edge runtimes never see it, and nothing runs at module load.
// Cloudflare Workers get the portable path even with `nodejs_compat`: Web Crypto measured faster
// there than workerd's node:crypto layer (docs/decisions.md, "Runtimes").

import type * as NodeCryptoModule from 'node:crypto';
import type * as NodeBufferModule from 'node:buffer';
import { nodeBuiltin, runtimeName } from '../util/runtime.js';

/** node:crypto, as the fast path uses it. */
export type NodeCrypto = typeof NodeCryptoModule;
/** Node's `Buffer` class. */
export type NodeBuffer = typeof NodeBufferModule.Buffer;

/** What the fast path needs of the runtime. */
export interface NodeParts {
	crypto: NodeCrypto;
	Buffer: NodeBuffer;
}

let found: NodeParts | null | undefined;
let forced: 'portable' | undefined;

function lookUp(): NodeParts | null {
	if (runtimeName() === 'Cloudflare Workers') return null;
	const crypto = nodeBuiltin<NodeCrypto>('node:crypto');
	const buffer = nodeBuiltin<typeof NodeBufferModule>('node:buffer');
	return crypto && buffer?.Buffer ? { crypto, Buffer: buffer.Buffer } : null;
}

/**
 * node:crypto and Buffer when this runtime offers them and they are the faster way, else null
 * (then the portable path runs: Web Crypto, and `@noble/hashes` for what must stay synchronous).
 * Looked up once, on first use.
 *
 * @example
 * const node = nodeParts();
 * const digest = node ? node.crypto.createHash('sha256').update(text).digest() : sha256(utf8(text));
 */
export function nodeParts(): NodeParts | null {
	if (forced) return null;
	if (found === undefined) found = lookUp();
	return found;
}

/**
 * Tests only: `portable` runs the portable path on Node too (so both paths are tested side by
 * side); `auto` goes back to choosing by the runtime.
 *
 * @example
 * useCryptoPath('portable');
 */
export function useCryptoPath(path: 'portable' | 'auto'): void {
	forced = path === 'portable' ? 'portable' : undefined;
}
