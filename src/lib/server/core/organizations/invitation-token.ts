// The token of an invitation link, `<invitationId>.<secret>`: the id finds the stored invitation,
// the secret proves the link came from its mail. Only a keyed hash of the secret is stored (HMAC
// with the app secret, bound to the invitation's id), so a copy of the database holds no working
// link and a secret of one invitation matches no other. Pure but for the random draw.

import { hex, stringsEqual } from '../crypto/bytes.js';
import { hmac } from '../crypto/hash.js';
import { randomToken } from '../crypto/random.js';

/** Random bytes in a secret (written as 43 base64url characters). */
export const INVITATION_SECRET_BYTES = 32;

const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Invitation ids are kitgate's own (UUIDs); anything else is refused before a lookup. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Longest token looked at: an id, the dot, the secret. */
const MAX_TOKEN_LENGTH = 64 + 1 + 43;

/** A token split into its parts. */
export interface InvitationTokenParts {
	invitationId: string;
	secret: string;
}

/**
 * A fresh secret for a new invitation: 32 random bytes, base64url.
 *
 * @example
 * const secret = newInvitationSecret(); // 43 characters
 */
export function newInvitationSecret(): string {
	return randomToken(INVITATION_SECRET_BYTES, 'base64url');
}

/**
 * The token a link carries.
 *
 * @example
 * invitationToken('inv-1', secret); // 'inv-1.<secret>'
 */
export function invitationToken(invitationId: string, secret: string): string {
	return `${invitationId}.${secret}`;
}

/**
 * The parts of `token`, or null unless it is exactly `<id>.<secret>` with an id of at most 64
 * URL-safe characters and a 43-character base64url secret. Pure.
 *
 * @example
 * parseInvitationToken('inv-1.' + secret); // { invitationId: 'inv-1', secret }
 */
export function parseInvitationToken(token: unknown): InvitationTokenParts | null {
	if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
	const dot = token.indexOf('.');
	if (dot < 0 || dot !== token.lastIndexOf('.')) return null;
	const invitationId = token.slice(0, dot);
	const secret = token.slice(dot + 1);
	if (!ID_PATTERN.test(invitationId) || !SECRET_PATTERN.test(secret)) return null;
	return { invitationId, secret };
}

/**
 * The stored value of `secret`: HMAC-SHA256 under `appSecret` over a label of its own, the
 * invitation's id and the secret (unambiguous JSON), hex. Pure.
 *
 * @example
 * await adapter.createInvitation({ ...invitation, tokenHash: hashInvitationSecret(id, secret, config.secrets[0]) });
 */
export function hashInvitationSecret(invitationId: string, secret: string, appSecret: string): string {
	return hex(hmac('sha256', appSecret, JSON.stringify(['kitgate invitation', invitationId, secret])));
}

/**
 * True when `secret` is the one whose hash was stored for the invitation `invitationId`, under the
 * current app secret or an older one still configured (rotation); compared in constant time. A
 * secret removed from the config ends every link hashed under it. Pure.
 *
 * @example
 * if (!invitationSecretMatches(stored.id, stored.tokenHash, parts.secret, config.secrets)) throw new InvitationInvalid('…');
 */
export function invitationSecretMatches(invitationId: string, tokenHash: string, secret: string, appSecrets: readonly string[]): boolean {
	let matched = false;
	// every configured secret is tried, so the time does not tell which one matched
	for (const appSecret of appSecrets) {
		if (stringsEqual(hashInvitationSecret(invitationId, secret, appSecret), tokenHash)) matched = true;
	}
	return matched;
}
