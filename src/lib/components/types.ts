// Prop types of the components shared by more than one of them. Export path: `kitgate/components`.

/**
 * Where to go after the form's action: `redirectTo` is sent as the form's `callbackUrl`.
 *
 * @example const options: FormOptions = { redirectTo: '/account' };
 */
export interface FormOptions {
	/** Where to go afterwards (default: the app's home page). */
	redirectTo?: string;
}

/**
 * One field of a credentials form, as in the provider's `credentials` config.
 *
 * @example const field: CredentialField = { label: 'Password', type: 'password', autocomplete: 'current-password' };
 */
export interface CredentialField {
	label?: string;
	/** Input type (default `text`). */
	type?: string;
	placeholder?: string;
	/** Default true. */
	required?: boolean;
	autocomplete?: string;
}

/**
 * How a provider's button looks: its brand colour (the text colour is chosen for contrast) and logo.
 *
 * @example const style: ProviderButtonStyle = { brandColor: '#24292f', logo: '/github.svg' };
 */
export interface ProviderButtonStyle {
	/** `#rgb`, `#rrggbb`, `rgb()` or `hsl()`; other values are ignored. */
	brandColor?: string;
	/** URL of an image shown before the text (decorative: `alt=""`). */
	logo?: string;
}

/**
 * Texts keyed by message id, replacing the defaults (English, or what `setMessages` set).
 *
 * @example const texts: Messages = { 'signout.button': 'Log out' };
 */
export type Messages = Readonly<Record<string, string>>;

/**
 * Extra parameters of a provider's authorization request, in any form `URLSearchParams` takes
 * (as Auth.js accepts them): an object, `URLSearchParams`, a query string or `[name, value]` pairs.
 *
 * @example const params: AuthorizationParams = { prompt: 'login', login_hint: 'ada@example.com' };
 */
export type AuthorizationParams = Record<string, string> | URLSearchParams | string | string[][];

// the data of `kitgateData(event)`: declared beside the built-in pages' props (the engine builds it)
export type { KitgateData, SignInProvider } from '../server/core/display-types.js';

/**
 * The signed-in user as `UserButton` shows them (the `user` of a session).
 *
 * @example const user: SessionUser = { name: 'Ada Lovelace', email: 'ada@example.com', image: null };
 */
export interface SessionUser {
	name?: string | null;
	email?: string | null;
	image?: string | null;
}
