import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { privateKeySigningAlgorithm } from './signing-key-algorithm.js';

// JWKs are read by their members, not by node:crypto: these pin what that reading accepts and refuses.
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
const p521 = generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey.export({ format: 'jwk' });
const ed = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });

const b64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const without = (jwk: object, name: string) => Object.fromEntries(Object.entries(jwk).filter(([key]) => key !== name));

describe('privateKeySigningAlgorithm: private JWKs, read by their members', () => {
	test('the JWK of every key type that signs, as Node writes it', () => {
		expect(privateKeySigningAlgorithm(rsa)).toBe('RS256');
		expect(privateKeySigningAlgorithm({ ...rsa, alg: 'PS512' })).toBe('PS512');
		expect(privateKeySigningAlgorithm(p256)).toBe('ES256');
		expect(privateKeySigningAlgorithm(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'jwk' }))).toBe('ES384');
		expect(privateKeySigningAlgorithm(p521)).toBe('ES512');
		expect(privateKeySigningAlgorithm(ed)).toBe('Ed25519');
		expect(privateKeySigningAlgorithm({ ...ed, alg: 'EdDSA', use: 'sig', key_ops: ['sign'], kid: 'k' })).toBe('EdDSA');
	});

	test("an RSA key's length is n's: leading zero bytes do not count, 2040 bits are refused", () => {
		const n = Uint8Array.from(atob(rsa.n!.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
		expect(n.length).toBe(256);
		expect(privateKeySigningAlgorithm({ ...rsa, n: b64url(Uint8Array.of(0, ...n)) })).toBe('RS256');
		expect(() => privateKeySigningAlgorithm({ ...rsa, n: b64url(n.subarray(1)) })).toThrow('an RSA key must have at least 2048 bits');
		// the top byte's bits count one by one: 0x7f then 255 bytes is 2047 bits, 0x80 then 255 bytes 2048
		expect(() => privateKeySigningAlgorithm({ ...rsa, n: b64url(Uint8Array.of(0x7f, ...n.subarray(1))) })).toThrow('at least 2048 bits');
		expect(privateKeySigningAlgorithm({ ...rsa, n: b64url(Uint8Array.of(0x80, ...n.subarray(1))) })).toBe('RS256');
	});

	test('every member a private key needs must be there, as unpadded base64url', () => {
		const cases: [object, string][] = [
			...['n', 'e', 'p', 'q', 'dp', 'dq', 'qi'].map((name): [object, string] => [without(rsa, name), name]),
			...['x', 'y'].map((name): [object, string] => [without(p256, name), name]),
			[without(ed, 'x'), 'x'],
			[{ ...rsa, e: '' }, 'e'],
			[{ ...rsa, qi: 42 }, 'qi'],
			[{ ...rsa, p: `${rsa.p}=` }, 'p'],
			[{ ...rsa, q: rsa.q!.replace(/-/g, '+').replace(/_/g, '/') + 'A/+' }, 'q'],
			[{ ...p256, x: 'a' }, 'x'],
			[{ ...ed, d: '!!!!' }, 'd']
		];
		for (const [jwk, name] of cases) {
			expect(() => privateKeySigningAlgorithm(jwk), name).toThrow(`it cannot be read as a private key (its "${name}" must be a base64url string)`);
		}
	});

	test("a curve's members must have the curve's length", () => {
		const short = (value: string) => b64url(Uint8Array.from(atob(value.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0)).subarray(1));
		expect(() => privateKeySigningAlgorithm({ ...p256, d: short(p256.d!) })).toThrow('it cannot be read as a private key (its "d" must be 32 bytes for P-256, not 31)');
		expect(() => privateKeySigningAlgorithm({ ...p521, y: short(p521.y!) })).toThrow('its "y" must be 66 bytes for P-521, not 65');
		expect(() => privateKeySigningAlgorithm({ ...p256, crv: 'P-384' })).toThrow('its "x" must be 48 bytes for P-384, not 32');
		expect(() => privateKeySigningAlgorithm({ ...ed, x: `${ed.x}AAAA` })).toThrow('its "x" must be 32 bytes for Ed25519, not 35');
	});

	test('other curves and key types: the existing messages', () => {
		expect(() => privateKeySigningAlgorithm({ ...p256, crv: 'secp256k1' })).toThrow('an EC key must be on P-256, P-384 or P-521');
		expect(() => privateKeySigningAlgorithm(without(p256, 'crv'))).toThrow('an EC key must be on P-256, P-384 or P-521');
		expect(() => privateKeySigningAlgorithm(generateKeyPairSync('x25519').privateKey.export({ format: 'jwk' }))).toThrow(
			'a x25519 key cannot sign private_key_jwt assertions; use an RSA, EC (P-256/384/521) or Ed25519 key'
		);
		expect(() => privateKeySigningAlgorithm(generateKeyPairSync('ed448').privateKey.export({ format: 'jwk' }))).toThrow('a ed448 key cannot sign');
		for (const crv of ['constructor', '__proto__', 'toString']) {
			expect(() => privateKeySigningAlgorithm({ ...p256, crv })).toThrow('an EC key must be on P-256, P-384 or P-521');
			expect(() => privateKeySigningAlgorithm({ ...ed, crv })).toThrow('its "crv" must be Ed25519 for an OKP key');
		}
		expect(() => privateKeySigningAlgorithm({ ...ed, crv: 'Curve25519' })).toThrow('it cannot be read as a private key (its "crv" must be Ed25519 for an OKP key)');
		expect(() => privateKeySigningAlgorithm({ kty: 'AKP', d: 'AA' })).toThrow('it cannot be read as a private key (its "kty" "AKP" is not "RSA", "EC" or "OKP")');
		expect(() => privateKeySigningAlgorithm({ d: 'AA' })).toThrow('it cannot be read as a private key (it has no "kty")');
		expect(() => privateKeySigningAlgorithm({ ...rsa, alg: 'ES256' })).toThrow('the JWK\'s "alg" "ES256" does not fit its rsa key');
		expect(() => privateKeySigningAlgorithm({ ...ed, alg: 'ES256' })).toThrow('the JWK\'s "alg" "ES256" does not fit its ed25519 key');
	});

	test('no error carries the private key', () => {
		const broken = [{ ...p256, d: p256.d!.slice(0, -2) }, { ...p256, crv: 'P-521' }, { ...rsa, p: `${rsa.p}=` }, { ...rsa, n: rsa.n!.slice(0, 100) }, { ...ed, kty: 'EC' }];
		for (const jwk of broken) {
			let message = '';
			try {
				privateKeySigningAlgorithm(jwk);
			} catch (error) {
				message = (error as Error).message;
			}
			expect(message).not.toBe('');
			for (const value of Object.values(jwk)) if (typeof value === 'string' && value.length > 8) expect(message).not.toContain(value.slice(0, 16));
		}
	});
});
