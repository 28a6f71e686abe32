import { describe, test, expect } from 'vitest';
import { EncryptJWT, decodeProtectedHeader } from 'jose';
import { decodeJwt, deriveKey, encodeJwt } from './jwt.js';

const SECRET_A = 'jwt-test-secret-A-0123456789abcdefghij';
const SECRET_B = 'jwt-test-secret-B-0123456789abcdefghij';
const SALT = '__Secure-kitgate.session-token';
/** A fixed whole second, so `now` in milliseconds maps exactly to `iat`. */
const T = Date.UTC(2030, 0, 1, 12, 0, 0);
const TOLERANCE_MS = 15_000;

function encode(secret: string | string[], token: Record<string, unknown> = { sub: 'user-1', name: 'Ada' }, maxAge = 3600) {
	return encodeJwt({ token, secret, salt: SALT, maxAge, now: T });
}

function decode(token: string | undefined, secret: string | string[], now = T, salt = SALT) {
	return decodeJwt({ token, secret, salt, now });
}

/** Replaces a character in the middle of segment `segment` (or adds one when it is empty). */
function tamper(token: string, segment: number): string {
	const parts = token.split('.');
	const part = parts[segment];
	if (part.length === 0) {
		parts[segment] = 'AA';
	} else {
		const index = Math.floor(part.length / 2);
		parts[segment] = part.slice(0, index) + (part[index] === 'A' ? 'B' : 'A') + part.slice(index + 1);
	}
	return parts.join('.');
}

describe('encodeJwt / decodeJwt', () => {
	test('round trip keeps the claims and adds iat, exp and jti', async () => {
		const token = await encode(SECRET_A, { sub: 'user-1', name: 'Ada', custom: { role: 'admin' } }, 3600);
		const payload = await decode(token, SECRET_A);
		expect(payload).toMatchObject({ sub: 'user-1', name: 'Ada', custom: { role: 'admin' } });
		expect(payload?.iat).toBe(T / 1000);
		expect(payload?.exp).toBe(T / 1000 + 3600);
		expect(typeof payload?.jti).toBe('string');
	});

	test('each token has its own jti and ciphertext', async () => {
		const first = await encode(SECRET_A);
		const second = await encode(SECRET_A);
		expect(first).not.toBe(second);
		expect((await decode(first, SECRET_A))?.jti).not.toBe((await decode(second, SECRET_A))?.jti);
	});

	test('is a compact JWE with alg dir and enc A256CBC-HS512', async () => {
		const token = await encode(SECRET_A);
		const parts = token.split('.');
		expect(parts).toHaveLength(5);
		expect(parts[1]).toBe('');
		const header = decodeProtectedHeader(token);
		expect(header.alg).toBe('dir');
		expect(header.enc).toBe('A256CBC-HS512');
		expect(header.kid).toBe(deriveKey(SECRET_A, SALT).kid);
		expect(Object.keys(header).sort()).toEqual(['alg', 'enc', 'kid']);
	});

	test('the payload is not readable without the key', async () => {
		const token = await encode(SECRET_A, { sub: 'user-1', email: 'ada@example.com' });
		const decoded = token
			.split('.')
			.map((part) => Buffer.from(part, 'base64url').toString('latin1'))
			.join('');
		expect(decoded).not.toContain('ada@example.com');
	});

	test.each([
		[0, 'header'],
		[1, 'encrypted key'],
		[2, 'iv'],
		[3, 'ciphertext'],
		[4, 'tag']
	])('a change in segment %i (%s) makes the token invalid', async (segment) => {
		const token = await encode(SECRET_A);
		expect(await decode(token, SECRET_A)).not.toBeNull();
		const tampered = tamper(token, segment);
		expect(tampered).not.toBe(token);
		expect(await decode(tampered, SECRET_A)).toBeNull();
	});

	test('a truncated token is invalid', async () => {
		const token = await encode(SECRET_A);
		expect(await decode(token.slice(0, -2), SECRET_A)).toBeNull();
		expect(await decode(token.split('.').slice(0, 4).join('.'), SECRET_A)).toBeNull();
	});

	test('the wrong secret gives null', async () => {
		const token = await encode(SECRET_A);
		expect(await decode(token, SECRET_B)).toBeNull();
	});

	test('another salt (cookie name) gives null', async () => {
		const token = await encode(SECRET_A);
		expect(await decode(token, SECRET_A, T, 'kitgate.session-token')).toBeNull();
	});

	test('a token made with an older secret decodes after rotation', async () => {
		const token = await encode(SECRET_A);
		expect(await decode(token, [SECRET_B, SECRET_A])).toMatchObject({ sub: 'user-1' });
		expect(await decode(token, [SECRET_A, SECRET_B])).toMatchObject({ sub: 'user-1' });
	});

	test('new tokens are made with the first secret', async () => {
		const token = await encode([SECRET_B, SECRET_A]);
		expect(decodeProtectedHeader(token).kid).toBe(deriveKey(SECRET_B, SALT).kid);
		expect(await decode(token, [SECRET_B])).toMatchObject({ sub: 'user-1' });
		expect(await decode(token, [SECRET_A])).toBeNull();
		const older = await encode([SECRET_A, SECRET_B]);
		expect(await decode(older, [SECRET_B])).toBeNull();
	});

	test('an expired token gives null; one within its lifetime decodes', async () => {
		const token = await encode(SECRET_A, { sub: 'user-1' }, 60);
		expect(await decode(token, SECRET_A, T + 30_000)).toMatchObject({ sub: 'user-1' });
		expect(await decode(token, SECRET_A, T + 61_000 + TOLERANCE_MS)).toBeNull();
		expect(await decode(token, SECRET_A, T + 24 * 3600_000)).toBeNull();
	});

	test('a token a little past exp is still accepted within the clock tolerance', async () => {
		const token = await encode(SECRET_A, { sub: 'user-1' }, 60);
		expect(await decode(token, SECRET_A, T + 61_000)).toMatchObject({ sub: 'user-1' });
	});

	test('a token encrypted by plain jose with the derived key decodes (interop)', async () => {
		const { key } = deriveKey(SECRET_A, SALT);
		const now = T / 1000;
		const token = await new EncryptJWT({ sub: 'from-jose', email: 'j@example.com' })
			.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' })
			.setIssuedAt(now)
			.setExpirationTime(now + 600)
			.encrypt(key);
		expect(await decode(token, SECRET_A)).toMatchObject({ sub: 'from-jose', email: 'j@example.com' });
		expect(await decode(token, [SECRET_B, SECRET_A])).toMatchObject({ sub: 'from-jose' });
		expect(await decode(token, SECRET_A, T, 'another-cookie')).toBeNull();
	});

	test('a token with another algorithm in its header gives null', async () => {
		const { key } = deriveKey(SECRET_A, SALT);
		const token = await new EncryptJWT({ sub: 'x' })
			.setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
			.setExpirationTime(T / 1000 + 600)
			.encrypt(key.slice(0, 32));
		expect(await decode(token, SECRET_A)).toBeNull();
	});

	test('garbage strings give null without throwing', async () => {
		for (const garbage of ['', 'a.b.c', '....', 'x'.repeat(10_000), 'e30.....', '\u0000.\u0000.\u0000.\u0000.\u0000']) {
			await expect(decode(garbage, SECRET_A)).resolves.toBeNull();
		}
		await expect(decode(undefined, SECRET_A)).resolves.toBeNull();
	});
});

describe('decodeJwt of a token decoded before (the verified-token memo)', () => {
	test('each read gets its own object: a caller changing one changes no later read', async () => {
		const token = await encode(SECRET_A, { sub: 'user-1', roles: ['reader'] });
		const first = (await decode(token, SECRET_A)) as Record<string, unknown>;
		first.sub = 'admin';
		(first.roles as string[]).push('admin');
		expect(await decode(token, SECRET_A)).toMatchObject({ sub: 'user-1', roles: ['reader'] });
	});

	test('once a secret leaves the rotation, a token it made and that was read before is refused', async () => {
		const token = await encode(SECRET_A);
		expect(await decode(token, [SECRET_B, SECRET_A])).toMatchObject({ sub: 'user-1' });
		expect(await decode(token, [SECRET_B])).toBeNull();
		expect(await decode(token, SECRET_A, T, 'kitgate.session-token')).toBeNull();
	});

	test('a token encoded without a usable maxAge still decodes as JSON (exp written as null, as JSON.stringify would)', async () => {
		const { encodeJwt, decryptJwe, deriveKey } = { ...(await import('./jwt.js')), ...(await import('./jwe.js')) };
		const token = await encodeJwt({ token: { sub: 'x' }, secret: SECRET_A, salt: SALT, maxAge: Number.NaN });
		expect(await decryptJwe(token, deriveKey(SECRET_A, SALT).key)).toMatchObject({ sub: 'x', exp: null });
	});

	test('one secrets array changed in place (a rotation done by the caller) is read afresh, never with its old keys', async () => {
		const token = await encode(SECRET_A);
		const rotation = [SECRET_B, SECRET_A];
		expect(await decode(token, rotation)).toMatchObject({ sub: 'user-1' });
		rotation.pop();
		expect(await decode(token, rotation)).toBeNull();
		rotation.push(SECRET_A);
		expect(await decode(token, rotation)).toMatchObject({ sub: 'user-1' });
	});

	test('a tampered copy of a token read before is refused', async () => {
		const token = await encode(SECRET_A);
		expect(await decode(token, SECRET_A)).not.toBeNull();
		for (const segment of [0, 2, 3, 4]) expect(await decode(tamper(token, segment), SECRET_A)).toBeNull();
		expect(await decode(`${token}A`, SECRET_A)).toBeNull();
	});

	test('a token read before is still checked for expiry on each read', async () => {
		const token = await encode(SECRET_A, { sub: 'user-1' }, 60);
		expect(await decode(token, SECRET_A)).not.toBeNull();
		expect(await decode(token, SECRET_A, T + 61_000 + TOLERANCE_MS)).toBeNull();
		expect(await decode(token, SECRET_A)).not.toBeNull();
	});
});

describe('deriveKey', () => {
	test('returns the same cached object for the same inputs', () => {
		const first = deriveKey(SECRET_A, SALT);
		expect(deriveKey(SECRET_A, SALT)).toBe(first);
		expect(first.key).toBeInstanceOf(Uint8Array);
		expect(first.key.byteLength).toBe(64);
		expect(first.kid).toMatch(/^[A-Za-z0-9_-]{22}$/);
	});

	test('another secret or salt gives another key', () => {
		const base = deriveKey(SECRET_A, SALT);
		const otherSecret = deriveKey(SECRET_B, SALT);
		const otherSalt = deriveKey(SECRET_A, 'kitgate.session-token');
		expect(otherSecret).not.toBe(base);
		expect(otherSalt).not.toBe(base);
		expect(Buffer.from(otherSecret.key).equals(Buffer.from(base.key))).toBe(false);
		expect(Buffer.from(otherSalt.key).equals(Buffer.from(base.key))).toBe(false);
		expect(otherSecret.kid).not.toBe(base.kid);
	});
});
