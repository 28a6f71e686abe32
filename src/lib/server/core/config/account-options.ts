// The `account` option resolved (account routes: docs/account.md) and the adapter methods each of
// their operations needs, so a missing one is named at start-up (when the app configures `account`)
// or before the operation writes anything.

import { hasAdapterMethod, type AdapterMethod } from '../store/adapter-guard.js';
import { InvalidConfiguration, MissingAdapter, MissingAdapterMethod } from '../errors.js';
import type { AccountOptions, Adapter, EmailConfig, Provider } from '../types.js';

/** Default seconds since the sign-in within which a sensitive change is allowed. */
export const DEFAULT_FRESH_SIGN_IN_MAX_AGE = 10 * 60;

/** The account routes' settings with defaults filled in. */
export interface ResolvedAccountOptions {
	/** False with `account: false`: the routes answer `UnknownAction`. */
	enabled: boolean;
	/** Seconds since the sign-in within which a sensitive change is allowed. */
	freshSignInMaxAge: number;
	/** The email provider that sends the mails of an email change; undefined when email changes are off. */
	emailProvider?: EmailConfig;
	/** Why email changes are off, for the error a request to change an address gets. */
	emailChangeOff?: string;
	deleteAccount: boolean;
	/** JWT sessions only: each session is recorded in the adapter's sessions table (jwt-sessions.ts). */
	listJwtSessions: boolean;
}

/** The operations of the account routes, each with the adapter methods it may call. */
export type AccountOperation =
	| 'overview'
	| 'unlink'
	| 'link'
	| 'rename-passkey'
	| 'remove-passkey'
	| 'end-session'
	| 'end-other-sessions'
	| 'change-email'
	| 'confirm-email'
	| 'delete'
	| 'two-factor-start'
	| 'two-factor-confirm'
	| 'two-factor-recovery-codes'
	| 'two-factor-remove';

const READ: AdapterMethod[] = ['getUser', 'listAccountsByUserId'];

/**
 * The adapter methods an operation may call, for a session `strategy` and whether passkeys are
 * configured. Pure.
 *
 * @example
 * accountMethods('end-session', 'database', false) // ['getUser', 'listAccountsByUserId', 'listSessionsByUserId', 'deleteSessionOfUser']
 */
export function accountMethods(operation: AccountOperation, strategy: 'jwt' | 'database', passkeys: boolean): AdapterMethod[] {
	const session: AdapterMethod[] = strategy === 'database' ? ['getSessionAndUser'] : [];
	const ways: AdapterMethod[] = passkeys ? ['listAuthenticatorsByUserId'] : [];
	switch (operation) {
		case 'overview':
			return [...READ, ...session, ...ways, ...(strategy === 'database' ? (['listSessionsByUserId'] as const) : [])];
		case 'unlink':
			return [...READ, ...session, ...ways, 'unlinkAccount'];
		case 'link':
			return [...READ, ...session];
		case 'rename-passkey':
			return [...READ, ...session, 'getAuthenticator', 'updateAuthenticator'];
		case 'remove-passkey':
			return [...READ, ...session, ...ways, 'listAuthenticatorsByUserId', 'getAuthenticator', 'deleteAuthenticator', 'unlinkAccount'];
		case 'end-session':
			return [...READ, ...session, 'listSessionsByUserId', 'deleteSessionOfUser'];
		case 'end-other-sessions':
			return strategy === 'database' ? [...READ, ...session, 'listSessionsByUserId', 'deleteSessionOfUser'] : [...READ];
		case 'change-email':
			return [...READ, ...session, 'getUserByEmail', 'createVerificationToken'];
		case 'confirm-email':
			return [...READ, ...session, 'useVerificationToken', 'getUserByEmail', 'updateUser'];
		case 'delete':
			return [...READ, ...session, 'deleteUser', ...(strategy === 'database' ? (['deleteSession'] as const) : [])];
		case 'two-factor-start':
			return [...READ, ...session, 'getTwoFactor'];
		case 'two-factor-confirm':
		case 'two-factor-recovery-codes':
		case 'two-factor-remove':
			// a change to the second factor ends the user's other sessions
			return [
				...READ,
				...session,
				'getTwoFactor',
				...(operation === 'two-factor-remove' ? (['deleteTwoFactor'] as const) : (['setTwoFactor'] as const)),
				// removal and new recovery codes check a current code first
				...(operation === 'two-factor-confirm' ? [] : (['useTotpStep', 'useRecoveryCode'] as const)),
				...(strategy === 'database' ? (['listSessionsByUserId', 'deleteSessionOfUser'] as const) : [])
			];
	}
}

/** Every operation, for the start-up check (the second factor's are optional: checked when used, the message naming the method). */
const OPERATIONS: AccountOperation[] = [
	'overview', 'unlink', 'link', 'rename-passkey', 'remove-passkey', 'end-session', 'end-other-sessions', 'change-email', 'confirm-email', 'delete'
];

/**
 * Resolves `config.account`. With an object (the app asked for the account routes), checks now
 * that there is an adapter with every method the enabled operations need, and that the email
 * provider can send the mails of an email change; the message names what is missing.
 *
 * @example
 * resolveAccountOptions({ freshSignIn: { maxAge: 300 } }, { adapter, providers, strategy: 'database' }).freshSignInMaxAge // 300
 */
export function resolveAccountOptions(
	option: AccountOptions | false | undefined,
	facts: { adapter?: Adapter; providers: Provider[]; strategy: 'jwt' | 'database' }
): ResolvedAccountOptions {
	if (option === false) return { enabled: false, freshSignInMaxAge: DEFAULT_FRESH_SIGN_IN_MAX_AGE, deleteAccount: false, emailChangeOff: 'account is false', listJwtSessions: false };
	// without an adapter there is no stored account to manage: the routes are not there (an explicit `account` says why at start-up)
	if (option === undefined && !facts.adapter) return { enabled: false, freshSignInMaxAge: DEFAULT_FRESH_SIGN_IN_MAX_AGE, deleteAccount: false, emailChangeOff: 'there is no adapter', listJwtSessions: false };
	if (option !== undefined && (option === null || typeof option !== 'object')) {
		throw new InvalidConfiguration('account must be an object such as { freshSignIn: { maxAge: 600 } }, or false.');
	}
	const given = option ?? {};
	const maxAge = given.freshSignIn?.maxAge ?? DEFAULT_FRESH_SIGN_IN_MAX_AGE;
	if (typeof maxAge !== 'number' || !Number.isFinite(maxAge) || maxAge <= 0) {
		throw new InvalidConfiguration(`account.freshSignIn.maxAge must be a number of seconds above 0; got ${JSON.stringify(maxAge)}.`);
	}
	if (given.deleteAccount !== undefined && typeof given.deleteAccount !== 'boolean') {
		throw new InvalidConfiguration('account.deleteAccount must be true or false.');
	}
	if (given.listJwtSessions !== undefined && typeof given.listJwtSessions !== 'boolean') {
		throw new InvalidConfiguration('account.listJwtSessions must be true or false.');
	}
	const { provider: emailProvider, off: emailChangeOff } = emailChangeProvider(given.emailChange, facts.providers);
	const resolved: ResolvedAccountOptions = {
		enabled: true,
		freshSignInMaxAge: maxAge,
		emailProvider,
		emailChangeOff,
		deleteAccount: given.deleteAccount ?? true,
		listJwtSessions: facts.strategy === 'jwt' && given.listJwtSessions !== false && canListJwtSessions(facts.adapter)
	};
	if (option !== undefined) checkAtStartUp(resolved, given, facts);
	return resolved;
}

/** The adapter methods JWT session rows need: written at sign-in, listed, ended one by one. */
const JWT_SESSION_ROW_METHODS: AdapterMethod[] = ['createSession', 'listSessionsByUserId', 'deleteSessionOfUser', 'deleteSession'];

function canListJwtSessions(adapter: Adapter | undefined): boolean {
	return adapter !== undefined && JWT_SESSION_ROW_METHODS.every((method) => hasAdapterMethod(adapter, method));
}

function emailChangeProvider(option: AccountOptions['emailChange'], providers: Provider[]): { provider?: EmailConfig; off?: string } {
	if (option === false) return { off: 'account.emailChange is false' };
	if (option !== undefined && (option === null || typeof option !== 'object')) {
		throw new InvalidConfiguration('account.emailChange must be an object such as { provider: "email" }, or false.');
	}
	const emails = providers.filter((provider): provider is EmailConfig => provider.type === 'email');
	const named = option?.provider;
	if (named !== undefined) {
		const found = emails.find((provider) => provider.id === named);
		if (!found) throw new InvalidConfiguration(`account.emailChange.provider is "${named}", which is not an email provider of this config.`);
		return { provider: found };
	}
	if (emails.length === 0) return { off: 'there is no email provider to send the confirmation link' };
	if (emails.length > 1) return { off: 'there are several email providers: name one in account.emailChange.provider' };
	return { provider: emails[0] };
}

/** The start-up checks of an app that configured `account`. */
function checkAtStartUp(
	resolved: ResolvedAccountOptions,
	given: AccountOptions,
	facts: { adapter?: Adapter; providers: Provider[]; strategy: 'jwt' | 'database' }
): void {
	const { adapter, providers, strategy } = facts;
	if (!adapter) {
		throw new MissingAdapter('`account` (the account routes) reads and changes stored users and needs an adapter: pass `adapter`, or set `account: false`.');
	}
	const passkeys = providers.some((provider) => provider.type === 'webauthn');
	const skipped = new Set<AccountOperation>([
		...(resolved.emailProvider ? [] : (['change-email', 'confirm-email'] as const)),
		...(resolved.deleteAccount ? [] : (['delete'] as const)),
		...(passkeys ? [] : (['rename-passkey', 'remove-passkey'] as const))
	]);
	for (const operation of OPERATIONS) {
		if (skipped.has(operation)) continue;
		for (const method of accountMethods(operation, strategy, passkeys)) {
			if (!hasAdapterMethod(adapter, method)) {
				throw new MissingAdapterMethod(
					`The adapter has no \`${method}\` method, which the account routes need (${operation}). ` +
						'Add it to your adapter (docs/adapters.md), or turn the feature off in `account` (docs/account.md).'
				);
			}
		}
	}
	if (given.listJwtSessions === true && strategy === 'jwt') {
		const lacking = JWT_SESSION_ROW_METHODS.find((method) => !hasAdapterMethod(adapter, method));
		if (lacking) {
			throw new MissingAdapterMethod(`The adapter has no \`${lacking}\` method, which account.listJwtSessions needs to record JWT sessions. Add it, or leave listJwtSessions out.`);
		}
	}
	if (resolved.emailProvider && typeof resolved.emailProvider.sendAccountEmail !== 'function' && given.emailChange !== undefined) {
		throw new InvalidConfiguration(
			`Email provider "${resolved.emailProvider.id}" has no \`sendAccountEmail\`, which sends the mails of an email change: ` +
				'add one (docs/account.md, "Changing the email address"), or set `account: { emailChange: false }`.'
		);
	}
}
