// The option keys of an OAuth/OIDC provider, as one list the compiler holds to `OAuthConfig`: the
// start-up check of provider objects and the built-in factories (`kitgate/providers/*`) use it.

import { exactKeys } from '../../config/option-keys.js';
import type { OAuthConfig } from '../../types.js';

/** The named fields of `OAuthConfig`, without its index signature. */
type NamedOAuthFields = { [K in keyof OAuthConfig as string extends K ? never : number extends K ? never : K]: OAuthConfig[K] };

/**
 * Every named field of an OAuth/OIDC provider (`OAuthConfig`); the compiler checks that the list
 * and the type agree. The built-in factories accept exactly these options (plus their own).
 *
 * @example
 * OAUTH_CONFIG_KEYS.includes('clientSecret'); // true
 */
export const OAUTH_CONFIG_KEYS = exactKeys<NamedOAuthFields>()([
	'id', 'name', 'type', 'style',
	'clientId', 'clientSecret', 'issuer', 'wellKnown',
	'authorization', 'token', 'userinfo', 'requestToken', 'jwks_endpoint',
	'checks', 'client', 'profile', 'account', 'idToken',
	'allowDangerousEmailAccountLinking', 'redirectProxyUrl', 'refresh', 'timeout', 'version', 'formPostUser'
]);
