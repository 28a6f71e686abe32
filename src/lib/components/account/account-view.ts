// What the account components show, as pure functions of the overview and the message table: the
// texts, the form targets, dates, the names of passkeys and devices, and the notice of a change.
// Framework-free (no `$app/*`): the built-in account page renders the same components.

import type { PasskeyInfo, SessionInfo } from '../../server/core/account-types.js';
import { enAccountUi } from '../../messages/en-account-ui.js';
import { enPasskey } from '../../messages/en-passkey.js';
import { enTwoFactor } from '../../messages/en-two-factor.js';
import { format } from '../../messages/format.js';

/** The texts the account components ship: theirs, the passkey components' and the second factor's. */
export const accountTexts: Readonly<Record<string, string>> = { ...enPasskey, ...enTwoFactor, ...enAccountUi };

/**
 * The table a component reads: English, then what a layout set with `setMessages`, then its own `messages` prop.
 *
 * @example const t = accountTable(inheritedMessages(), messages);
 */
export function accountTable(
	inherited: Readonly<Record<string, string>> | undefined,
	messages: Readonly<Record<string, string>> | undefined
): Readonly<Record<string, string>> {
	return { ...accountTexts, ...inherited, ...messages };
}

/**
 * Where a change posts: `{basePath}/account/<change>`.
 *
 * @example accountAction('/auth', 'rename-passkey') // '/auth/account/rename-passkey'
 */
export function accountAction(basePath: string, change: string): string {
	return `${basePath.replace(/\/+$/, '')}/account/${change}`;
}

/**
 * A time of the overview (ISO) written out in the table's language and `timeZone` (default UTC,
 * so a server render and a prerender give the same text), or null. An unknown time zone falls back to UTC.
 *
 * @example formatTime('2026-06-01T12:00:00.000Z', enAccountUi) // 'Jun 1, 2026, 12:00 PM UTC'
 */
export function formatTime(iso: string | null | undefined, table: Readonly<Record<string, string>>, timeZone = 'UTC'): string | null {
	if (!iso) return null;
	const time = Date.parse(iso);
	if (!Number.isFinite(time)) return null;
	const locale = table['account.dateLocale'] || 'en';
	const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };
	try {
		return new Intl.DateTimeFormat(locale, { ...options, timeZone }).format(time);
	} catch {
		return new Intl.DateTimeFormat('en', { ...options, timeZone: 'UTC' }).format(time);
	}
}

/**
 * The name a passkey is shown by: the user's, else its authenticator's make, else "Passkey …" and
 * the end of its credential ID.
 *
 * @example passkeyLabel({ name: null, authenticatorName: 'iCloud Keychain', … }, t) // 'iCloud Keychain'
 */
export function passkeyLabel(passkey: Pick<PasskeyInfo, 'name' | 'authenticatorName' | 'credentialID'>, table: Readonly<Record<string, string>>): string {
	return passkey.name || passkey.authenticatorName || format(table['passkey.name'], { id: passkey.credentialID.slice(-6) });
}

/**
 * A session's device as a phrase: "Firefox on Linux".
 *
 * @example deviceLabel({ browser: 'Safari', os: 'iOS' }, t) // 'Safari on iOS'
 */
export function deviceLabel(session: Pick<SessionInfo, 'browser' | 'os'>, table: Readonly<Record<string, string>>): string {
	return format(table['account.sessions.device'], {
		browser: session.browser || table['account.sessions.unknownBrowser'],
		os: session.os || table['account.sessions.unknownOs']
	});
}

/** A notice to show: the text, and whether it reports a refusal (an alert) or a result (a status). */
export interface AccountNotice {
	text: string;
	alert: boolean;
}

/**
 * The notice of the last change, from the `?account=` and `?accountError=` of the page: an error
 * code gets its text (`account.error.<code>`, a passkey error's text, or the generic one); a
 * result its text, and an unknown result none.
 *
 * @example accountNotice('passkey-renamed', null, t) // { text: 'Passkey renamed.', alert: false }
 */
export function accountNotice(
	result: string | null | undefined,
	error: string | null | undefined,
	table: Readonly<Record<string, string>>
): AccountNotice | null {
	return changeNotice('account', result, error, table);
}

/** Whose change a notice tells: the account, admin and organization components share one notice. */
export type NoticeScope = 'account' | 'admin' | 'organization';

/**
 * The notice of the last change of `scope`: the text of `<scope>.result.<result>` as a status, or of
 * `<scope>.error.<error>` (the account's passkey errors too; `<scope>.error.Default` for an unknown
 * code) as an alert; null when there is nothing to say. Only the table's own keys are read.
 *
 * @example changeNotice('admin', 'banned', null, t) // { text: 'The user was banned and signed out everywhere.', alert: false }
 */
export function changeNotice(
	scope: NoticeScope,
	result: string | null | undefined,
	error: string | null | undefined,
	table: Readonly<Record<string, string>>
): AccountNotice | null {
	const own = (id: string) => (Object.hasOwn(table, id) ? table[id] : undefined);
	if (error) return { text: own(`${scope}.error.${error}`) ?? (scope === 'account' ? own(`passkey.error.${error}`) : undefined) ?? table[`${scope}.error.Default`], alert: true };
	const text = result ? own(`${scope}.result.${result}`) : undefined;
	return text ? { text, alert: false } : null;
}

/**
 * `url` (absolute, or relative to `base`) with `?account=` or `?accountError=` set and the other dropped.
 *
 * @example withAccountParam('/settings?tab=1', 'account', 'passkey-added', 'https://app.example') // 'https://app.example/settings?tab=1&account=passkey-added'
 */
export function withAccountParam(url: string, name: 'account' | 'accountError', value: string, base: string): string {
	const target = new URL(url, base);
	target.searchParams.delete('account');
	target.searchParams.delete('accountError');
	target.searchParams.set(name, value);
	return target.href;
}
