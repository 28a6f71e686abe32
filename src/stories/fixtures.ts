// Props the page stories share: one provider of every type (with and without brand colour and
// logo), a CSRF token and callback URL, and a small logo as a data URL (no network in Storybook).

import type { PageProvider } from '$lib/server/pages/types.js';

/** A square logo, drawn inline so stories need no server. */
export const logo =
	'data:image/svg+xml,' +
	encodeURIComponent(
		'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#4f46e5"/><path d="M20 44V20h8v9l9-9h10L35 32l12 12H37l-9-9v9z" fill="#fff"/></svg>'
	);

/** Every provider type the sign-in page shows, in configuration order. */
export const everyProvider: PageProvider[] = [
	{ id: 'github', name: 'GitHub', type: 'oauth', style: { brandColor: '#24292f', logo }, action: '/auth/signin/github' },
	{ id: 'gitlab', name: 'GitLab', type: 'oauth', style: { brandColor: '#fca326' }, action: '/auth/signin/gitlab' },
	{ id: 'keycloak', name: 'Keycloak', type: 'oauth', action: '/auth/signin/keycloak' },
	{ id: 'email', name: 'Email', type: 'email', action: '/auth/signin/email' },
	{
		id: 'credentials',
		name: 'Password',
		type: 'credentials',
		credentials: { username: { label: 'Username', autocomplete: 'username' }, password: { label: 'Password', type: 'password' } },
		action: '/auth/callback/credentials'
	},
	{ id: 'passkey', name: 'Passkey', type: 'webauthn', action: '/auth/callback/passkey', optionsUrl: '/auth/webauthn-options/passkey' }
];

/** The per-visitor fields of the sign-in and sign-out pages. */
export const request = { csrfToken: 'storybook-csrf-token', callbackUrl: 'https://app.example.com/dashboard' };
