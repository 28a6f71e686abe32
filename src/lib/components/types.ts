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

/**
 * A provider as the components show it: what `kitgateData(event)` hands to the page for each
 * configured provider, in config order. Public facts only (never a client id, secret or endpoint).
 *
 * @example const github: SignInProvider = { id: 'github', name: 'GitHub', type: 'oauth', style: { brandColor: '#24292f' } };
 */
export interface SignInProvider {
	id: string;
	/** The provider's `name`, as the built-in sign-in page shows it ("Sign in with {name}"). */
	name: string;
	/** `oauth` stands for OAuth 2 and OpenID Connect alike (one button each). */
	type: 'oauth' | 'email' | 'credentials' | 'webauthn';
	/** The button's look: a `#rrggbb` brand colour and a logo URL, both checked on the server. */
	style?: ProviderButtonStyle;
	/** Credentials providers: the form's fields, from the provider's `credentials`. */
	credentials?: Record<string, CredentialField>;
}

/**
 * What the components need to know of the configuration and of the request, as `kitgateData(event)`
 * from `kitgate/sveltekit` returns it (put it in the root layout's data as `kitgate`). Plain
 * serialisable values, safe in a prerendered page: no secret, no token, no session.
 *
 * @example
 * // src/routes/+layout.server.ts
 * export const load = async (event) => ({ session: await event.locals.auth(), kitgate: await kitgateData(event) });
 */
export interface KitgateData {
	/** Where kitgate's routes are (`{paths.base}/auth` by default): the passkey ceremony runs there. */
	basePath: string;
	/** Every configured provider, in config order. Empty when the build could not know them (a config function while prerendering). */
	providers: SignInProvider[];
	/** kitgate's account page (`{basePath}/account`), when the account routes are on. */
	accountUrl?: string;
	/** `?callbackUrl=` of the request: where to go after signing in. */
	callbackUrl?: string;
	/** `?error=` of the request, an error type (kitgate sends failed sign-ins to `pages.signIn` with it). */
	error?: string;
	/** Texts of the config's language (`locale`, `messages`) where they differ from the components' English, and the text of `error`. */
	messages?: Messages;
}

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
