// Values sealed for one purpose: a key HKDF derives from the app secret for that purpose only
// (its salt), so a value sealed for one (a pending sign-in, an enrolment, a trusted browser) never
// opens as another. Internal.

import type { RequestContext } from '../request/context.js';
import { base64url } from '../crypto/bytes.js';
import { digest, hkdfSha256 } from '../crypto/hash.js';
import { decryptJwe, encryptJwe, readJweHeader } from '../crypto/jwe.js';

interface SealKey {
	key: Uint8Array;
	kid: string;
}

const keyCache = new Map<string, SealKey>();

/** A key HKDF derives from the app secret for one purpose (`salt`): it opens nothing else. */
export function purposeKey(secret: string, salt: string): SealKey {
	const cacheKey = `${salt}\u0000${secret}`;
	let derived = keyCache.get(cacheKey);
	if (!derived) {
		const key = hkdfSha256(secret, salt, `kitgate ${salt} key`, 64);
		derived = { key, kid: base64url(digest('sha256', key)).slice(0, 22) };
		keyCache.set(cacheKey, derived);
	}
	return derived;
}

/**
 * Seals `payload` (with an expiry `exp`, seconds) under the first app secret for `salt`.
 *
 * @example
 * const value = await sealFor(ctx, 'kitgate.second-factor', { sub: user.id }, 300);
 */
export async function sealFor(ctx: RequestContext, salt: string, payload: Record<string, unknown>, maxAgeSeconds: number): Promise<string> {
	const { key, kid } = purposeKey(ctx.config.secrets[0], salt);
	return encryptJwe({ ...payload, exp: Math.floor(ctx.now / 1000) + maxAgeSeconds }, key, { kid });
}

/**
 * The payload `sealFor` sealed for `salt`, under any configured secret, or null (tampered, expired,
 * another purpose's).
 *
 * @example
 * const payload = await openFor(ctx, 'kitgate.second-factor', value);
 */
export async function openFor(ctx: RequestContext, salt: string, sealed: unknown): Promise<Record<string, unknown> | null> {
	if (typeof sealed !== 'string' || sealed.length > 40_000) return null;
	const header = readJweHeader(sealed);
	if (!header) return null;
	const keys = ctx.config.secrets.map((secret) => purposeKey(secret, salt));
	keys.sort((a, b) => Number(b.kid === header.kid) - Number(a.kid === header.kid));
	for (const { key } of keys) {
		const payload = await decryptJwe(sealed, key);
		if (!payload) continue;
		if (typeof payload.exp !== 'number' || payload.exp * 1000 <= ctx.now) return null;
		return payload;
	}
	return null;
}
