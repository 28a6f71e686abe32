// The message table as the built-in pages and the engine use it, and which texts a failure shows.
// The tables themselves live in `src/lib/messages/` (neutral: the components use them in the
// browser too); add texts there. Which code shows which text is the failure table's decision.

import { errorPageMessageIds, isErrorType, signInMessageId } from '../../failures.js';

export {
	format,
	localeOf,
	messages,
	resolveMessages,
	text,
	type Locale,
	type MessageTable
} from '../../messages/index.js';

/**
 * Title and body ids of the error page for `type`: a text the table has for this very code (a
 * translation or an override may add one), else the failure table's text, else `error.Default.*`.
 *
 * @example errorMessageIds(messages.en, 'Nope') // { title: 'error.Default.title', body: 'error.Default.body' }
 */
export function errorMessageIds(table: Record<string, string>, type: string): { title: string; body: string } {
	if (isErrorType(type) && Object.hasOwn(table, `error.${type}.title`)) {
		return { title: `error.${type}.title`, body: `error.${type}.body` };
	}
	return errorPageMessageIds(type);
}

/**
 * The id of the sign-in alert for error type `type` (`signin.error.Default` if it has none).
 *
 * @example signInErrorId(messages.en, 'CredentialsSignin') // 'signin.error.CredentialsSignin'
 */
export function signInErrorId(table: Record<string, string>, type: string): string {
	return signInMessageId(type, table);
}
