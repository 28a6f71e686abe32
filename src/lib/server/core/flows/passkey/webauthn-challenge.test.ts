// clientDataChallenge (webauthn-challenge.ts): the challenge a passkey response signed, read from
// its clientDataJSON; anything malformed is undefined, never a throw.

import { describe, expect, test } from 'vitest';
import { clientDataChallenge } from './webauthn-challenge.js';

describe('clientDataChallenge', () => {
	const encoded = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

	test('reads the challenge of a response’s clientDataJSON', () => {
		expect(clientDataChallenge({ response: { clientDataJSON: encoded({ type: 'webauthn.get', challenge: 'abc' }) } })).toBe('abc');
	});

	test('anything else is undefined, never a throw', () => {
		for (const data of [
			undefined,
			null,
			'text',
			[],
			{},
			{ response: null },
			{ response: { clientDataJSON: 42 } },
			{ response: { clientDataJSON: encoded('{') } },
			{ response: { clientDataJSON: encoded('null') } },
			{ response: { clientDataJSON: encoded({ challenge: '' }) } },
			{ response: { clientDataJSON: encoded({ challenge: ['abc'] }) } }
		]) {
			expect(clientDataChallenge(data)).toBeUndefined();
		}
	});
});
