// The part of every kitgate bench Worker: JWT sessions on /auth with one credentials provider.
// `ada` is checked against a scrypt hash (`verifyPassword`, the `PASSWORD_HASH` binding);
// `ada-unhashed` with the same password by a constant comparison, as the Auth.js Worker checks its
// user, so that a sign-in is measured with and without the hash in the same Worker.

import { verifyPassword } from 'kitgate';
import Credentials from 'kitgate/providers/credentials';
import { BENCH_USER, CREDENTIAL_FIELDS, CREDENTIALS, constantCheck } from './shared.js';

/** The username whose password is compared as a constant (no hash). */
export const UNHASHED_USERNAME = 'ada-unhashed';

/**
 * The configuration of a kitgate bench Worker from its bindings, with `providers` added after
 * the credentials provider.
 */
export function kitgateConfig(env, { providers = [], ...extra } = {}) {
	const credentials = Credentials({
		credentials: CREDENTIAL_FIELDS,
		authorize: async ({ username, password }) => {
			if (username === UNHASHED_USERNAME) return constantCheck({ username: CREDENTIALS.username, password });
			return username === CREDENTIALS.username && (await verifyPassword(String(password), env.PASSWORD_HASH)) ? { ...BENCH_USER } : null;
		}
	});
	return { secret: env.AUTH_SECRET, trustHost: true, basePath: '/auth', session: { strategy: 'jwt' }, providers: [credentials, ...providers], ...extra };
}
