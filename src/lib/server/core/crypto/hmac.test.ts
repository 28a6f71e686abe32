import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { secretHmac } from './hmac.js';

describe('secretHmac', () => {
	test('the same MAC as createHmac with the secret string, for SHA-256 and SHA-512, including non-ASCII secrets', () => {
		for (const secret of ['kitgate-test-secret-0123456789abcdefghij', 'ünïcödé-secret-with-more-than-32-chars-ok', 'x'.repeat(200)]) {
			for (const algorithm of ['sha256', 'sha512'] as const) {
				const message = `message for ${secret.length}`;
				expect(secretHmac(secret, algorithm).update(message).digest('hex')).toBe(createHmac(algorithm, secret).update(message).digest('hex'));
			}
		}
	});

	test('different secrets give different MACs; a key made once is reused', () => {
		const a = secretHmac('secret-a-0123456789abcdefghijklmnopq').update('m').digest('hex');
		const b = secretHmac('secret-b-0123456789abcdefghijklmnopq').update('m').digest('hex');
		expect(a).not.toBe(b);
		expect(secretHmac('secret-a-0123456789abcdefghijklmnopq').update('m').digest('hex')).toBe(a);
	});
});
