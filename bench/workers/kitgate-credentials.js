// The minimal kitgate Worker: `Auth()` with one credentials provider and JWT sessions
// (kitgate-shared.js), in Cloudflare's module syntax. The configuration is made on the first
// request, from the bindings: a Worker may not use its bindings or randomness at load.

import { Auth } from 'kitgate';
import { kitgateConfig } from './kitgate-shared.js';

let config;

export default {
	fetch(request, env) {
		return Auth(request, (config ??= kitgateConfig(env)));
	}
};
