// Invitations to an organization by email (docs/organizations.md, "Invitations"): sending one,
// revoking it, what its link shows, and accepting it. The routes (actions/organization-invitations.ts)
// and the server API call these; every permission goes through roles.ts. A link carries
// `<id>.<secret>` (invitation-token.ts) and binds to the invited address: only a user whose
// address, normalized as sign-in normalizes it, is that address can accept.

import { EventError, InvalidConfiguration, InvalidRequest, EmailSignin, InvitationExpired, InvitationInvalid, InvitationRevoked, InvitationUsed, InvitationWrongAddress, OrganizationAlreadyMember, OrganizationForbidden, OrganizationNotFound } from '../errors.js';
import type { ResolvedEmailConfig } from '../flows/email/email-provider.js';
import { isEmailAddress } from '../flows/email/email-identifier.js';
import type { RequestContext } from '../request/context.js';
import { assertAdapterMethods, type AdapterMethod, type GuardedAdapter } from '../store/adapter-guard.js';
import type { AdapterInvitation, AdapterMember, AdapterOrganization, AdapterUser, EmailConfig, EventCallbacks } from '../types.js';
import { resolveMessages } from '../../pages/messages.js';
import { hashInvitationSecret, invitationSecretMatches, invitationToken, newInvitationSecret, parseInvitationToken } from './invitation-token.js';
import { takeInvitationAttempt } from './invitation-limits.js';
import type { ResolvedOrganizationOptions } from '../config/organization-options.js';
import { isKnownRole, mayGrant, roleAllows } from './roles.js';
import { shownLogo } from './organization-input.js';

/** Longest address taken from a request. */
const MAX_ADDRESS_LENGTH = 320;
/** Longest id taken from a request (kitgate's ids are UUIDs). */
const MAX_ID_LENGTH = 128;

/** The adapter methods invitations use, checked before anything is written. */
const INVITATION_METHODS: AdapterMethod[] = [
	'getOrganization', 'getMembership', 'getUser', 'getUserByEmail', 'createInvitation', 'getInvitation',
	'listInvitationsByEmail', 'revokeInvitation', 'acceptInvitation', 'listTeams'
];

/**
 * What the invitation functions need of a request: the config, the clock, the public URL of the
 * auth routes (the only base of a link) and the request handed to `sendAccountEmail`. A
 * `RequestContext` is one; a server script builds one with its public `authUrl`.
 */
export type InvitationScope = Pick<RequestContext, 'config' | 'now' | 'authUrl' | 'request'>;

/** Who acts: a member (`user` when already loaded, else read by `userId`), or a server script. */
export type InvitationActor = { userId: string; user?: AdapterUser } | { system: true };

/**
 * The fields of an invitation (`organizationApi(…).invite`).
 *
 * @example
 * const input: InviteInput = { organizationId: 'org-1', email: 'bo@example.com', role: 'member' };
 */
export interface InviteInput {
	organizationId: string;
	/** The address to invite, as typed (normalized here). */
	email: string;
	/** Default `member`. */
	role?: string;
	/** A team of the organization the invitee joins too. */
	teamId?: string | null;
}

/**
 * An invitation as its sender may see it: never the secret, never its hash.
 *
 * @example
 * const sent: SentInvitation = await organizationApi(authConfig, { userId }).invite({ organizationId, email });
 */
export type SentInvitation = Omit<AdapterInvitation, 'tokenHash'>;

/** An accepted invitation: the new membership. */
export interface AcceptedInvitation {
	organizationId: string;
	member: AdapterMember;
}

/** What a link shows before it is accepted (the route adds the signed-in user and the CSRF token). */
export interface InvitationView {
	invitation: SentInvitation;
	organization: Pick<AdapterOrganization, 'id' | 'name' | 'slug' | 'logo'>;
	inviterName: string | null;
}

type Mailer = ResolvedEmailConfig & Required<Pick<EmailConfig, 'sendAccountEmail'>>;

/**
 * Invites `input.email` to an organization: the actor needs `invitation:create` and may offer only
 * a role they may grant. An address of a member is `OrganizationAlreadyMember`; an earlier pending
 * invitation to the address is revoked once the new mail went out. The link goes by
 * `sendAccountEmail` (`kind: 'organization-invitation'`) and lives `organizations.invitationMaxAge`.
 *
 * @example
 * const invitation = await inviteMember(ctx, { userId: user.id }, { organizationId: 'org-1', email: 'bo@example.com', role: 'member' });
 */
export async function inviteMember(scope: InvitationScope, actor: InvitationActor, input: InviteInput): Promise<SentInvitation> {
	const { options, adapter } = organizationsOf(scope);
	const mailer = invitationMailer(scope);
	const organizationId = idField(input.organizationId, 'organizationId');
	const role = input.role === undefined || input.role === '' ? 'member' : input.role;
	if (typeof role !== 'string' || !isKnownRole(options.roles, role)) throw new InvalidRequest('`role` is not a role of this app.');
	const email = normalizedAddress(mailer, input.email);
	const teamId = input.teamId === undefined || input.teamId === null || input.teamId === '' ? null : idField(input.teamId, 'teamId');

	const inviter = await actingMember(scope, adapter, actor, organizationId);
	if (inviter) {
		if (!roleAllows(options.roles, inviter.role, 'invitation', 'create')) throw new OrganizationForbidden('Your role may not invite members.');
		if (!mayGrant(options.roles, inviter.role, role)) throw new OrganizationForbidden(`Your role may not offer the role "${role}".`);
	}
	const organization = await adapter.getOrganization(organizationId);
	if (!organization) throw new OrganizationNotFound('No such organization.');
	if (teamId !== null && !(await adapter.listTeams(organizationId)).some((team) => team.id === teamId)) {
		throw new InvalidRequest('`teamId` is not a team of this organization.');
	}
	await takeInvitationAttempt(scope, organizationId, inviter?.user.id ?? null, email);

	const holder = await adapter.getUserByEmail(email);
	if (holder && (await adapter.getMembership(organizationId, holder.id))) throw new OrganizationAlreadyMember('This address belongs to a member already.');

	const secret = newInvitationSecret();
	const id = crypto.randomUUID();
	const invitation: AdapterInvitation = {
		id,
		organizationId,
		email,
		role,
		inviterId: inviter?.user.id ?? null,
		tokenHash: hashInvitationSecret(id, secret, scope.config.secrets[0]),
		teamId,
		status: 'pending',
		expires: new Date(scope.now + options.invitationMaxAge * 1000),
		createdAt: new Date(scope.now)
	};
	await adapter.createInvitation(invitation);
	try {
		await sendInvitation(scope, mailer, invitation, invitationUrl(scope, id, secret), {
			organizationName: organization.name,
			role,
			inviterName: inviter ? displayName(inviter.user) : null
		});
	} catch (error) {
		// a link nobody received must not wait in the store
		await Promise.resolve(adapter.revokeInvitation(id)).catch(() => undefined);
		throw error;
	}
	// only the newest invitation to an address works
	for (const earlier of await adapter.listInvitationsByEmail(email)) {
		if (earlier.id !== id && earlier.organizationId === organizationId && earlier.status === 'pending') await adapter.revokeInvitation(earlier.id);
	}
	await fireChange(scope, 'invite', actor, organizationId, holder?.id ?? null, { invitationId: id, role, teamId });
	return withoutHash(invitation);
}

/**
 * Revokes a pending invitation of the organization: the actor needs `invitation:cancel`. One
 * already accepted is `InvitationUsed`, one revoked `InvitationRevoked`; an id of another
 * organization is `InvitationInvalid`.
 *
 * @example
 * await revokeInvitation(ctx, { userId: user.id }, { organizationId: 'org-1', invitationId: 'inv-1' });
 */
export async function revokeInvitation(scope: InvitationScope, actor: InvitationActor, input: { organizationId: string; invitationId: string }): Promise<void> {
	const { options, adapter } = organizationsOf(scope);
	const organizationId = idField(input.organizationId, 'organizationId');
	const invitationId = idField(input.invitationId, 'invitationId');
	const member = await actingMember(scope, adapter, actor, organizationId);
	if (member && !roleAllows(options.roles, member.role, 'invitation', 'cancel')) throw new OrganizationForbidden('Your role may not revoke invitations.');
	if (!member && !(await adapter.getOrganization(organizationId))) throw new OrganizationNotFound('No such organization.');
	const invitation = await adapter.getInvitation(invitationId);
	if (!invitation || invitation.organizationId !== organizationId) throw new InvitationInvalid('This organization has no such invitation.');
	if (!(await adapter.revokeInvitation(invitationId))) throw statusFailure((await adapter.getInvitation(invitationId)) ?? invitation, scope.now);
	await fireChange(scope, 'revoke-invitation', actor, organizationId, null, { invitationId });
}

/**
 * What the link `token` shows: the invitation (pending and unexpired) and its organization. A
 * token that matches no invitation is `InvitationInvalid`; one revoked, used or expired fails with
 * its own code (`InvitationRevoked` too once its inviter may no longer offer it). Reads only: opening a link never joins.
 *
 * @example
 * const { organization, invitation } = await invitationDetail(ctx, url.searchParams.get('token'));
 */
export async function invitationDetail(scope: InvitationScope, token: unknown): Promise<InvitationView> {
	const { adapter } = organizationsOf(scope);
	const invitation = await usableInvitation(scope, adapter, token);
	const organization = await adapter.getOrganization(invitation.organizationId);
	if (!organization) throw new InvitationInvalid('The organization of this invitation no longer exists.');
	const inviter = invitation.inviterId ? await adapter.getUser(invitation.inviterId) : null;
	return {
		invitation: withoutHash(invitation),
		organization: { id: organization.id, name: organization.name, slug: organization.slug, logo: shownLogo(organization.logo) },
		inviterName: inviter ? displayName(inviter) : null
	};
}

/**
 * Accepts the invitation of `token` as the signed-in user `actor`: their address, normalized as
 * sign-in normalizes it, must be the invited one and proven (`emailVerified`; else
 * `InvitationWrongAddress`). Through the
 * adapter's atomic `acceptInvitation`: of two concurrent accepts one joins, the other gets
 * `InvitationUsed`.
 *
 * @example
 * const { organizationId } = await acceptInvitation(ctx, { userId: user.id }, { token });
 */
export async function acceptInvitation(scope: InvitationScope, actor: { userId: string; user?: AdapterUser }, input: { token: unknown }): Promise<AcceptedInvitation> {
	const { adapter } = organizationsOf(scope);
	const mailer = invitationMailer(scope);
	const invitation = await usableInvitation(scope, adapter, input.token);
	const user = await actorUser(adapter, actor);
	if (!user || !sameAddress(mailer, user.email, invitation.email)) {
		throw new InvitationWrongAddress('This invitation was sent to another address than the signed-in user\'s.');
	}
	// a forwarded link plus an account that only claims the address (a credentials sign-up, an
	// unverified provider address) must not join: the address has to be proven, as an email sign-in does
	if (!user.emailVerified) throw new InvitationWrongAddress('The signed-in user has not proven the invited address: sign in by email with it first.');
	if (await adapter.getMembership(invitation.organizationId, user.id)) {
		// a concurrent accept of this very link may have made the membership: say it was used, as the adapter would
		const current = await adapter.getInvitation(invitation.id);
		if (current && current.status !== 'pending') throw statusFailure(current, scope.now);
		throw new OrganizationAlreadyMember('You are a member of this organization already.');
	}
	const member: AdapterMember = { id: crypto.randomUUID(), organizationId: invitation.organizationId, userId: user.id, role: invitation.role, createdAt: new Date(scope.now) };
	const joined = await adapter.acceptInvitation(invitation.id, member, new Date(scope.now));
	if (!joined) {
		const now = await adapter.getInvitation(invitation.id);
		if (now && now.status === 'pending' && now.expires.getTime() > scope.now) throw new OrganizationAlreadyMember('You are a member of this organization already.');
		throw statusFailure(now ?? invitation, scope.now);
	}
	await fireChange(scope, 'accept-invitation', { userId: user.id }, invitation.organizationId, user.id, { invitationId: invitation.id, role: invitation.role });
	return { organizationId: invitation.organizationId, member: joined };
}

/**
 * The email provider that sends invitations: the one `organizations.emailProvider` names, else the
 * only email provider with `sendAccountEmail`. `InvalidConfiguration` saying what to set when there
 * is none (the start-up check of organization-options.ts refuses such a config before).
 *
 * @example
 * const mailer = invitationMailer(ctx);
 */
export function invitationMailer(scope: Pick<InvitationScope, 'config'>): Mailer {
	const named = scope.config.organizations?.emailProvider;
	const emails = scope.config.providers.filter((provider): provider is EmailConfig => provider.type === 'email');
	const chosen = named === undefined ? emails.filter((provider) => typeof provider.sendAccountEmail === 'function') : emails.filter((provider) => provider.id === named);
	if (chosen.length !== 1 || typeof chosen[0].sendAccountEmail !== 'function') {
		const why = named !== undefined
			? `organizations.emailProvider is "${named}", ${chosen.length ? 'which has no `sendAccountEmail`' : 'which is not an email provider of this config'}`
			: chosen.length ? 'several email providers can send account mails: name one in organizations.emailProvider' : 'no email provider with `sendAccountEmail` is configured';
		throw new InvalidConfiguration(`Invitations cannot be sent: ${why} (docs/organizations.md, "Invitations").`);
	}
	return chosen[0] as Mailer;
}

/**
 * The link of an invitation: the invitation page under the configured auth URL, never a host
 * taken from elsewhere. Its token is the link's one secret.
 *
 * @example
 * invitationUrl(ctx, id, secret); // 'https://example.com/auth/organizations/invitation?token=…'
 */
export function invitationUrl(scope: Pick<InvitationScope, 'authUrl'>, invitationId: string, secret: string): string {
	const url = new URL(`${scope.authUrl}/organizations/invitation`);
	url.searchParams.set('token', invitationToken(invitationId, secret));
	return url.href;
}

function organizationsOf(scope: InvitationScope): { options: ResolvedOrganizationOptions; adapter: GuardedAdapter } {
	const options = scope.config.organizations;
	if (!options) throw new InvalidConfiguration('Organizations are off: set `organizations` in the config.');
	const adapter = scope.config.adapter;
	if (!adapter) throw new InvalidConfiguration('Organizations need an adapter.');
	assertAdapterMethods(adapter, INVITATION_METHODS);
	return { options, adapter };
}

/** The invitation of `token` when its secret matches and it can still be accepted; else the failure that says why. */
async function usableInvitation(scope: InvitationScope, adapter: GuardedAdapter, token: unknown): Promise<AdapterInvitation> {
	const parts = parseInvitationToken(token);
	if (!parts) throw new InvitationInvalid('The invitation link is malformed.');
	const invitation = await adapter.getInvitation(parts.invitationId);
	// a forged secret learns nothing about the invitation, not even whether it was revoked
	if (!invitation || !invitationSecretMatches(invitation.id, invitation.tokenHash, parts.secret, scope.config.secrets)) {
		throw new InvitationInvalid('No invitation matches this link.');
	}
	if (invitation.status !== 'pending' || !(invitation.expires.getTime() > scope.now)) throw statusFailure(invitation, scope.now);
	if (!(await inviterStillOffers(scope, adapter, invitation))) throw new InvitationRevoked('The member who sent this invitation may no longer offer it.');
	return invitation;
}

/**
 * True while the invitation's inviter (none: a server script) is still a member who may invite and
 * grant its role: an admin demoted or removed must not keep a way back in through invitations they
 * sent to other addresses of theirs.
 */
async function inviterStillOffers(scope: InvitationScope, adapter: GuardedAdapter, invitation: AdapterInvitation): Promise<boolean> {
	if (!invitation.inviterId) return true;
	const roles = scope.config.organizations!.roles;
	const membership = await adapter.getMembership(invitation.organizationId, invitation.inviterId);
	if (!membership) return false;
	return roleAllows(roles, membership.member.role, 'invitation', 'create') && mayGrant(roles, membership.member.role, invitation.role);
}

/** Why an invitation can no longer be used or revoked. */
function statusFailure(invitation: AdapterInvitation, now: number): Error {
	if (invitation.status === 'accepted') return new InvitationUsed('This invitation was accepted already.');
	if (invitation.status === 'revoked') return new InvitationRevoked('This invitation was revoked.');
	if (!(invitation.expires.getTime() > now)) return new InvitationExpired(`This invitation expired at ${invitation.expires.toISOString()}.`);
	return new InvitationInvalid('This invitation cannot be used.');
}

/** The actor's membership of the organization with their user (null for a server script); `OrganizationNotFound` for a non-member. */
async function actingMember(
	scope: InvitationScope,
	adapter: GuardedAdapter,
	actor: InvitationActor,
	organizationId: string
): Promise<{ user: AdapterUser; role: string } | null> {
	if ('system' in actor) return null;
	const membership = await adapter.getMembership(organizationId, actor.userId);
	if (!membership) throw new OrganizationNotFound('No such organization.');
	const user = await actorUser(adapter, actor);
	if (!user) throw new OrganizationNotFound('No such organization.');
	return { user, role: membership.member.role };
}

async function actorUser(adapter: GuardedAdapter, actor: { userId: string; user?: AdapterUser }): Promise<AdapterUser | null> {
	return actor.user && actor.user.id === actor.userId ? actor.user : adapter.getUser(actor.userId);
}

/** The invited address as sign-in would store it; `InvalidRequest` for anything but one address. */
function normalizedAddress(mailer: Mailer, typed: unknown): string {
	if (typeof typed !== 'string' || typed.length === 0 || typed.length > MAX_ADDRESS_LENGTH) throw new InvalidRequest('`email` is the address to invite.');
	let email: unknown;
	try {
		email = mailer.normalizeIdentifier(typed);
	} catch {
		throw new InvalidRequest('`email` is not one valid email address.');
	}
	// whatever a custom normalizer returns, only an address is invited
	if (!isEmailAddress(email) || email.length > MAX_ADDRESS_LENGTH) throw new InvalidRequest('`email` is not one valid email address.');
	return email;
}

/** True when the user's address, normalized as sign-in normalizes it, is the invited one. */
function sameAddress(mailer: Mailer, userEmail: string | null | undefined, invited: string): boolean {
	if (!userEmail) return false;
	try {
		return mailer.normalizeIdentifier(userEmail) === invited;
	} catch {
		return false;
	}
}

function idField(value: unknown, name: string): string {
	if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH) throw new InvalidRequest(`\`${name}\` is missing or malformed.`);
	return value;
}

function displayName(user: AdapterUser): string | null {
	return user.name || user.email || null;
}

function withoutHash(invitation: AdapterInvitation): SentInvitation {
	const { tokenHash: _hash, ...rest } = invitation;
	return rest;
}

async function sendInvitation(
	scope: InvitationScope,
	mailer: Mailer,
	invitation: AdapterInvitation,
	url: string,
	details: { organizationName: string; role: string; inviterName: string | null }
): Promise<void> {
	try {
		await mailer.sendAccountEmail({
			kind: 'organization-invitation',
			identifier: invitation.email,
			url,
			newEmail: invitation.email,
			expires: invitation.expires,
			invitation: details,
			provider: mailer,
			theme: scope.config.theme,
			request: scope.request,
			locale: scope.config.locale,
			messages: resolveMessages(scope.config.locale, scope.config.messages)
		});
	} catch (error) {
		throw new EmailSignin(`Sending the invitation mail of provider "${mailer.id}" failed.`, { cause: { err: error } });
	}
}

/** `events.organizationChange`; a handler that throws is logged, never answered. */
async function fireChange(
	scope: InvitationScope,
	action: string,
	actor: InvitationActor,
	organizationId: string,
	subjectUserId: string | null,
	detail: Record<string, unknown>
): Promise<void> {
	const handler = scope.config.events.organizationChange as EventCallbacks['organizationChange'] | undefined;
	if (!handler) return;
	try {
		await handler({ action, actorId: 'system' in actor ? null : actor.userId, organizationId, subjectUserId, detail });
	} catch (error) {
		scope.config.logger.error(new EventError('The "organizationChange" event handler threw.', { cause: { err: error } }));
	}
}
