import { describe, expect, test } from 'vitest';
import { MAX_VERIFIED_TOKENS, rememberVerifiedToken, verifiedTokenPayload } from './verified-tokens.js';

const KEY = new Uint8Array(64).fill(1);
const OTHER_KEY = new Uint8Array(64).fill(1);

describe('verified-token memo', () => {
	test('a remembered token is found under its own key object only', () => {
		rememberVerifiedToken('token-a', KEY, { sub: 'a' });
		expect(verifiedTokenPayload('token-a', [KEY])).toEqual({ sub: 'a' });
		// equal bytes, another key object: not the key that authenticated it
		expect(verifiedTokenPayload('token-a', [OTHER_KEY])).toBeUndefined();
		expect(verifiedTokenPayload('token-a', [])).toBeUndefined();
		expect(verifiedTokenPayload('token-a ', [KEY])).toBeUndefined();
	});

	test('a token with the same last segment (tag) as a remembered one is not served its payload', () => {
		rememberVerifiedToken('head-1.iv.ciphertext.TAG', KEY, { sub: 'first' });
		expect(verifiedTokenPayload('head-2.iv.ciphertext.TAG', [KEY])).toBeUndefined();
		expect(verifiedTokenPayload('head-1.iv.ciphertext.TAG', [KEY])).toEqual({ sub: 'first' });
		// remembering the other one replaces the first: never two payloads under one tag
		rememberVerifiedToken('head-2.iv.ciphertext.TAG', KEY, { sub: 'second' });
		expect(verifiedTokenPayload('head-1.iv.ciphertext.TAG', [KEY])).toBeUndefined();
		expect(verifiedTokenPayload('head-2.iv.ciphertext.TAG', [KEY])).toEqual({ sub: 'second' });
	});

	test('each hit is a new object', () => {
		rememberVerifiedToken('token-b', KEY, { sub: 'b', nested: { n: 1 } });
		const first = verifiedTokenPayload('token-b', [KEY]) as { nested: { n: number } };
		first.nested.n = 2;
		expect(verifiedTokenPayload('token-b', [KEY])).toEqual({ sub: 'b', nested: { n: 1 } });
	});

	test('the payload handed to the first reader is not the one kept: changing it changes no later hit', () => {
		const payload = { sub: 'c', nested: { n: 1 }, list: [{ n: 1 }] };
		rememberVerifiedToken('token-c', KEY, payload);
		payload.sub = 'changed';
		payload.nested.n = 2;
		payload.list[0].n = 2;
		expect(verifiedTokenPayload('token-c', [KEY])).toEqual({ sub: 'c', nested: { n: 1 }, list: [{ n: 1 }] });
	});

	test('a claim named __proto__ comes back as an own property, as JSON.parse makes it, never as the prototype', () => {
		const payload = JSON.parse('{"sub":"d","__proto__":{"admin":true},"nested":{"__proto__":{"admin":true}}}') as Record<string, unknown>;
		rememberVerifiedToken('token-d', KEY, payload);
		const hit = verifiedTokenPayload('token-d', [KEY]) as Record<string, unknown> & { nested: Record<string, unknown> };
		expect(Object.getPrototypeOf(hit)).toBe(Object.prototype);
		expect(Object.getPrototypeOf(hit.nested)).toBe(Object.prototype);
		expect((hit as { admin?: unknown }).admin).toBeUndefined();
		expect(Object.keys(hit)).toEqual(['sub', '__proto__', 'nested']);
		expect(Object.getOwnPropertyDescriptor(hit, '__proto__')?.value).toEqual({ admin: true });
		expect(JSON.stringify(hit)).toBe(JSON.stringify(payload));
	});

	test(`holds at most ${MAX_VERIFIED_TOKENS} tokens, dropping the oldest first`, () => {
		rememberVerifiedToken('oldest', KEY, { sub: 'old' });
		for (let i = 0; i < MAX_VERIFIED_TOKENS; i++) rememberVerifiedToken(`filler-${i}`, KEY, { i });
		expect(verifiedTokenPayload('oldest', [KEY])).toBeUndefined();
		expect(verifiedTokenPayload(`filler-${MAX_VERIFIED_TOKENS - 1}`, [KEY])).toEqual({ i: MAX_VERIFIED_TOKENS - 1 });
	});
});
