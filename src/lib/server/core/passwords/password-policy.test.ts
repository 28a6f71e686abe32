import { describe, expect, test } from 'vitest';
import { COMMON_PASSWORDS } from './common-passwords.js';
import { checkPassword, containsContextWord, isCommonPassword } from './password-policy.js';

describe('checkPassword: length (NIST SP 800-63B)', () => {
	test('a password of fewer than 8 characters is refused as too short; 8 is enough', async () => {
		expect(await checkPassword('qz7#Lp2')).toEqual({ ok: false, reasons: ['too-short'], length: 7, breachCheck: 'off' });
		expect(await checkPassword('qz7#Lp2x')).toEqual({ ok: true, reasons: [], length: 8, breachCheck: 'off' });
		expect((await checkPassword('')).reasons).toEqual(['too-short']);
		expect((await checkPassword(undefined as unknown as string)).reasons).toEqual(['too-short']);
	});

	test('passwords of 64 characters and more are accepted, up to maxLength (256 by default, at most 1024)', async () => {
		const sixtyFour = 'vX3#'.repeat(16);
		expect(await checkPassword(sixtyFour)).toMatchObject({ ok: true, length: 64 });
		expect(await checkPassword('vX3#'.repeat(64))).toMatchObject({ ok: true, length: 256 });
		expect(await checkPassword('vX3#'.repeat(64) + 'q')).toEqual({ ok: false, reasons: ['too-long'], length: 257, breachCheck: 'off' });
		expect((await checkPassword('vX3#'.repeat(256), { maxLength: 1024 })).ok).toBe(true);
	});

	test('length counts Unicode code points after NFKC normalisation, not UTF-16 units or bytes', async () => {
		// 7 emoji are 14 UTF-16 units: still too short
		expect(await checkPassword('🔑🔒🗝️🚪🧱🪟🛡'.replace('\uFE0F', ''))).toMatchObject({ reasons: ['too-short'], length: 7 });
		// "ﬃ" (one code point) is "ffi" after NFKC: 6 + 3 = 9
		expect(await checkPassword('qz7#Lpﬃ')).toMatchObject({ ok: true, length: 9 });
		// a combining accent: "é" as e + U+0301 is one code point after NFKC
		expect((await checkPassword('ze\u0301brA9#q')).length).toBe(8);
	});

	test('passwords of any composition are accepted: no rules on character classes', async () => {
		for (const password of ['qzxvbnmkjhgw', 'QZXVBNMKJHGW', '93857261048372', '#$%^&*()_+}{', 'zz zz zz zz zz', 'пароль-для-входа-7', '私のパスワードは長い', 'tab\there\tand\tthere']) {
			expect(await checkPassword(password), password).toMatchObject({ ok: true, reasons: [] });
		}
	});

	test('minLength can be raised (15 for a password used alone) but not lowered below 8; bounds are checked', async () => {
		expect((await checkPassword('qz7#Lp2xqz7#Lp2', { minLength: 15 })).ok).toBe(true);
		expect((await checkPassword('qz7#Lp2xqz7#Lp', { minLength: 15 })).reasons).toEqual(['too-short']);
		for (const options of [{ minLength: 7 }, { minLength: 8.5 }, { maxLength: 63 }, { maxLength: 1025 }, { minLength: 100, maxLength: 64 }]) {
			await expect(checkPassword('whatever-it-is', options)).rejects.toThrow(RangeError);
		}
	});
});

describe('checkPassword: common passwords', () => {
	test('the most common passwords are refused, whatever their case', async () => {
		for (const password of ['password', 'Password', 'PASSWORD1', '12345678', 'qwertyuiop', 'iloveyou', '1q2w3e4r5t', 'baseball', '19841984', '12341234']) {
			expect(await checkPassword(password), password).toMatchObject({ ok: false, reasons: ['common'] });
		}
	});

	test('the shipped list holds at least the top 3000 passwords of 8 characters or more, each 8 to 64 characters, lower case', () => {
		const list = COMMON_PASSWORDS.split('\n');
		expect(list.length).toBeGreaterThanOrEqual(10_000);
		expect(new Set(list).size).toBe(list.length);
		const outOfPolicy = list.filter((entry) => [...entry].length < 8 || [...entry].length > 64 || entry !== entry.toLowerCase().normalize('NFKC'));
		expect(outOfPolicy).toEqual([]);
		expect(list).toEqual([...list].sort());
	});

	test('isCommonPassword compares NFKC lower case', () => {
		expect(isCommonPassword('ＰＡＳＳＷＯＲＤ')).toBe(true);
		expect(isCommonPassword('sunshine')).toBe(true);
		expect(isCommonPassword('sunshine-over-the-fjord-7')).toBe(false);
	});
});

describe('checkPassword: context words', () => {
	test('a password containing a context word (site name, email, its local part, a name) is refused', async () => {
		const contextWords = ['Example Shop', 'ann.smith@mail.example', 'Ann Smith', undefined, null];
		for (const password of ['exampleshop2026!', 'My-Example-Shop-pw', 'ann.smith@mail.example', 'xx-annsmith-xx', 'ANN.SMITH-1999']) {
			expect(await checkPassword(password, { contextWords }), password).toMatchObject({ ok: false, reasons: ['context'] });
		}
		expect((await checkPassword('correct horse battery staple', { contextWords })).ok).toBe(true);
	});

	test('context words shorter than 4 characters are not used (they would refuse too much)', () => {
		expect(containsContextWord('ann-likes-long-walks', ['ann', 'Al'])).toBe(false);
		expect(containsContextWord('ann-likes-long-walks', ['walk'])).toBe(true);
	});

	test('a password can have several problems: all are reported', async () => {
		expect(await checkPassword('shop', { contextWords: ['shop'] })).toEqual({ ok: false, reasons: ['too-short', 'context'], length: 4, breachCheck: 'off' });
	});
});

describe('checkPassword: the online check is off unless asked for', () => {
	test('without pwnedPasswords no request is made (breachCheck: off)', async () => {
		// unit tests refuse sockets: a request would throw inside fetch and show as "unavailable"
		expect((await checkPassword('an uncommon passphrase 42')).breachCheck).toBe('off');
	});

	test('a password already refused is not sent, even as a hash prefix (breachCheck: skipped)', async () => {
		expect(await checkPassword('password', { pwnedPasswords: true })).toEqual({ ok: false, reasons: ['common'], length: 8, breachCheck: 'skipped' });
	});
});
