// Bytes and their text forms, the same on every runtime: UTF-8, base64url (strict: only the
// canonical form decodes), hex, and comparisons that take the same time wherever they differ.
// Node's Buffer does the base64url work where the runtime has it (it is several times faster).

import { nodeParts } from './node-crypto.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The UTF-8 bytes of `text`.
 *
 * @example
 * utf8Bytes('é'); // Uint8Array [195, 169]
 */
export function utf8Bytes(text: string): Uint8Array<ArrayBuffer> {
	return encoder.encode(text);
}

/**
 * The text of UTF-8 `bytes`; throws a `TypeError` on bytes that are not UTF-8.
 *
 * @example
 * utf8Text(new Uint8Array([104, 105])); // 'hi'
 */
export function utf8Text(bytes: Uint8Array): string {
	return decoder.decode(bytes);
}

/**
 * `bytes` as base64url without padding (RFC 4648 §5).
 *
 * @example
 * base64url(new Uint8Array([251, 255])); // '-_8'
 */
export function base64url(bytes: Uint8Array): string {
	const node = nodeParts();
	if (node) return node.Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
	let binary = '';
	for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
	return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The bytes of base64url `text`, or null when it is not canonical base64url (other characters,
 * padding, or trailing bits that another text would encode the same way).
 *
 * @example
 * fromBase64url('-_8'); // Uint8Array [251, 255]
 * fromBase64url('-_9'); // null (not the canonical form)
 */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
	if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
	const node = nodeParts();
	let bytes: Uint8Array<ArrayBuffer>;
	if (node) {
		const decoded = node.Buffer.from(text, 'base64url');
		// a plain view: a Buffer compares and prints unlike the Uint8Array the portable path gives
		bytes = new Uint8Array(decoded.buffer as ArrayBuffer, decoded.byteOffset, decoded.byteLength);
	}
	else {
		const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
		bytes = new Uint8Array(binary.length);
		for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
	}
	// decoders ignore the unused bits of the last character: only the one canonical text is accepted
	return base64url(bytes) === text ? bytes : null;
}

/**
 * `bytes` as standard base64, padded (RFC 4648 §4: PEM bodies, CSP hashes).
 *
 * @example
 * base64(new Uint8Array([1, 2, 3])); // 'AQID'
 */
export function base64(bytes: Uint8Array): string {
	const node = nodeParts();
	if (node) return node.Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
	let binary = '';
	for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
	return btoa(binary);
}

const PADDED_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The bytes of standard base64 `text` (padded, no whitespace), or null when it is not that.
 *
 * @example
 * fromBase64('AQID'); // Uint8Array [1, 2, 3]
 * fromBase64('AQI'); // null (unpadded)
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
	if (!PADDED_BASE64.test(text)) return null;
	const binary = atob(text);
	const bytes = new Uint8Array(binary.length);
	for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
	return bytes;
}

/**
 * The bytes of base64 text in either alphabet (`+/` or `-_`), padded or not, as stored values
 * written by other libraries come (Auth.js stores passkey keys as base64); null when it is not
 * base64 at all. For tokens kitgate made itself use the strict `fromBase64url`.
 *
 * @example
 * fromAnyBase64('+/8='); // Uint8Array [251, 255]
 */
export function fromAnyBase64(text: string): Uint8Array<ArrayBuffer> | null {
	const standard = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
	if (!/^[A-Za-z0-9+/]*$/.test(standard) || standard.length % 4 === 1) return null;
	const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
	const bytes = new Uint8Array(binary.length);
	for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
	return bytes;
}

/**
 * `bytes` as lower-case hex.
 *
 * @example
 * hex(new Uint8Array([1, 171])); // '01ab'
 */
export function hex(bytes: Uint8Array): string {
	const node = nodeParts();
	if (node) return node.Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
	let text = '';
	for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
	return text;
}

/**
 * The bytes of `parts` one after another.
 *
 * @example
 * concatBytes(new Uint8Array([1]), new Uint8Array([2, 3])); // Uint8Array [1, 2, 3]
 */
export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
	const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
	let offset = 0;
	for (const part of parts) {
		joined.set(part, offset);
		offset += part.length;
	}
	return joined;
}

/**
 * True when `a` and `b` hold the same bytes, in a time that depends only on their length.
 *
 * @example
 * bytesEqual(expectedTag, receivedTag);
 */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
	if (a.length !== b.length) return false;
	let difference = 0;
	for (let index = 0; index < a.length; index++) difference |= a[index] ^ b[index];
	return difference === 0;
}

/**
 * True when two strings are equal, in a time that depends only on their length (compares UTF-16
 * code units; strings of other lengths differ at once).
 *
 * @example
 * stringsEqual(submittedToken, cookieToken);
 */
export function stringsEqual(a: string, b: string): boolean {
	if (a.length !== b.length) return false;
	let difference = 0;
	for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
	return difference === 0;
}
