// The OAuth 2 / OIDC / OAuth 1.0a sign-in steps (./oauth.ts), loaded on the first OAuth request:
// an app whose configuration has no OAuth provider never loads them, nor oauth4webapi and jose.

type OAuthFlow = typeof import('./oauth.js');

let loading: Promise<OAuthFlow> | undefined;

/**
 * The OAuth sign-in module, imported once (concurrent first requests share the import).
 *
 * @example
 * return (await oauthFlow()).startOAuthSignIn(ctx, provider, body, callbackUrl);
 */
export function oauthFlow(): Promise<OAuthFlow> {
	// a failed import is tried again by the next request, not remembered
	loading ??= import('./oauth.js').catch((error: unknown) => {
		loading = undefined;
		throw error;
	});
	return loading;
}
