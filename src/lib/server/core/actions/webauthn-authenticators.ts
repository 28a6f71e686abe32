// GET|POST {basePath}/webauthn-authenticators/:provider: the signed-in user's passkeys (safe
// fields only), and removal of one of them (POST `{ credentialID, csrfToken }`).

import { assertAdapterMethods, type GuardedAdapter } from '../store/adapter-guard.js';
import type { RequestBody } from '../request/body.js';
import { signedInUser } from '../flows/complete-sign-in.js';
import type { RequestContext } from '../request/context.js';
import { CallbackRouteError, InvalidProvider, InvalidRequest, SessionRequired } from '../errors.js';
import type { Outcome } from '../response/outcome.js';
import type { AdapterAuthenticator, AdapterUser, WebAuthnConfig } from '../types.js';
import { answerWebAuthn } from '../flows/passkey/webauthn-answer.js';
import { splitTransports } from '../flows/passkey/webauthn-register.js';
import { assertCsrf, findProvider } from '../request/request-checks.js';

/** A passkey as the app may show it: no public key, no counter. */
export interface PasskeySummary {
	credentialID: string;
	credentialDeviceType: string;
	credentialBackedUp: boolean;
	transports: string[];
}

/**
 * Lists the signed-in user's passkeys as `{ authenticators: PasskeySummary[] }`; 401 without a session.
 *
 * @example
 * // GET /auth/webauthn-authenticators/passkey → { "authenticators": [{ "credentialID": "…", "credentialDeviceType": "multiDevice", … }] }
 */
export async function listWebAuthnAuthenticators(ctx: RequestContext, providerId: string | undefined, _body: RequestBody): Promise<Outcome> {
	return answerWebAuthn(ctx, async () => {
		const { adapter } = passkeyProvider(ctx, providerId);
		const user = await signedInUser(ctx, adapter);
		if (!user) return notSignedIn();
		return { type: 'json', body: { authenticators: await summaries(adapter, user) } };
	});
}

/**
 * Removes one of the signed-in user's passkeys (its authenticator and its `webauthn` account) and
 * answers the remaining list. `InvalidRequest` when the user has no passkey with that ID.
 *
 * @example
 * // POST /auth/webauthn-authenticators/passkey  { "credentialID": "…", "csrfToken": "…" }
 */
export async function deleteWebAuthnAuthenticator(ctx: RequestContext, providerId: string | undefined, body: RequestBody): Promise<Outcome> {
	return answerWebAuthn(ctx, async () => {
		const { provider, adapter } = passkeyProvider(ctx, providerId);
		assertCsrf(ctx, body);
		const credentialID = body.credentialID;
		if (typeof credentialID !== 'string' || !credentialID) throw new InvalidRequest('`credentialID` names the passkey to remove.');
		assertAdapterMethods(adapter, ['getAuthenticator', 'deleteAuthenticator', 'unlinkAccount', 'listAuthenticatorsByUserId']);
		const user = await signedInUser(ctx, adapter);
		if (!user) return notSignedIn();
		const authenticator = await adapter.getAuthenticator(credentialID);
		// another user's passkey looks exactly like a missing one
		if (!authenticator || authenticator.userId !== user.id) throw new InvalidRequest('The user has no passkey with this credential ID.');
		await adapter.deleteAuthenticator(credentialID);
		try {
			await adapter.unlinkAccount({ provider: provider.id, providerAccountId: authenticator.providerAccountId });
		} catch (error) {
			// the passkey can no longer sign in; a leftover account row is only logged
			ctx.config.logger.error(new CallbackRouteError('Could not unlink the account of a removed passkey.', { cause: { err: error } }));
		}
		return { type: 'json', body: { authenticators: await summaries(adapter, user) } };
	});
}

function passkeyProvider(ctx: RequestContext, providerId: string | undefined): { provider: WebAuthnConfig; adapter: GuardedAdapter } {
	const provider = findProvider(ctx, providerId);
	if (provider.type !== 'webauthn') throw new InvalidProvider(`Provider "${provider.id}" is not a passkey provider.`);
	return { provider, adapter: ctx.config.adapter! };
}

async function summaries(adapter: GuardedAdapter, user: AdapterUser): Promise<PasskeySummary[]> {
	const list: AdapterAuthenticator[] = await adapter.listAuthenticatorsByUserId(user.id);
	return list.map((a) => ({
		credentialID: a.credentialID,
		credentialDeviceType: a.credentialDeviceType,
		credentialBackedUp: a.credentialBackedUp,
		transports: splitTransports(a.transports) ?? []
	}));
}

function notSignedIn(): never {
	throw new SessionRequired('Managing passkeys needs a signed-in user.');
}
