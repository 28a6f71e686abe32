// What kitgate's components may know of a configuration and a request: the providers' public facts,
// and the texts of the config's language. The engine's side of `kitgateData` (kitgate/sveltekit).
// NEW FILE for the core layout (response/): imports pages' checks and types and the neutral messages.

import { isErrorType, signInMessageId } from '../../../failures.js';
import { enForms } from '../../../messages/en-forms.js';
import { enPasskey } from '../../../messages/en-passkey.js';
import { enUser } from '../../../messages/en-user.js';
import { en } from '../../../messages/en.js';
import { resolveMessages } from '../../../messages/index.js';
import { parseColor } from '../../pages/colors.js';
import { safeImageUrl } from '../../pages/theme.js';
import type { CredentialInput, KitgateData, SignInProvider } from '../../pages/types.js';

export type { KitgateData, SignInProvider } from '../../pages/types.js';

/** What an integration knows of a request's configuration, for `componentData`. */
export interface ComponentSource {
	/** Where kitgate's routes are. */
	basePath: string;
	/** The providers: resolved ones on a request, the config's own entries while prerendering (factories not called yet). */
	providers: readonly unknown[];
	/** The account routes are on. */
	accountRoutes: boolean;
	/** The config's `locale` and `messages`. */
	locale?: string;
	messages?: Record<string, string>;
}

/** The request's part: its query (none while prerendering). */
export interface ComponentQuery {
	callbackUrl?: string | null;
	error?: string | null;
}

/** Ids of the texts the components may show: where the config's language differs, the page gets them. */
const COMPONENT_TEXT_IDS = [
	...Object.keys(enForms),
	...Object.keys(enUser),
	'signin.passkey.noscript',
	...Object.keys(enPasskey).filter((id) => id.startsWith('passkey.error.'))
];
/** What the components say without help: their own English texts (the noscript note is rendered on the server only). */
const english: Readonly<Record<string, string>> = { ...enForms, ...enUser, ...enPasskey, 'signin.passkey.noscript': en['signin.passkey.noscript'] };

const providerLists = new WeakMap<readonly unknown[], SignInProvider[]>();
const textTables = new Map<string, { table: Record<string, string>; differing: Record<string, string> }>();
const MAX_TEXT_TABLES = 16;

/**
 * The components' data for `source` and `query`: the providers, kitgate's base path and account
 * page, `callbackUrl`, a known error type (anything else is `Default`) with its text, and the
 * texts of the config's language that differ from the components' English.
 *
 * @example componentData({ basePath: '/auth', providers: [GitHub], accountRoutes: false }, { error: 'OAuthSignin' })
 */
export function componentData(source: ComponentSource, query: ComponentQuery = {}): KitgateData {
	const data: KitgateData = { basePath: source.basePath, providers: publicProviders(source.providers) };
	if (source.accountRoutes) data.accountUrl = `${source.basePath}/account`;
	const texts = textsOf(source.locale, source.messages);
	let differing = texts.differing;
	if (query.callbackUrl) data.callbackUrl = query.callbackUrl;
	if (query.error) {
		// an unknown type is shown as the generic alert: never echo what the query says
		data.error = isErrorType(query.error) ? query.error : 'Default';
		const id = `signin.error.${data.error}`;
		const text = texts.table[signInMessageId(data.error, texts.table)];
		if (text !== english[id]) differing = { ...differing, [id]: text };
	}
	if (Object.keys(differing).length) data.messages = differing;
	return data;
}

/** The config language's texts, and those of the components that differ from their English (cached per language and overrides). */
function textsOf(locale: string | undefined, messages: Record<string, string> | undefined) {
	const key = JSON.stringify([locale ?? '', messages ?? {}]);
	let texts = textTables.get(key);
	if (!texts) {
		const table = resolveMessages(locale, messages);
		const differing = Object.fromEntries(COMPONENT_TEXT_IDS.filter((id) => table[id] !== english[id]).map((id) => [id, table[id]]));
		texts = { table, differing };
		// configs are few; a config function building new `messages` per request must not grow this
		if (textTables.size >= MAX_TEXT_TABLES) textTables.clear();
		textTables.set(key, texts);
	}
	return texts;
}

/**
 * The providers as the components show them, in config order: only their id, name, kind, a brand
 * colour (as `#rrggbb`) and logo that passed the pages' checks, and a credentials provider's
 * fields. Nothing else of a provider (client id or secret, endpoints, callbacks) is copied.
 *
 * @example publicProviders([GitHub({ clientId: 'x', clientSecret: 'y' })]) // [{ id: 'github', name: 'GitHub', type: 'oauth', style: { … } }]
 */
export function publicProviders(providers: readonly unknown[]): SignInProvider[] {
	let list = providerLists.get(providers);
	if (!list) {
		list = providers.map(publicProvider).filter((provider) => provider !== undefined);
		providerLists.set(providers, list);
	}
	return list;
}

const KINDS: Record<string, SignInProvider['type']> = { oauth: 'oauth', oidc: 'oauth', email: 'email', credentials: 'credentials', webauthn: 'webauthn' };

function publicProvider(entry: unknown): SignInProvider | undefined {
	let given = entry;
	try {
		// prerendering sees the config's own entries: a provider factory passed without calling it (`providers: [GitHub]`)
		if (typeof given === 'function') given = (given as () => unknown)();
	} catch {
		return undefined;
	}
	if (!given || typeof given !== 'object') return undefined;
	const provider = given as Record<string, unknown>;
	const type = typeof provider.type === 'string' ? KINDS[provider.type] : undefined;
	if (!type || typeof provider.id !== 'string') return undefined;
	const result: SignInProvider = { id: provider.id, name: typeof provider.name === 'string' ? provider.name : provider.id, type };
	const style = provider.style && typeof provider.style === 'object' ? (provider.style as Record<string, unknown>) : {};
	const brandColor = hexColor(style.brandColor ?? style.bg);
	const logo = safeImageUrl(style.logo);
	if (brandColor || logo) result.style = { ...(brandColor && { brandColor }), ...(logo && { logo }) };
	if (type === 'credentials') result.credentials = credentialFields(provider.credentials);
	return result;
}

/** A colour the pages accept (`#rgb`, `rgb()`, `hsl()`, a name), as `#rrggbb`: the components parse only hex. */
function hexColor(value: unknown): string | undefined {
	const rgb = typeof value === 'string' && value.length <= 64 ? parseColor(value) : undefined;
	return rgb && `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

/** The fields as the built-in page shows them: a label (the capitalised name by default), type, placeholder, required (default false), autocomplete. */
function credentialFields(credentials: unknown): Record<string, CredentialInput> {
	const fields: Record<string, CredentialInput> = {};
	if (!credentials || typeof credentials !== 'object') return fields;
	for (const [name, input] of Object.entries(credentials as Record<string, unknown>)) {
		const field = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
		const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
		fields[name] = {
			label: text(field.label) ?? name.charAt(0).toUpperCase() + name.slice(1),
			type: /^[a-z-]{1,32}$/.test(text(field.type) ?? '') ? (field.type as string) : 'text',
			required: field.required === true,
			...(text(field.placeholder) !== undefined && { placeholder: text(field.placeholder) }),
			...(text(field.autocomplete) !== undefined && { autocomplete: text(field.autocomplete) })
		};
	}
	return fields;
}
