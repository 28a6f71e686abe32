// The message table of kitgate's built-in pages, sign-in email and components, in English and
// French, with lookup helpers. Neutral (no server code); export path: `kitgate/components`.

import { en } from './en.js';
import { fr } from './fr.js';
import { format } from './format.js';

export { format } from './format.js';
export { en, type MessageId } from './en.js';
export { fr } from './fr.js';

/** Languages with a complete built-in table. */
export type Locale = 'en' | 'fr';

/** Texts keyed by message id (`signin.title`, `signin.error.CredentialsSignin`, …). */
export type MessageTable = Record<string, string>;

/**
 * The built-in message tables. Every language has every English key (checked by tests).
 *
 * @example messages.fr['signout.button'] // 'Se déconnecter'
 */
export const messages: Readonly<Record<Locale, Readonly<MessageTable>>> = { en, fr };

/**
 * The message table for `locale` (a language tag such as `fr-CA`; unknown or missing gives
 * English), with `overrides` on top. English fills any key the chosen table lacks.
 *
 * @example resolveMessages('fr', { 'signin.title': 'Bienvenue' })['signin.or'] // 'ou'
 */
export function resolveMessages(locale?: string, overrides?: Record<string, string>): MessageTable {
	return { ...en, ...messages[localeOf(locale)], ...overrides };
}

/**
 * The built-in locale for a language tag (`fr-CA` → `fr`), English when there is none.
 *
 * @example localeOf('fr-CA') // 'fr'
 */
export function localeOf(tag?: string): Locale {
	const language = tag?.trim().toLowerCase().split(/[-_]/)[0];
	return language && Object.hasOwn(messages, language) ? (language as Locale) : 'en';
}

/**
 * The text with id `id` from `table`, formatted with `values`; English, then the id itself, if it is missing.
 *
 * @example text(messages.en, 'signin.with', { provider: 'GitHub' }) // 'Sign in with GitHub'
 */
export function text(table: Record<string, string>, id: string, values?: Record<string, string>): string {
	return format(table[id] ?? (en as MessageTable)[id] ?? id, values);
}
