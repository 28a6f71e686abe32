// The active organization of a session as every read shows it (docs/organizations.md, "Active
// organization"): its id (a JWT claim, or the database session's row) and `session.organization`,
// the membership asked of the adapter on every read, never from a copy.

import type { RequestContext } from '../request/context.js';
import { ownerOf } from './jwt-session-list.js';
import type { StoredSession } from './stored-session.js';
import type { AdapterMembership, SessionOrganization } from '../types.js';

/** The claim of a JWT session that holds the id of its active organization. */
export const ACTIVE_ORGANIZATION_CLAIM = 'activeOrganizationId';

/** Longest organization id kitgate looks up (generated ones are far shorter). */
const MAX_ORGANIZATION_ID_LENGTH = 255;

/** `value` when it can be an organization's id; anything else (a number a callback set, '') is none. Pure. */
function organizationIdOf(value: unknown): string | null {
	return typeof value === 'string' && value !== '' && value.length <= MAX_ORGANIZATION_ID_LENGTH ? value : null;
}

/**
 * The id of the stored session's active organization, or null: the JWT claim, or the database
 * session's `activeOrganizationId`. Only an id: whether the user is still a member is asked by
 * `sessionOrganizationOf`. Pure.
 *
 * @example
 * const id = activeOrganizationIdOf(stored); // 'org-1' | null
 */
export function activeOrganizationIdOf(stored: StoredSession): string | null {
	return organizationIdOf(stored.strategy === 'jwt' ? stored.token[ACTIVE_ORGANIZATION_CLAIM] : stored.activeOrganizationId);
}

/**
 * The stored user a session's memberships belong to: a database session's user; for a JWT, the
 * stored user a credentials session recorded (its owner), else `sub`. Pure.
 */
function memberUserIdOf(stored: StoredSession): string | null {
	if (stored.strategy === 'database') return stored.user.id;
	const { token } = stored;
	const owner = ownerOf(token);
	if (owner !== undefined) return owner;
	return typeof token.sub === 'string' && token.sub !== '' ? token.sub : null;
}

/** What a session shows of a membership. Pure. */
export function sessionOrganizationView(membership: AdapterMembership): SessionOrganization {
	const { organization, member } = membership;
	return { id: organization.id, name: organization.name, slug: organization.slug, logo: organization.logo ?? null, role: member.role };
}

/**
 * `session.organization` for the stored session, asked of the adapter on every read (never from a
 * copy): the active organization when its user is still a member of it, else undefined. Only
 * called with `organizations` in the config.
 *
 * @example
 * const organization = await sessionOrganizationOf(ctx, stored); // { id, name, slug, logo, role } | undefined
 */
export async function sessionOrganizationOf(ctx: RequestContext, stored: StoredSession): Promise<SessionOrganization | undefined> {
	const organizationId = activeOrganizationIdOf(stored);
	const userId = organizationId === null ? null : memberUserIdOf(stored);
	if (organizationId === null || userId === null) return undefined;
	const membership = await ctx.config.adapter!.getMembership(organizationId, userId);
	// the adapter answers by both ids; a row of another user or organization is never shown
	if (!membership || membership.organization.id !== organizationId || membership.member.userId !== userId) return undefined;
	return sessionOrganizationView(membership);
}
