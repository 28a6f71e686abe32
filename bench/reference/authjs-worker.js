// The minimal Auth.js Worker of bench/runtimes.js: `Auth()` from @auth/core with one credentials
// provider (a constant comparison: Auth.js ships no password hashing) and JWT sessions on /auth,
// in Cloudflare's module syntax, configured from the bindings on the first request. Lives here so
// that @auth/core resolves from this folder's node_modules.

import { Auth } from '@auth/core';
import Credentials from '@auth/core/providers/credentials';
import { CREDENTIAL_FIELDS, constantCheck } from '../workers/shared.js';

let config;

/** The configuration from the Worker's bindings, with `extra` (providers are added after the credentials one). */
export function authjsConfig(env, { providers = [], ...extra } = {}) {
	const credentials = Credentials({ credentials: CREDENTIAL_FIELDS, authorize: constantCheck });
	return { secret: env.AUTH_SECRET, trustHost: true, basePath: '/auth', session: { strategy: 'jwt' }, providers: [credentials, ...providers], ...extra };
}

export default {
	fetch(request, env) {
		return Auth(request, (config ??= authjsConfig(env)));
	}
};
