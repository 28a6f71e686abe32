// kitgate's password check alone, as a Worker: each request runs `verifyPassword` of the bench
// password against the stored hash in its `x-stored-hash` header (`scrypt$<logN>$<r>$<p>$…`; the
// cost is read from it), so one Worker measures every cost.

import { verifyPassword } from 'kitgate';
import { CREDENTIALS } from './shared.js';

export default {
	async fetch(request) {
		return new Response(String(await verifyPassword(CREDENTIALS.password, request.headers.get('x-stored-hash'))));
	}
};
