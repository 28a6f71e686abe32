// Which of a user's stored accounts and passkeys are ways to sign in with this configuration, so
// that removing one never leaves the user without one. Pure.

import type { AdapterAccount, AdapterAuthenticator, AdapterUser, Provider } from '../types.js';

/** One way a user can sign in: a provider account, a passkey, or an email link to their proven address. */
export type WayIn =
	| { kind: 'account'; provider: string; providerAccountId: string }
	| { kind: 'passkey'; credentialID: string }
	| { kind: 'email'; provider: string };

/**
 * The ways `user` can sign in now: each account whose provider is configured (OAuth, OIDC,
 * credentials), each passkey when a passkey provider is configured, and an email link when an
 * email provider is configured and the user has an `email` account or a proven address. Pure.
 *
 * @example
 * waysIn(user, accounts, passkeys, providers).length; // 2
 */
export function waysIn(
	user: Pick<AdapterUser, 'email' | 'emailVerified'>,
	accounts: AdapterAccount[],
	passkeys: AdapterAuthenticator[],
	providers: Provider[]
): WayIn[] {
	const byId = new Map(providers.map((provider) => [provider.id, provider]));
	const ways: WayIn[] = [];
	for (const account of accounts) {
		const provider = byId.get(account.provider);
		if (!provider || provider.type === 'email' || provider.type === 'webauthn') continue;
		if (provider.type === account.type || (account.type === 'oauth' && provider.type === 'oidc') || (account.type === 'oidc' && provider.type === 'oauth')) {
			ways.push({ kind: 'account', provider: account.provider, providerAccountId: account.providerAccountId });
		}
	}
	const passkeyProvider = providers.find((provider) => provider.type === 'webauthn');
	// a passkey signs in through its authenticator row, whatever its account row says
	if (passkeyProvider) for (const passkey of passkeys) ways.push({ kind: 'passkey', credentialID: passkey.credentialID });
	const email = providers.find((provider) => provider.type === 'email');
	const hasEmailAccount = accounts.some((account) => account.type === 'email');
	if (email && user.email && (hasEmailAccount || user.emailVerified)) ways.push({ kind: 'email', provider: email.id });
	return ways;
}

/**
 * True when some way in is left once `way` is gone. Pure.
 *
 * @example
 * canRemove(ways, { kind: 'passkey', credentialID: 'abc' }); // false when it is the last way in
 */
export function canRemove(ways: WayIn[], way: WayIn): boolean {
	return ways.some((candidate) => !sameWay(candidate, way));
}

function sameWay(a: WayIn, b: WayIn): boolean {
	if (a.kind === 'account' && b.kind === 'account') return a.provider === b.provider && a.providerAccountId === b.providerAccountId;
	if (a.kind === 'passkey' && b.kind === 'passkey') return a.credentialID === b.credentialID;
	return a.kind === 'email' && b.kind === 'email' && a.provider === b.provider;
}
