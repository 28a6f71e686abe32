// What scrypt from node:crypto costs on workerd with `nodejs_compat` (kitgate runs @noble/hashes'
// scrypt on Workers, with or without the flag): the hash of the `x-stored-hash` header's cost and
// salt, compared with its key. Bundled with node:crypto left to the runtime.

import { scrypt, timingSafeEqual } from 'node:crypto';
import { CREDENTIALS } from './shared.js';

export default {
	async fetch(request) {
		const [, logN, r, p, salt, key] = String(request.headers.get('x-stored-hash')).split('$');
		const N = 2 ** Number(logN);
		const expected = Buffer.from(key, 'base64url');
		const derived = await new Promise((resolve, reject) =>
			scrypt(CREDENTIALS.password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, { N, r: Number(r), p: Number(p), maxmem: 256 * N * Number(r) + 1048576 }, (error, out) =>
				error ? reject(error) : resolve(out)
			)
		);
		return new Response(String(timingSafeEqual(derived, expected)));
	}
};
