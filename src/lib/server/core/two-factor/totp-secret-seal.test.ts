import { jwtDecrypt } from 'jose';
import { hkdfSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { openTotpSecret, sealTotpSecret } from './totp-secret-seal.js';
import { generateTotpSecret } from './totp.js';

const SECRET = 'totp-seal-test-secret-0123456789abcdef';
const OLD_SECRET = 'an-older-secret-0123456789abcdefghijkl';

describe('sealTotpSecret / openTotpSecret', () => {
	test('a TOTP secret is stored encrypted with a key derived from the app secret, and opens for its user', async () => {
		const totp = generateTotpSecret();
		const sealed = await sealTotpSecret(totp, { secret: SECRET, userId: 'user-1' });
		expect(sealed).not.toContain(totp);
		expect(sealed.split('.')).toHaveLength(5);
		expect(await openTotpSecret(sealed, { secret: SECRET, userId: 'user-1' })).toBe(totp);
		// a fresh IV every time
		expect(await sealTotpSecret(totp, { secret: SECRET, userId: 'user-1' })).not.toBe(sealed);
	});

	test('the sealed value is a standard JWE (dir, A256CBC-HS512) that jose opens with the HKDF key for this purpose', async () => {
		const totp = generateTotpSecret();
		const sealed = await sealTotpSecret(totp, { secret: SECRET, userId: 'u' });
		const key = new Uint8Array(hkdfSync('sha256', SECRET, 'kitgate.totp-secret', 'kitgate TOTP secret encryption key', 64));
		const { payload, protectedHeader } = await jwtDecrypt(sealed, key);
		expect(payload).toEqual({ totp, sub: 'u' });
		expect(protectedHeader).toMatchObject({ alg: 'dir', enc: 'A256CBC-HS512' });
	});

	test('another user, another app secret, a session key or a tampered value: null', async () => {
		const totp = generateTotpSecret();
		const sealed = await sealTotpSecret(totp, { secret: SECRET, userId: 'user-1' });
		expect(await openTotpSecret(sealed, { secret: SECRET, userId: 'user-2' })).toBeNull();
		expect(await openTotpSecret(sealed, { secret: OLD_SECRET, userId: 'user-1' })).toBeNull();
		const parts = sealed.split('.');
		const flipped = parts[3][0] === 'A' ? 'B' : 'A';
		expect(await openTotpSecret([...parts.slice(0, 3), flipped + parts[3].slice(1), parts[4]].join('.'), { secret: SECRET, userId: 'user-1' })).toBeNull();
		for (const garbage of ['', 'x', 'a.b.c.d.e', totp, undefined, null, 42]) {
			expect(await openTotpSecret(garbage as string, { secret: SECRET, userId: 'user-1' })).toBeNull();
		}
		// a session cookie made from the same secret is not a sealed TOTP secret
		const { encodeJwt } = await import('../crypto/jwt.js');
		const cookie = await encodeJwt({ token: { totp, sub: 'user-1' }, secret: SECRET, salt: 'kitgate.session-token', maxAge: 60 });
		expect(await openTotpSecret(cookie, { secret: SECRET, userId: 'user-1' })).toBeNull();
	});

	test('a secret rotation: values sealed under the old secret open while it stays in the list; new ones use the first', async () => {
		const totp = generateTotpSecret();
		const old = await sealTotpSecret(totp, { secret: OLD_SECRET, userId: 'u' });
		expect(await openTotpSecret(old, { secret: [SECRET, OLD_SECRET], userId: 'u' })).toBe(totp);
		const fresh = await sealTotpSecret(totp, { secret: [SECRET, OLD_SECRET], userId: 'u' });
		expect(await openTotpSecret(fresh, { secret: SECRET, userId: 'u' })).toBe(totp);
		expect(await openTotpSecret(old, { secret: SECRET, userId: 'u' })).toBeNull();
	});

	test('no app secret or no user id is a bug: it throws', async () => {
		await expect(sealTotpSecret('JBSWY3DP', { secret: '', userId: 'u' })).rejects.toThrow(TypeError);
		await expect(sealTotpSecret('JBSWY3DP', { secret: [], userId: 'u' })).rejects.toThrow(TypeError);
		await expect(sealTotpSecret('JBSWY3DP', { secret: SECRET, userId: '' })).rejects.toThrow(TypeError);
		await expect(sealTotpSecret('', { secret: SECRET, userId: 'u' })).rejects.toThrow(TypeError);
	});
});
