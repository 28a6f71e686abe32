// Reads a PEM private key's DER — PKCS#8 PrivateKeyInfo, PKCS#1 RSAPrivateKey, SEC1 ECPrivateKey —
// far enough to name its type and size, and writes it as PKCS#8 for Web Crypto. Pure, no node:crypto.

import { base64, fromBase64 } from '../../crypto/bytes.js';

/**
 * What a private key is, as read from its DER. A key that can sign `private_key_jwt` assertions
 * (RSA, EC on a named curve, Ed25519) comes with `pkcs8`: the key as a plain PKCS#8 PrivateKeyInfo
 * (PKCS#1 and SEC1 re-wrapped, the curve in the AlgorithmIdentifier), which Web Crypto imports on
 * every runtime.
 */
export interface PrivateKeyDer {
	/**
	 * `rsa`, `ec` or `ed25519`; another algorithm by the name Node gives it (`dsa`, `x25519`,
	 * `rsa-pss`, `ed448`, `x448`, `dh`); `undefined` for an algorithm this reader does not know.
	 */
	type: string | undefined;
	/** The algorithm's OID, dotted (`1.2.840.113549.1.1.1` for RSA). */
	algorithm: string;
	/** RSA: the modulus length in bits. */
	modulusLength?: number;
	/** EC: `P-256`, `P-384`, `P-521`, another named curve's OID, or `undefined` for explicit curve parameters. */
	namedCurve?: string;
	/** RSA, EC on a named curve, Ed25519: the key as a PKCS#8 PrivateKeyInfo. */
	pkcs8?: Uint8Array;
}

const OID = {
	rsaEncryption: '1.2.840.113549.1.1.1',
	ecPublicKey: '1.2.840.10045.2.1',
	ed25519: '1.3.101.112',
	p256: '1.2.840.10045.3.1.7',
	p384: '1.3.132.0.34',
	p521: '1.3.132.0.35'
} as const;

/** Curves by OID: their Web Crypto name and the length of a private key (and of a coordinate) in bytes. */
const CURVES: Record<string, { name: string; bytes: number }> = {
	[OID.p256]: { name: 'P-256', bytes: 32 },
	[OID.p384]: { name: 'P-384', bytes: 48 },
	[OID.p521]: { name: 'P-521', bytes: 66 }
};

/** Other PKCS#8 algorithms, by the names Node's `KeyObject.asymmetricKeyType` gives them. */
const OTHER_ALGORITHMS: Record<string, string> = {
	'1.2.840.113549.1.1.10': 'rsa-pss',
	'1.2.840.10040.4.1': 'dsa',
	'1.2.840.113549.1.3.1': 'dh',
	'1.3.101.110': 'x25519',
	'1.3.101.111': 'x448',
	'1.3.101.113': 'ed448'
};

const TAG = { integer: 0x02, bitString: 0x03, octetString: 0x04, null: 0x05, oid: 0x06, sequence: 0x30, context0: 0xa0, context1: 0xa1, implicit1: 0x81 } as const;

/** One DER element: its tag, its contents, and its whole encoding. */
interface Element {
	tag: number;
	contents: Uint8Array;
	encoding: Uint8Array;
}

/**
 * The private key in the first `-----BEGIN … PRIVATE KEY-----` block of `pem`: `PRIVATE KEY`
 * (PKCS#8), `RSA PRIVATE KEY` (PKCS#1), `EC PRIVATE KEY` (SEC1) or `DSA PRIVATE KEY` (reported as
 * `dsa`). Throws an `Error` saying why it cannot be read: no such block, not base64, encrypted
 * (`ENCRYPTED PRIVATE KEY`, or a `Proc-Type: 4,ENCRYPTED` header), or DER that is not the key its
 * label says (truncated, trailing bytes, not DER). Pure.
 *
 * @example
 * const key = readPrivateKeyPem(process.env.AUTH_IDP_PRIVATE_KEY!);
 * if (key.type === 'rsa') key.modulusLength; // 2048
 */
export function readPrivateKeyPem(pem: string): PrivateKeyDer {
	const begin = /-----BEGIN ([A-Z ]*PRIVATE KEY)-----/.exec(pem);
	if (!begin) throw new Error('no "-----BEGIN … PRIVATE KEY-----" line');
	const label = begin[1];
	const bodyStart = begin.index + begin[0].length;
	const end = pem.indexOf(`-----END ${label}-----`, bodyStart);
	if (end === -1) throw new Error(`no "-----END ${label}-----" line`);
	const body = pem.slice(bodyStart, end);
	if (/^\s*Proc-Type:\s*4\s*,\s*ENCRYPTED/im.test(body)) throw new Error('it is encrypted (Proc-Type: 4,ENCRYPTED)');
	if (body.includes(':')) throw new Error('PEM headers are not supported');
	const der = fromBase64(body.replace(/\s+/g, '')) ?? undefined;
	if (!der) throw new Error('the PEM body is not base64');
	switch (label) {
		case 'PRIVATE KEY':
			return readPkcs8(der);
		case 'RSA PRIVATE KEY':
			return readPkcs1(der);
		case 'EC PRIVATE KEY':
			return readSec1(der);
		case 'DSA PRIVATE KEY':
			return readDsa(der);
		case 'ENCRYPTED PRIVATE KEY':
			throw new Error('it is encrypted (ENCRYPTED PRIVATE KEY)');
		default:
			throw new Error(`a "${label}" PEM is not a PKCS#8, PKCS#1 or SEC1 private key`);
	}
}

/**
 * A PKCS#8 PrivateKeyInfo (RFC 5208; version 1 OneAsymmetricKey of RFC 5958 too): RSA with its
 * modulus length, EC with its curve, Ed25519, or another algorithm. Throws an `Error` for an
 * EncryptedPrivateKeyInfo and for DER that is not a PrivateKeyInfo. Pure.
 *
 * @example
 * readPkcs8(der); // { type: 'ec', algorithm: '1.2.840.10045.2.1', namedCurve: 'P-256', pkcs8: Uint8Array [0x30, 0x81, …] }
 */
export function readPkcs8(der: Uint8Array): PrivateKeyDer {
	const items = children(only(der, 'PKCS#8 PrivateKeyInfo'), 'PKCS#8 PrivateKeyInfo');
	if (items.length === 2 && items[0].tag === TAG.sequence && items[1].tag === TAG.octetString) {
		throw new Error('it is encrypted (EncryptedPrivateKeyInfo)');
	}
	const [version, algorithmId, privateKey, ...rest] = items;
	const versionNumber = smallInteger(expect(version, TAG.integer, 'the PKCS#8 version'));
	if (versionNumber !== 0 && versionNumber !== 1) throw new Error(`unknown PKCS#8 version ${versionNumber}`);
	const [algorithmOid, parameters, ...extra] = children(expect(algorithmId, TAG.sequence, 'the PKCS#8 algorithm'), 'the PKCS#8 algorithm');
	if (extra.length) throw new Error('the PKCS#8 algorithm has more than an OID and parameters');
	const algorithm = oid(expect(algorithmOid, TAG.oid, "the PKCS#8 algorithm's OID"));
	const keyBytes = expect(privateKey, TAG.octetString, 'the PKCS#8 private key').contents;
	// optional attributes [0], then (version 1 only) the public key [1]
	let next = 0;
	if (rest[next]?.tag === TAG.context0) next++;
	if (versionNumber === 1 && rest[next]?.tag === TAG.implicit1) next++;
	if (next < rest.length) throw new Error('the PKCS#8 PrivateKeyInfo has unknown members');

	switch (algorithm) {
		case OID.rsaEncryption:
			if (parameters && !(parameters.tag === TAG.null && parameters.contents.length === 0)) throw new Error('rsaEncryption parameters must be NULL');
			return rsaKey(keyBytes);
		case OID.ecPublicKey: {
			const outer = parameters ? curveOf(parameters) : undefined;
			const inner = readEcPrivateKey(keyBytes);
			if (outer && inner.curve && outer !== inner.curve) throw new Error('the PKCS#8 algorithm and the ECPrivateKey name different curves');
			return ecKey(outer ?? inner.curve, parameters?.tag === TAG.sequence || inner.explicit, inner);
		}
		case OID.ed25519: {
			if (parameters) throw new Error('Ed25519 takes no parameters');
			const seed = expect(only(keyBytes, 'the Ed25519 CurvePrivateKey'), TAG.octetString, 'the Ed25519 CurvePrivateKey').contents;
			if (seed.length !== 32) throw new Error(`an Ed25519 private key is 32 bytes, not ${seed.length}`);
			return { type: 'ed25519', algorithm, pkcs8: privateKeyInfo(OID.ed25519, undefined, encode(TAG.octetString, seed)) };
		}
		default:
			return { type: Object.hasOwn(OTHER_ALGORITHMS, algorithm) ? OTHER_ALGORITHMS[algorithm] : undefined, algorithm };
	}
}

/**
 * A PKCS#1 RSAPrivateKey (RFC 8017 §A.1.2, two primes): its modulus length, and the key wrapped as
 * PKCS#8. Throws an `Error` for DER that is not one. Pure.
 *
 * @example
 * readPkcs1(der); // { type: 'rsa', algorithm: '1.2.840.113549.1.1.1', modulusLength: 2048, pkcs8: Uint8Array [0x30, 0x82, …] }
 */
export function readPkcs1(der: Uint8Array): PrivateKeyDer {
	return rsaKey(der);
}

/**
 * A SEC1 ECPrivateKey (RFC 5915) with its curve: the curve, and the key wrapped as PKCS#8. Throws an
 * `Error` for DER that is not one, or one that names no curve. Pure.
 *
 * @example
 * readSec1(der); // { type: 'ec', algorithm: '1.2.840.10045.2.1', namedCurve: 'P-384', pkcs8: Uint8Array [0x30, 0x81, …] }
 */
export function readSec1(der: Uint8Array): PrivateKeyDer {
	const key = readEcPrivateKey(der);
	return ecKey(key.curve, key.explicit, key);
}

/**
 * `der` (a PKCS#8 PrivateKeyInfo) as a `-----BEGIN PRIVATE KEY-----` PEM, what jose's
 * `importPKCS8` takes. Pure.
 *
 * @example
 * await importPKCS8(pkcs8Pem(readSec1(der).pkcs8!), 'ES256'); // a CryptoKey on every runtime
 */
export function pkcs8Pem(der: Uint8Array): string {
	const lines = base64(der).match(/.{1,64}/g) ?? [];
	return `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----\n`;
}

// ---------------------------------------------------------------------------------------------
// The key types

function rsaKey(der: Uint8Array): PrivateKeyDer {
	const items = children(only(der, 'PKCS#1 RSAPrivateKey'), 'PKCS#1 RSAPrivateKey');
	const version = smallInteger(expect(items[0], TAG.integer, 'the RSAPrivateKey version'));
	if (version !== 0) throw new Error(version === 1 ? 'multi-prime RSA keys are not supported' : `unknown RSAPrivateKey version ${version}`);
	const names = ['modulus', 'publicExponent', 'privateExponent', 'prime1', 'prime2', 'exponent1', 'exponent2', 'coefficient'];
	if (items.length !== 1 + names.length) throw new Error(`an RSAPrivateKey has ${1 + names.length} members, not ${items.length}`);
	const [modulus] = names.map((name, i) => unsignedInteger(expect(items[i + 1], TAG.integer, `the RSA ${name}`), `the RSA ${name}`));
	return { type: 'rsa', algorithm: OID.rsaEncryption, modulusLength: bitLength(modulus), pkcs8: privateKeyInfo(OID.rsaEncryption, encode(TAG.null, new Uint8Array(0)), der) };
}

interface EcPrivateKey {
	/** The named curve's OID, when the key names one. */
	curve: string | undefined;
	/** True when the key gives its curve as explicit parameters rather than by name. */
	explicit: boolean;
	privateKey: Uint8Array;
	/** The `[1]` public key's BIT STRING, whole, when the key has one. */
	publicKey: Element | undefined;
}

function readEcPrivateKey(der: Uint8Array): EcPrivateKey {
	const [version, privateKey, ...rest] = children(only(der, 'SEC1 ECPrivateKey'), 'SEC1 ECPrivateKey');
	if (smallInteger(expect(version, TAG.integer, 'the ECPrivateKey version')) !== 1) throw new Error('the ECPrivateKey version must be 1');
	const key: EcPrivateKey = { curve: undefined, explicit: false, privateKey: expect(privateKey, TAG.octetString, 'the EC private key').contents, publicKey: undefined };
	let next = 0;
	if (rest[next]?.tag === TAG.context0) {
		const parameters = only(rest[next++].contents, 'the ECPrivateKey parameters');
		key.curve = curveOf(parameters);
		key.explicit = !key.curve;
	}
	if (rest[next]?.tag === TAG.context1) key.publicKey = expect(only(rest[next++].contents, 'the EC public key'), TAG.bitString, 'the EC public key');
	if (next < rest.length) throw new Error('the ECPrivateKey has unknown members');
	if (key.privateKey.length === 0) throw new Error('the EC private key is empty');
	return key;
}

/** The named curve's OID of EC parameters, or `undefined` for explicit (specified) parameters. */
function curveOf(parameters: Element): string | undefined {
	if (parameters.tag === TAG.sequence) return undefined;
	return oid(expect(parameters, TAG.oid, 'the EC curve'));
}

/** An EC key on the named `curve` (an OID), as PKCS#8; one with `explicit` curve parameters, without. */
function ecKey(curve: string | undefined, explicit: boolean, key: EcPrivateKey): PrivateKeyDer {
	if (explicit) return { type: 'ec', algorithm: OID.ecPublicKey, namedCurve: undefined };
	if (!curve) throw new Error('the EC key names no curve');
	const known = Object.hasOwn(CURVES, curve) ? CURVES[curve] : undefined;
	if (known && key.privateKey.length > known.bytes) throw new Error(`a ${known.name} private key is at most ${known.bytes} bytes, not ${key.privateKey.length}`);
	// as Node and OpenSSL write it: the curve in the AlgorithmIdentifier only
	const inner = encode(
		TAG.sequence,
		encode(TAG.integer, new Uint8Array([1])),
		encode(TAG.octetString, key.privateKey),
		...(key.publicKey ? [encode(TAG.context1, key.publicKey.encoding)] : [])
	);
	return { type: 'ec', algorithm: OID.ecPublicKey, namedCurve: known?.name ?? curve, pkcs8: privateKeyInfo(OID.ecPublicKey, encodeOid(curve), inner) };
}

/** A traditional OpenSSL DSA key (`DSA PRIVATE KEY`): six INTEGERs, version 0. */
function readDsa(der: Uint8Array): PrivateKeyDer {
	const items = children(only(der, 'DSA private key'), 'DSA private key');
	if (items.length !== 6 || items.some((item) => item.tag !== TAG.integer) || smallInteger(items[0]) !== 0) throw new Error('not a DSA private key');
	return { type: 'dsa', algorithm: '1.2.840.10040.4.1' };
}

function privateKeyInfo(algorithm: string, parameters: Uint8Array | undefined, privateKey: Uint8Array): Uint8Array {
	return encode(
		TAG.sequence,
		encode(TAG.integer, new Uint8Array([0])),
		encode(TAG.sequence, encodeOid(algorithm), ...(parameters ? [parameters] : [])),
		encode(TAG.octetString, privateKey)
	);
}

// ---------------------------------------------------------------------------------------------
// DER: reading (strict: definite minimal lengths, low tag numbers) and writing

/** The one element `der` holds, with nothing after it. */
function only(der: Uint8Array, what: string): Element {
	if (der.length === 0) throw new Error(`${what}: no DER`);
	const first = element(der, 0, what);
	const after = der.length - first.encoding.length;
	if (after) throw new Error(`${what}: ${after} ${after === 1 ? 'byte' : 'bytes'} after the key`);
	return first;
}

/** The elements inside a constructed element (a SEQUENCE). */
function children(parent: Element, what: string): Element[] {
	if (parent.tag !== TAG.sequence) throw new Error(`${what}: not a SEQUENCE`);
	const found: Element[] = [];
	for (let pos = 0; pos < parent.contents.length; pos += found[found.length - 1].encoding.length) found.push(element(parent.contents, pos, what));
	return found;
}

/** The element that starts at `start` in `bytes`. */
function element(bytes: Uint8Array, start: number, what: string): Element {
	let pos = start;
	const tag = bytes[pos++];
	if ((tag & 0x1f) === 0x1f) throw new Error(`${what}: not DER (a high tag number)`);
	if (pos >= bytes.length) throw new Error(`${what}: truncated DER`);
	let length = bytes[pos++];
	if (length === 0x80) throw new Error(`${what}: not DER (an indefinite length)`);
	if (length > 0x80) {
		const size = length & 0x7f;
		if (size > 4) throw new Error(`${what}: not DER (a length of ${size} bytes)`);
		if (pos + size > bytes.length) throw new Error(`${what}: truncated DER`);
		length = 0;
		for (let i = 0; i < size; i++) length = length * 256 + bytes[pos++];
		if (length < 0x80 || bytes[pos - size] === 0) throw new Error(`${what}: not DER (a length not in its shortest form)`);
	}
	if (pos + length > bytes.length) throw new Error(`${what}: truncated DER`);
	return { tag, contents: bytes.subarray(pos, pos + length), encoding: bytes.subarray(start, pos + length) };
}

function expect(element: Element | undefined, tag: number, what: string): Element {
	if (!element) throw new Error(`${what} is missing`);
	if (element.tag !== tag) throw new Error(`${what} has the wrong type`);
	return element;
}

/** A DER INTEGER's bytes, checked to be in its shortest form. */
function integerBytes(element: Element, what: string): Uint8Array {
	const bytes = element.contents;
	if (bytes.length === 0) throw new Error(`${what} is an empty INTEGER`);
	if (bytes.length > 1 && ((bytes[0] === 0 && bytes[1] < 0x80) || (bytes[0] === 0xff && bytes[1] >= 0x80))) {
		throw new Error(`${what}: not DER (an INTEGER not in its shortest form)`);
	}
	return bytes;
}

function smallInteger(element: Element): number {
	const bytes = integerBytes(element, 'a version');
	if (bytes.length > 1 || bytes[0] >= 0x80) throw new Error('a version out of range');
	return bytes[0];
}

/** A non-negative INTEGER's magnitude, without its sign byte. */
function unsignedInteger(element: Element, what: string): Uint8Array {
	const bytes = integerBytes(element, what);
	if (bytes[0] >= 0x80) throw new Error(`${what} is negative`);
	return bytes[0] === 0 ? bytes.subarray(1) : bytes;
}

/**
 * The length in bits of the big-endian unsigned integer `bytes` (leading zero bytes ignored): an
 * RSA modulus's length, from DER or from a JWK's `n`. Pure.
 *
 * @example
 * bitLength(new Uint8Array([0x00, 0x80, 0x01])); // 16
 */
export function bitLength(bytes: Uint8Array): number {
	let i = 0;
	while (i < bytes.length && bytes[i] === 0) i++;
	return i === bytes.length ? 0 : (bytes.length - i - 1) * 8 + (32 - Math.clz32(bytes[i]));
}

/** An OBJECT IDENTIFIER, dotted. */
function oid(element: Element): string {
	const bytes = element.contents;
	if (bytes.length === 0 || bytes[bytes.length - 1] & 0x80) throw new Error('not DER (a malformed OBJECT IDENTIFIER)');
	const arcs: bigint[] = [];
	let arc = 0n;
	for (let i = 0; i < bytes.length; i++) {
		if (arc === 0n && bytes[i] === 0x80) throw new Error('not DER (an OBJECT IDENTIFIER not in its shortest form)');
		arc = (arc << 7n) | BigInt(bytes[i] & 0x7f);
		if (!(bytes[i] & 0x80)) {
			arcs.push(arc);
			arc = 0n;
		}
	}
	const first = arcs[0] < 80n ? arcs[0] / 40n : 2n;
	return [first, arcs[0] - first * 40n, ...arcs.slice(1)].join('.');
}

function encodeOid(dotted: string): Uint8Array {
	const [first, second, ...rest] = dotted.split('.').map(BigInt);
	const bytes: number[] = [];
	for (let arc of [first * 40n + second, ...rest]) {
		const group = [Number(arc & 0x7fn)];
		while ((arc >>= 7n) > 0n) group.unshift(Number(arc & 0x7fn) | 0x80);
		bytes.push(...group);
	}
	return encode(TAG.oid, new Uint8Array(bytes));
}

function encode(tag: number, ...contents: Uint8Array[]): Uint8Array {
	const length = contents.reduce((sum, part) => sum + part.length, 0);
	const lengthBytes: number[] = [];
	if (length < 0x80) lengthBytes.push(length);
	else {
		for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) lengthBytes.unshift(rest % 256);
		lengthBytes.unshift(0x80 | lengthBytes.length);
	}
	const out = new Uint8Array(1 + lengthBytes.length + length);
	out[0] = tag;
	out.set(lengthBytes, 1);
	let pos = 1 + lengthBytes.length;
	for (const part of contents) {
		out.set(part, pos);
		pos += part.length;
	}
	return out;
}
