// The display types the built-in pages share with the config and the components (Theme,
// ProviderStyle, CredentialInput: public through `kitgate`; SignInProvider and KitgateData: what
// the components read). Plain data, importing nothing: pages, components and the engine all use them.

/** Look of a provider's button on the sign-in page. */
export interface ProviderStyle {
	brandColor?: string;
	logo?: string;
	/** @deprecated use `brandColor`. */
	bg?: string;
	/** @deprecated text colour is chosen for contrast. */
	text?: string;
}

/** One field of the credentials form on the built-in sign-in page. */
export interface CredentialInput {
	label?: string;
	type?: string;
	placeholder?: string;
	required?: boolean;
	autocomplete?: string;
}

/** Look of the built-in pages. */
export interface Theme {
	colorScheme?: 'auto' | 'light' | 'dark';
	brandColor?: string;
	/** Absolute URL or path of a logo shown above the card. */
	logo?: string;
	/** Colour of text on brand-coloured buttons. */
	buttonText?: string;
}

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
	type: PageProviderKind;
	/** The button's look: a `#rrggbb` brand colour and a logo URL, both checked on the server. */
	style?: Pick<ProviderStyle, 'brandColor' | 'logo'>;
	/** Credentials providers: the form's fields, from the provider's `credentials`. */
	credentials?: Record<string, CredentialInput>;
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
	messages?: Readonly<Record<string, string>>;
}

/** How the sign-in page shows a provider: a button (OAuth and OIDC), the email form, the credentials form, the passkey button. */
export type PageProviderKind = 'oauth' | 'email' | 'credentials' | 'webauthn';
