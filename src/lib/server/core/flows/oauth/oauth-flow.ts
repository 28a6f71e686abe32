// The OAuth 2 / OIDC / OAuth 1.0a sign-in steps (./oauth.ts), loaded on the first OAuth request:
// an app whose configuration has no OAuth provider never loads them, nor oauth4webapi and jose.

import { loadOnce } from '../../util/load-once.js';

/**
 * The OAuth sign-in module, imported once (concurrent first requests share the import; a failed
 * import is tried again by the next request).
 *
 * @example
 * return (await oauthFlow()).startOAuthSignIn(ctx, provider, body, callbackUrl);
 */
export const oauthFlow = loadOnce(() => import('./oauth.js'));
