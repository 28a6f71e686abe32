// Synchronous JWE (`dir` + `A256CBC-HS512`, compact serialisation, RFC 7516/7518 §5.2) with
// node:crypto: the session-check hot path without WebCrypto's thread hand-offs. Cross-tested against jose.

import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes, timingSafeEqual, type Cipher, type KeyObject } from 'node:crypto';
import { randomInto } from './random.js';

const HEADER_FIELDS = new Set(['alg', 'enc', 'kid', 'typ', 'cty']);

function base64url(bytes: Uint8Array): string {
	return Buffer.from(bytes).toString('base64url');
}

/** 64-bit big-endian length of the AAD in bits, as A256CBC-HS512 requires. */
function aadLengthBits(aad: Buffer): Buffer {
	const bits = Buffer.alloc(8);
	bits.writeBigUInt64BE(BigInt(aad.length) * 8n);
	return bits;
}

function authenticationTag(macKey: KeyObject, aad: Buffer, iv: Buffer, ciphertext: Buffer, aadBits = aadLengthBits(aad)): Buffer {
	return createHmac('sha512', macKey).update(aad).update(iv).update(ciphertext).update(aadBits).digest().subarray(0, 32);
}

/** The MAC and AES halves of a 64-byte key as key objects, imported once per key (keys are derived once per secret). */
interface SplitKey {
	mac: KeyObject;
	aes: KeyObject;
}
const splitKeys = new WeakMap<Uint8Array, SplitKey>();

function splitKey(key: Uint8Array): SplitKey {
	let split = splitKeys.get(key);
	if (!split) {
		if (key.length !== 64) throw new TypeError('A256CBC-HS512 needs a 64-byte key.');
		split = { mac: createSecretKey(key.subarray(0, 32)), aes: createSecretKey(key.subarray(32, 64)) };
		splitKeys.set(key, split);
	}
	return split;
}

/** One AES-256-CBC encryption context per key, kept open from token to token (see `encryptCbc`). */
const openCiphers = new WeakMap<KeyObject, Cipher>();

/**
 * AES-256-CBC with PKCS#7 padding and a fresh unpredictable IV, through one encryption context per
 * key kept open across tokens: making a context costs more than the rest of a sign-in's crypto.
 * A CBC context chains each block to the previous ciphertext block, so the IV is made the way
 * NIST SP 800-38A (appendix C) allows, by enciphering a nonce under the same key: 16 fresh random
 * bytes, never written anywhere, are enciphered first, and that ciphertext block is the IV of the
 * token (an unpredictable value, as CBC needs). The token is standard A256CBC-HS512: any JWE
 * library decrypts it with the IV it carries.
 */
function encryptCbc(aes: KeyObject, plaintext: string): { iv: Buffer; ciphertext: Buffer } {
	let cipher = openCiphers.get(aes);
	if (!cipher) {
		cipher = createCipheriv('aes-256-cbc', aes, randomBytes(16));
		cipher.setAutoPadding(false);
		openCiphers.set(aes, cipher);
	}
	const length = Buffer.byteLength(plaintext, 'utf8');
	const pad = 16 - (length % 16);
	// the random block, the plaintext, its padding: whole blocks, enciphered in one call
	const input = Buffer.allocUnsafe(16 + length + pad);
	randomInto(input, 0, 16);
	input.write(plaintext, 16, 'utf8');
	input.fill(pad, 16 + length);
	const output = cipher.update(input);
	if (output.length !== input.length) throw new Error('AES-CBC returned a partial block.');
	return { iv: output.subarray(0, 16), ciphertext: output.subarray(16) };
}

/** Encoded protected headers by `kid` (one per key): the same few bytes on every token. */
const MAX_HEADERS = 64;
const encodedHeaders = new Map<string, { text: string; aad: Buffer; aadBits: Buffer }>();

function encodedHeader(kid: string | undefined) {
	const cacheKey = kid ?? '';
	let header = encodedHeaders.get(cacheKey);
	if (!header) {
		const text = base64url(Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256CBC-HS512', ...(kid === undefined ? {} : { kid }) })));
		const aad = Buffer.from(text, 'ascii');
		if (encodedHeaders.size >= MAX_HEADERS) encodedHeaders.clear();
		header = { text, aad, aadBits: aadLengthBits(aad) };
		encodedHeaders.set(cacheKey, header);
	}
	return header;
}

/**
 * Encrypts `payload` (an object, or its JSON text) as a compact JWE with a 64-byte key (first half
 * MAC key, second half AES key).
 *
 * @example
 * const jwe = encryptJweSync({ sub: "1", exp: 1900000000 }, key, { kid });
 */
export function encryptJweSync(payload: Record<string, unknown> | string, key: Uint8Array, header: { kid?: string } = {}): string {
	const { text: protectedHeader, aad, aadBits } = encodedHeader(header.kid);
	const { mac, aes } = splitKey(key);
	const { iv, ciphertext } = encryptCbc(aes, typeof payload === 'string' ? payload : JSON.stringify(payload));
	const tag = authenticationTag(mac, aad, iv, ciphertext, aadBits);
	return `${protectedHeader}..${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${tag.toString('base64url')}`;
}

/** The protected header of a compact JWE, or null when it is not `dir`/`A256CBC-HS512` or uses other fields. */
export function readJweHeader(jwe: string): { kid?: string } | null {
	const end = jwe.indexOf('.');
	if (end <= 0) return null;
	try {
		const header = JSON.parse(Buffer.from(jwe.slice(0, end), 'base64url').toString('utf8')) as Record<string, unknown>;
		if (!header || typeof header !== 'object' || header.alg !== 'dir' || header.enc !== 'A256CBC-HS512') return null;
		// `zip`, `crit` and other fields change how the token must be read: refuse them
		if (Object.keys(header).some((name) => !HEADER_FIELDS.has(name))) return null;
		return { kid: typeof header.kid === 'string' ? header.kid : undefined };
	} catch {
		return null;
	}
}

/**
 * Decrypts a compact JWE made with `key`; null for any malformed, tampered or foreign token.
 * Claims are not checked here (see `decodeJwt`).
 */
export function decryptJweSync(jwe: string, key: Uint8Array): Record<string, unknown> | null {
	const parts = jwe.split('.');
	if (parts.length !== 5 || parts[1] !== '') return null;
	const [protectedHeader, , ivPart, ciphertextPart, tagPart] = parts;
	if (!readJweHeader(jwe)) return null;
	const iv = Buffer.from(ivPart, 'base64url');
	const ciphertext = Buffer.from(ciphertextPart, 'base64url');
	const tag = Buffer.from(tagPart, 'base64url');
	if (iv.length !== 16 || tag.length !== 32 || ciphertext.length === 0 || ciphertext.length % 16 !== 0) return null;
	// base64url decoding is lenient: re-encode so only canonical segments are accepted, as jose does
	if (base64url(iv) !== ivPart || base64url(ciphertext) !== ciphertextPart || base64url(tag) !== tagPart) return null;
	if (key.length !== 64) return null;
	const { mac, aes } = splitKey(key);
	const expected = authenticationTag(mac, Buffer.from(protectedHeader, 'ascii'), iv, ciphertext);
	if (!timingSafeEqual(expected, tag)) return null;
	try {
		const decipher = createDecipheriv('aes-256-cbc', aes, iv);
		const plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
		const payload: unknown = JSON.parse(plaintext);
		return payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
	} catch {
		return null;
	}
}
