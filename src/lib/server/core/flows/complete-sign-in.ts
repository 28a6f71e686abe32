// The shared end of every sign-in that yields a provider identity (OAuth now; email and passkeys
// later): find or create the user, link the account, run callbacks and events, start the session.

import { isUniqueViolation } from '../store/unique-violation.js';
import { assertAdapterMethods, type AdapterMethod, type GuardedAdapter } from '../store/adapter-guard.js';
import type { RequestContext } from '../request/context.js';
import { AccessDenied, AuthError, CallbackRouteError, OAuthAccountNotLinked } from '../errors.js';
import { emitEvent } from '../config/events.js';
import { pageUrl, type Outcome } from '../response/outcome.js';
import { foundForToken } from '../session/found-for-token.js';
import { decodeSessionCookie, establishSession, sessionCookieValue, sessionMethods } from '../session/session.js';
import { revocationState } from '../session/revocation.js';
import { signedInSessionOfToken, type SignedInSession } from './session-user.js';
import { decideLinking, isEmailRefuted, type LinkingDecision } from './linking-policy.js';
import { checkSignInAllowed } from './sign-in-callback.js';
import { rememberUpstreamAccount } from './oauth/token-refresh.js';
import { secondFactorGate } from '../two-factor/second-factor.js';
import type { Account, AdapterAccount, AdapterUser, Profile, Provider, User } from '../types.js';
import { sendSecurityNotice } from '../account/security-notice.js';
import { endEmailChangeLinks } from '../account/email-change-links.js';
import { fillEmptyProfile } from './fill-empty-profile.js';
import { refuseBannedUser } from '../session/ban.js';
import { isImpersonatedRequest, refuseWhileImpersonating } from '../admin/impersonation-guard.js';
import { recordUserCreated } from './sign-in-bookkeeping.js';
import { keyedQueue } from '../util/one-at-a-time.js';

/** What a provider flow hands over once it knows who signed in. */
export interface CompletedSignIn {
	provider: Provider;
	/** The raw profile of the identity provider (ID token claims, userinfo, …). */
	profile: Profile;
	/** The user `profile()` made; its `id` is the account's `providerAccountId`. */
	user: User;
	account: Account;
	/** Where to go afterwards (already through the `redirect` callback). */
	callbackUrl: string;
	/** Passed to the `signIn` callback by the email flow. */
	email?: { verificationRequest?: boolean };
	/**
	 * The id of the user who was signed in when this OAuth flow started (from its check cookie):
	 * only then may a new account join the signed-in user.
	 */
	linkRequestedBy?: string;
	/**
	 * The flow's last check of the stored user the sign-in resolved to (when there is one), run
	 * before the `signIn` callback and any write: it throws to refuse (the email flow refuses a
	 * link made before that user signed out everywhere).
	 */
	refuseFor?: (user: AdapterUser) => Promise<void>;
}

/** How the adapter side of a sign-in resolves, decided before anything is written. */
type Plan =
	| { kind: 'existing'; user: AdapterUser; proven: boolean }
	/** `pin`: the credentials account that maps the signed-in credentials session to `user`, to link first. */
	| { kind: 'link'; user: AdapterUser; proven: boolean; pin?: AdapterAccount }
	| { kind: 'create'; verified: boolean; release?: AdapterUser };

/** Waits between re-reads while a concurrent first sign-in of the same identity finishes (ms). */
const RACE_RETRY_DELAYS = [0, 10, 25, 50, 100, 200, 400, 800];
/** Re-reads before refusing an email match, in case another process is mid-way through creating this identity (ms). */
const CROSS_PROCESS_RECHECK_DELAYS = [20, 80, 200];

/**
 * Signs in a user a provider vouched for and returns where to send the browser.
 *
 * With an adapter, `decideLinking` (./linking-policy.ts) decides whose sign-in it is: the
 * account's user; for a new account, the signed-in user only when that user started this OAuth
 * flow, else the user holding the address when both proved it, else a new user (`createUser`,
 * `linkAccount` events). A refusal is `OAuthAccountNotLinked`. The `signIn` callback runs before
 * anything is written. Two concurrent first sign-ins of one identity end with one user and one
 * account. Without an adapter the JWT holds the user (`sub` = the profile id).
 *
 * @example
 * return completeSignIn(ctx, { provider, profile, user, account, callbackUrl });
 */
export async function completeSignIn(ctx: RequestContext, signIn: CompletedSignIn): Promise<Outcome> {
	const { provider, profile, account, callbackUrl, email } = signIn;
	const adapter = ctx.config.adapter;
	if (!adapter) {
		const denied = await checkSignInAllowed(ctx, { user: signIn.user, account, profile, email });
		if (denied) return { type: 'redirect', url: denied.redirect };
		await startSession(ctx, signIn.user, account, profile, undefined);
		await emitEvent(ctx, 'signIn', { user: signIn.user, account, profile });
		return { type: 'redirect', url: callbackUrl };
	}

	assertAdapterMethods(adapter, neededMethods(ctx));
	const address = signIn.user.email ? `address\u0000${signIn.user.email}` : undefined;
	const decided = await oneSignInAtATime(`${account.provider}\u0000${account.providerAccountId}`, () => oneSignInAtATime(address, async () => {
		let plan: Plan;
		try {
			plan = await planSignIn(ctx, adapter, signIn);
		} catch (error) {
			throw asSignInError(error, 'Reading the user and account failed.');
		}
		if (plan.kind !== 'create') {
			// a banned user gets no session by any way in (an email link is refused at its use)
			await refuseBannedUser(ctx, plan.user.id);
			await signIn.refuseFor?.(plan.user);
		}
		const denied = await checkSignInAllowed(ctx, {
			user: plan.kind === 'create' ? signIn.user : plan.user,
			account,
			profile,
			email
		});
		if (denied) return denied;
		try {
			return await carryOut(ctx, adapter, plan, signIn);
		} catch (error) {
			throw asSignInError(error, 'Storing the user or account failed.');
		}
	}));
	if ('redirect' in decided) return { type: 'redirect', url: decided.redirect };
	const { user, isNewUser } = decided;
	// a user with a second factor gets no session yet, unless they are connecting an account to the
	// session they still have (the explicit link; a link finished after sign-out is a sign-in)
	if (!(await connectsToOwnSession(ctx, adapter, signIn.linkRequestedBy, user.id))) {
		const gated = await secondFactorGate(ctx, { userId: user.id, user, account, profile, isNewUser, callbackUrl });
		if (gated) return gated;
	}
	await startSession(ctx, user, account, profile, isNewUser);
	await rememberUpstreamAccount(ctx, provider, account);
	await emitEvent(ctx, 'signIn', { user, account, profile, isNewUser });
	const newUserPage = isNewUser && ctx.config.pages.newUser;
	return { type: 'redirect', url: newUserPage ? pageUrl(ctx, 'newUser', { callbackUrl }) : callbackUrl };
}

/** True when this is the explicit link of `userId` and the request still carries that user's session. */
async function connectsToOwnSession(ctx: RequestContext, adapter: GuardedAdapter, linkRequestedBy: string | undefined, userId: string): Promise<boolean> {
	if (linkRequestedBy === undefined || linkRequestedBy !== userId) return false;
	const signedIn = await signedInUser(ctx, adapter).catch(() => null);
	return signedIn?.id === userId;
}

/**
 * Runs `task` after any earlier task for the same identity in this process has finished: two
 * first sign-ins of one account never interleave their reads and writes here. Across processes
 * the unique constraints and `concurrentWinner` settle the race. Also used by the credentials
 * flow (flows/credentials/stored-user.ts).
 *
 * @example
 * await oneSignInAtATime(`${account.provider}\u0000${account.providerAccountId}`, () => signIn());
 */
export const oneSignInAtATime = keyedQueue();

/** Every adapter method this sign-in may call, so a missing one fails before any write or spent token. */
export function neededMethods(ctx: RequestContext): AdapterMethod[] {
	return ['getUserByAccount', 'getUserByEmail', 'createUser', 'linkAccount', ...sessionMethods(ctx)];
}

/** Decides, by reading only, whose sign-in this is; throws `OAuthAccountNotLinked` when it must not proceed. */
async function planSignIn(ctx: RequestContext, adapter: GuardedAdapter, signIn: CompletedSignIn): Promise<Plan> {
	const { account, user, provider, profile } = signIn;
	const key = { provider: account.provider, providerAccountId: account.providerAccountId };
	// the signed-in user matters only to a connect flow (OAuth); a session that cannot be read connects nothing
	const [owner, session] = await Promise.all([
		adapter.getUserByAccount(key),
		account.type === 'email' ? null : signedInSession(ctx, adapter).catch((error: unknown) => sessionReadFailed(ctx, error))
	]);
	const signedIn = session?.user ?? null;
	const holder = !owner && user.email ? await adapter.getUserByEmail(user.email) : null;
	const arrival = account.type === 'email' ? 'email' : 'oauth';
	const proven = arrival === 'email' || provesAddress(provider, profile);
	const decision = decideLinking({
		arrival,
		owner,
		signedIn,
		linkRequestedBy: signIn.linkRequestedBy,
		holder: holder && {
			id: holder.id,
			verified: Boolean(holder.emailVerified),
			claimedBySignIn: !holder.emailVerified && (await hasSignInAccounts(adapter, holder.id))
		},
		proven
	});
	switch (decision.kind) {
		case 'existing':
			return { kind: 'existing', user: owner as AdapterUser, proven };
		case 'link':
			if (decision.because === 'requested') return { kind: 'link', user: signedIn as AdapterUser, proven, pin: session?.pin };
			return { kind: 'link', user: holder as AdapterUser, proven };
		case 'create':
			return { kind: 'create', verified: decision.verified, release: decision.release ? (holder as AdapterUser) : undefined };
		case 'refuse':
			return refusal(adapter, decision, signIn);
	}
}

/** Logs a session that could not be read during a sign-in, which then goes on as if nobody were signed in. */
function sessionReadFailed(ctx: RequestContext, error: unknown): null {
	ctx.config.logger.error(new CallbackRouteError('Reading the session of the request failed; the sign-in connects nothing to it.', { cause: { err: error } }));
	return null;
}

/** A refused sign-in, unless another server is just now linking this very account (then its user signs in). */
async function refusal(
	adapter: GuardedAdapter,
	decision: Extract<LinkingDecision, { kind: 'refuse' }>,
	signIn: CompletedSignIn
): Promise<Plan> {
	const { account, provider, profile } = signIn;
	if (decision.reason === 'account-of-another-user') {
		throw new OAuthAccountNotLinked(`The ${account.provider} account is already linked to another user than the one signed in.`);
	}
	const key = { provider: account.provider, providerAccountId: account.providerAccountId };
	// another server may be between createUser and linkAccount for this very identity
	for (const delay of CROSS_PROCESS_RECHECK_DELAYS) {
		await new Promise((resolve) => setTimeout(resolve, delay));
		const linked = await adapter.getUserByAccount(key);
		if (linked) return { kind: 'existing', user: linked, proven: false };
	}
	const why = isEmailRefuted(profile)
		? `"${provider.id}" says the address is not verified`
		: `"${provider.id}" is not trusted to verify addresses (allowDangerousEmailAccountLinking)`;
	throw new OAuthAccountNotLinked(
		`A user with this email already exists and ${why}, so the account is not linked to it. ` +
			'Sign in with a method that user already has, then connect this account.'
	);
}

/**
 * True when the user has an OAuth, passkey or credentials account: its unproven address came from
 * a sign-in. An adapter that cannot list accounts is assumed to have one (the safe answer).
 */
async function hasSignInAccounts(adapter: GuardedAdapter, userId: string): Promise<boolean> {
	if (!hasMethod(adapter, 'listAccountsByUserId')) return true;
	const accounts = await adapter.listAccountsByUserId(userId);
	return accounts.some((account) => account.type !== 'email');
}

/**
 * True when an OAuth identity proves its email address: the app trusts the provider to verify
 * addresses (`allowDangerousEmailAccountLinking`) and the profile does not say it is unverified.
 */
function provesAddress(provider: Provider, profile: Profile): boolean {
	const trusted = (provider as { allowDangerousEmailAccountLinking?: unknown }).allowDangerousEmailAccountLinking === true;
	return trusted && !isEmailRefuted(profile);
}

/** Writes what the plan needs and returns the signed-in user. */
async function carryOut(
	ctx: RequestContext,
	adapter: GuardedAdapter,
	plan: Plan,
	signIn: CompletedSignIn
): Promise<{ user: AdapterUser; isNewUser: boolean }> {
	const { account, user } = signIn;
	if (plan.kind === 'existing') {
		await refreshStoredTokens(ctx, adapter, account);
		const stored = await fillEmptyProfile(ctx, adapter, plan.user, account, user);
		return { user: plan.proven ? await markEmailVerified(ctx, adapter, stored, user.email) : stored, isNewUser: false };
	}
	if (plan.kind === 'link') {
		if (plan.pin) await pinCredentials(ctx, adapter, plan.pin, plan.user);
		await linkTo(ctx, adapter, plan.user, signIn);
		const stored = await fillEmptyProfile(ctx, adapter, plan.user, account, user);
		return { user: plan.proven ? await markEmailVerified(ctx, adapter, stored, user.email) : stored, isNewUser: false };
	}

	if (plan.release) await releaseAddress(ctx, adapter, plan.release);
	const { id: _providerId, ...fields } = user;
	const draft: AdapterUser = {
		...fields,
		id: crypto.randomUUID(),
		name: user.name ?? null,
		email: user.email ?? '',
		image: user.image ?? null,
		emailVerified: plan.verified && user.email ? new Date(ctx.now) : null
	};
	let created: AdapterUser;
	try {
		created = await adapter.createUser(draft);
	} catch (error) {
		// another request created this user first (same email): continue with its result
		if (!isUniqueViolation(error)) throw error;
		return { user: await concurrentWinner(adapter, account, draft.email), isNewUser: false };
	}
	try {
		await adapter.linkAccount(adapterAccount(account, created.id));
	} catch (error) {
		await removeOrphan(ctx, adapter, created.id);
		if (!isUniqueViolation(error)) throw error;
		return { user: await concurrentWinner(adapter, account, draft.email), isNewUser: false };
	}
	await recordUserCreated(ctx, created.id);
	await emitEvent(ctx, 'createUser', { user: created });
	await emitEvent(ctx, 'linkAccount', { user: created, account, profile: user });
	return { user: created, isNewUser: true };
}

/**
 * Takes an address from a user who claimed it without proving it, so that its proven owner gets a
 * user of their own (`updateUser` event). That user keeps its other ways in.
 */
async function releaseAddress(ctx: RequestContext, adapter: GuardedAdapter, claimant: AdapterUser): Promise<void> {
	const updated = await adapter.updateUser({ id: claimant.id, email: '', emailVerified: null });
	// its JWT sessions still carry the address: they end (database sessions read the user afresh)
	if (ctx.config.session.strategy === 'jwt') await revokeJwtSessions(ctx, claimant.id);
	ctx.config.logger.warn(
		'address-released',
		`User ${claimant.id} claimed an email address without proving it; a proven sign-in for that address took it over.`
	);
	await emitEvent(ctx, 'updateUser', { user: updated });
}

/**
 * Ends the JWT sessions of `userId` issued before the current second (the revocation store, as
 * `revokeSessions` does); a sign-in of that user in this very second is spared.
 */
async function revokeJwtSessions(ctx: RequestContext, userId: string): Promise<void> {
	try {
		await ctx.config.revocation.store.revoke(userId, Math.floor(ctx.now / 1000) * 1000, ctx.config.jwt.maxAge + 60);
	} catch (error) {
		ctx.config.logger.error(new CallbackRouteError(`Could not end the sessions of user ${userId}.`, { cause: { err: error } }));
	}
}

/**
 * A sign-in that proves the user's own address sets `emailVerified` the first time (`updateUser`
 * event). Later ones, and proofs of another address than the user's, change nothing.
 */
async function markEmailVerified(ctx: RequestContext, adapter: GuardedAdapter, user: AdapterUser, address: string | null | undefined): Promise<AdapterUser> {
	if (user.emailVerified || !address || user.email !== address) return user;
	const updated = await adapter.updateUser({ id: user.id, emailVerified: new Date(ctx.now) });
	await emitEvent(ctx, 'updateUser', { user: updated });
	return updated;
}

/**
 * Links the `credentials` account that maps a credentials JWT session to `owner` (found by its id,
 * flows/credentials/credentials-user.ts), before a new account joins `owner` on that session's
 * request: later decisions find the user by the account. Another owner meanwhile refuses.
 */
async function pinCredentials(ctx: RequestContext, adapter: GuardedAdapter, pin: AdapterAccount, owner: AdapterUser): Promise<void> {
	try {
		await adapter.linkAccount(pin);
	} catch (error) {
		if (!isUniqueViolation(error)) throw error;
		const linked = await adapter.getUserByAccount({ provider: pin.provider, providerAccountId: pin.providerAccountId });
		if (linked?.id === owner.id) return;
		throw new OAuthAccountNotLinked('The signed-in password sign-in was linked to another user meanwhile; nothing was connected.');
	}
	await emitEvent(ctx, 'linkAccount', { user: owner, account: pin, profile: owner });
}

/** Links the account to `owner`; a concurrent identical link is fine, another owner is not. */
async function linkTo(ctx: RequestContext, adapter: GuardedAdapter, owner: AdapterUser, signIn: CompletedSignIn): Promise<void> {
	const { account, user } = signIn;
	try {
		await adapter.linkAccount(adapterAccount(account, owner.id));
	} catch (error) {
		if (!isUniqueViolation(error)) throw error;
		const linked = await adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId });
		if (linked?.id === owner.id) return;
		throw new OAuthAccountNotLinked(`The ${account.provider} account was linked to another user meanwhile.`);
	}
	await emitEvent(ctx, 'linkAccount', { user: owner, account, profile: user });
	// a provider account is a new way in to an existing user: its owner hears of it
	if (account.type === 'oauth' || account.type === 'oidc') {
		await endEmailChangeLinks(ctx, owner.id);
		await sendSecurityNotice(ctx, owner.email, 'account-linked');
	}
}

/**
 * The user a concurrent sign-in of the same identity created: re-read until its `linkAccount`
 * lands. When none appears, the email belongs to someone else (`OAuthAccountNotLinked`).
 */
async function concurrentWinner(adapter: GuardedAdapter, account: Account, email: string): Promise<AdapterUser> {
	const key = { provider: account.provider, providerAccountId: account.providerAccountId };
	for (const delay of RACE_RETRY_DELAYS) {
		if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
		const winner = await adapter.getUserByAccount(key);
		if (winner) return winner;
	}
	if (email && (await adapter.getUserByEmail(email))) {
		throw new OAuthAccountNotLinked('A user with this email was created by a sign-in with another account meanwhile.');
	}
	throw new CallbackRouteError('A concurrent sign-in of the same account did not complete; try again.');
}

/** Deletes a user created by this sign-in whose account could not be linked (no orphan). */
async function removeOrphan(ctx: RequestContext, adapter: GuardedAdapter, userId: string): Promise<void> {
	try {
		await adapter.deleteUser(userId);
	} catch (error) {
		ctx.config.logger.error(
			new CallbackRouteError(`Could not delete user ${userId} whose account could not be linked.`, { cause: { err: error } })
		);
	}
}

/** A repeated sign-in brings new tokens: store them when the adapter can update accounts. */
async function refreshStoredTokens(ctx: RequestContext, adapter: GuardedAdapter, account: Account): Promise<void> {
	if (account.type === 'email' || !hasMethod(adapter, 'updateAccount')) return;
	const { type: _type, userId: _userId, ...tokens } = account;
	try {
		await adapter.updateAccount(tokens);
	} catch (error) {
		// the sign-in itself is valid; stale stored tokens are only logged
		ctx.config.logger.error(new CallbackRouteError('Could not store the new tokens of the account.', { cause: { err: error } }));
	}
}

/**
 * The stored user of the request's valid session, if any, for a decision that gives that user
 * something (connect an account, register a passkey, list them).
 *
 * Database sessions name their user. A JWT's `sub` is a stored user's id only when kitgate
 * recorded so at sign-in (session-subject.ts). A credentials session's `sub` is authorize()'s id:
 * its user is found as the credentials sign-in with database sessions finds it
 * (flows/credentials/credentials-user.ts), never by taking the id for a stored user's. A token
 * without the record (issued before it existed, or adopted from Auth.js) names the user with that
 * id only when that user has the token's address.
 *
 * @example
 * const user = await signedInUser(ctx, adapter); // null when nobody is signed in
 */
export async function signedInUser(ctx: RequestContext, adapter: GuardedAdapter): Promise<AdapterUser | null> {
	// what it hands out (a new passkey, a linked account, the passkey list) is never an impersonator's
	await refuseWhileImpersonating(ctx, 'passkeys or linked accounts');
	return (await signedInSession(ctx, adapter))?.user ?? null;
}

async function signedInSession(ctx: RequestContext, adapter: GuardedAdapter): Promise<SignedInSession | null> {
	const raw = sessionCookieValue(ctx);
	if (!raw) return null;
	// an impersonated session connects nothing to its user (a sign-in over it replaces it)
	if (await isImpersonatedRequest(ctx)) return null;
	if (ctx.config.session.strategy === 'database') {
		const found = foundForToken(await adapter.getSessionAndUser(raw), raw);
		return found && new Date(found.session.expires).getTime() > ctx.now ? { user: found.user } : null;
	}
	const token = await decodeSessionCookie(ctx);
	// an ended or revoked session is nobody, as for every read (a store that cannot answer is no proof either)
	if (!token || (await revocationState(ctx, token)) !== 'valid') return null;
	return signedInSessionOfToken(adapter, token);
}


async function startSession(
	ctx: RequestContext,
	user: User | AdapterUser,
	account: Account,
	profile: Profile,
	isNewUser: boolean | undefined
): Promise<void> {
	const started = await establishSession(ctx, { user, account, profile, isNewUser });
	if (!started) throw new AccessDenied('The jwt callback returned null: no session was started.');
}

/** True when the adapter has the optional method `name`. */
function hasMethod(adapter: GuardedAdapter, name: AdapterMethod): boolean {
	try {
		assertAdapterMethods(adapter, [name]);
		return true;
	} catch {
		return false;
	}
}

function adapterAccount(account: Account, userId: string): AdapterAccount {
	return { ...account, userId, type: account.type as AdapterAccount['type'] };
}

/** Kitgate errors pass; anything else (a failing adapter) becomes `CallbackRouteError`. */
function asSignInError(error: unknown, message: string): AuthError {
	return error instanceof AuthError ? error : new CallbackRouteError(message, { cause: { err: error } });
}
