import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, test } from 'vitest';
import { privateKeyJwt } from './client-auth.js';
import { bitLength, pkcs8Pem, readPkcs1, readPkcs8, readPrivateKeyPem, readSec1 } from './private-key-der.js';
import { privateKeySigningAlgorithm } from './signing-key-algorithm.js';

// Keys made by node:crypto (OpenSSL), the reader's reference: tests may use it, the reader may not.
const rsa2048 = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const rsa3072 = generateKeyPairSync('rsa', { modulusLength: 3072 }).privateKey;
const ec = {
	'P-256': generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
	'P-384': generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey,
	'P-521': generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey
};
const ed25519 = generateKeyPairSync('ed25519').privateKey;
/** `generateKeyPairSync` for the options its overloads do not type (DH groups, explicit EC parameters). */
const untypedKeyPair = generateKeyPairSync as unknown as (type: string, options: object) => { privateKey: KeyObject };

const der = (key: KeyObject, type: 'pkcs8' | 'pkcs1' | 'sec1') => new Uint8Array(key.export({ format: 'der', type }));
const pem = (key: KeyObject, type: 'pkcs8' | 'pkcs1' | 'sec1') => key.export({ format: 'pem', type }) as string;
/** What Node exports as PKCS#8: the form the reader writes too. */
const nodePkcs8 = (key: KeyObject) => der(key, 'pkcs8');
/** The message `fn` throws. */
const thrown = (fn: () => unknown) => {
	try {
		fn();
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error('it did not throw');
};

describe('readPkcs8, readPkcs1, readSec1: every format of every key type that signs', () => {
	test.each([
		['RSA 2048', rsa2048, 2048],
		['RSA 3072', rsa3072, 3072]
	] as const)('%s as PKCS#8 and PKCS#1: its modulus length, and the same PKCS#8 Node writes', (_name, key, bits) => {
		for (const read of [readPkcs8(der(key, 'pkcs8')), readPkcs1(der(key, 'pkcs1'))]) {
			expect(read).toMatchObject({ type: 'rsa', algorithm: '1.2.840.113549.1.1.1', modulusLength: bits });
			expect(read.pkcs8).toEqual(nodePkcs8(key));
		}
		expect(privateKeySigningAlgorithm(pem(key, 'pkcs8'))).toBe('RS256');
		expect(privateKeySigningAlgorithm(pem(key, 'pkcs1'))).toBe('RS256');
	});

	test.each([
		['P-256', 'ES256'],
		['P-384', 'ES384'],
		['P-521', 'ES512']
	] as const)('EC %s as PKCS#8 and SEC1: its curve, and the same PKCS#8 Node writes', (curve, alg) => {
		const key = ec[curve];
		for (const read of [readPkcs8(der(key, 'pkcs8')), readSec1(der(key, 'sec1'))]) {
			expect(read).toMatchObject({ type: 'ec', algorithm: '1.2.840.10045.2.1', namedCurve: curve });
			expect(read.pkcs8).toEqual(nodePkcs8(key));
		}
		expect(privateKeySigningAlgorithm(pem(key, 'pkcs8'))).toBe(alg);
		expect(privateKeySigningAlgorithm(pem(key, 'sec1'))).toBe(alg);
	});

	test('Ed25519 as PKCS#8 (and as a version 1 OneAsymmetricKey with its public key)', () => {
		expect(readPkcs8(der(ed25519, 'pkcs8'))).toEqual({ type: 'ed25519', algorithm: '1.3.101.112', pkcs8: nodePkcs8(ed25519) });
		expect(privateKeySigningAlgorithm(pem(ed25519, 'pkcs8'))).toBe('Ed25519');
		// RFC 8410 §10.3's example: version 1, attributes [0] and the public key [1]
		const v1 = Uint8Array.from(
			atob(
				'MHICAQEwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhCoB8wHQYKKoZIhvcNAQkJFDEPDA1DdXJkbGUgQ2hhaXJzgSEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE='
			),
			(char) => char.charCodeAt(0)
		);
		const read = readPkcs8(v1);
		expect(read.type).toBe('ed25519');
		expect(createPrivateKey({ key: Buffer.from(read.pkcs8!), format: 'der', type: 'pkcs8' }).asymmetricKeyType).toBe('ed25519');
	});

	test('the PKCS#8 the reader writes is the key itself: Node reads it back to the same public key', () => {
		for (const [key, type] of [
			[rsa2048, 'pkcs1'],
			[ec['P-256'], 'sec1'],
			[ec['P-521'], 'sec1']
		] as const) {
			const read = readPrivateKeyPem(pem(key, type));
			const back = createPrivateKey(pkcs8Pem(read.pkcs8!));
			expect(createPublicKey(back).export({ format: 'jwk' })).toEqual(createPublicKey(key).export({ format: 'jwk' }));
		}
	});

	test('an RSA key under 2048 bits is read with its length, and refused for signing', () => {
		const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
		expect(readPkcs1(der(small, 'pkcs1')).modulusLength).toBe(1024);
		expect(() => privateKeySigningAlgorithm(pem(small, 'pkcs1'))).toThrow('an RSA key must have at least 2048 bits');
	});

	test('a SEC1 key without its public key, and a PKCS#8 EC key with its curve only inside the ECPrivateKey, are read', () => {
		const sec1 = der(ec['P-384'], 'sec1');
		// SEQUENCE { INTEGER 1, OCTET STRING (48 bytes), [0] { OID secp384r1 } } without the [1] public key
		const withoutPublic = hexBytes(`303e020101 0430 ${hex(sec1.subarray(8, 56))} a00706052b81040022`);
		const read = readSec1(withoutPublic);
		expect(read).toMatchObject({ type: 'ec', namedCurve: 'P-384' });
		expect(createPrivateKey({ key: Buffer.from(read.pkcs8!), format: 'der', type: 'pkcs8' }).asymmetricKeyDetails?.namedCurve).toBe('secp384r1');
		// PKCS#8 whose AlgorithmIdentifier has no parameters: the curve comes from the inner key
		const noParameters = hexBytes(`3050 020100 300906072a8648ce3d0201 0440 ${hex(withoutPublic)}`);
		expect(readPkcs8(noParameters)).toMatchObject({ type: 'ec', namedCurve: 'P-384', pkcs8: read.pkcs8 });
	});
});

describe('keys that cannot sign: read, and refused with the existing messages', () => {
	test('DSA, X25519, X448, Ed448, RSA-PSS and DH PKCS#8 keys are named as Node names them', () => {
		const others = {
			dsa: generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 }).privateKey,
			x25519: generateKeyPairSync('x25519').privateKey,
			x448: generateKeyPairSync('x448').privateKey,
			ed448: generateKeyPairSync('ed448').privateKey,
			'rsa-pss': generateKeyPairSync('rsa-pss', { modulusLength: 2048 }).privateKey,
			dh: untypedKeyPair('dh', { group: 'modp14' }).privateKey
		};
		for (const [name, key] of Object.entries(others)) {
			expect(readPkcs8(der(key, 'pkcs8'))).toMatchObject({ type: name });
			expect(readPkcs8(der(key, 'pkcs8')).pkcs8).toBeUndefined();
			expect(() => privateKeySigningAlgorithm(pem(key, 'pkcs8'))).toThrow(
				`a ${name} key cannot sign private_key_jwt assertions; use an RSA, EC (P-256/384/521) or Ed25519 key`
			);
		}
		// the traditional OpenSSL form (which Node does not write): SEQUENCE { version 0, p, q, g, y, x }
		const traditional = `-----BEGIN DSA PRIVATE KEY-----\n${btoa(String.fromCharCode(...hexBytes('3012 020100 020101 020102 020103 020104 020105')))}\n-----END DSA PRIVATE KEY-----`;
		expect(readPrivateKeyPem(traditional)).toEqual({ type: 'dsa', algorithm: '1.2.840.10040.4.1' });
		expect(() => privateKeySigningAlgorithm(traditional)).toThrow('a dsa key cannot sign');
		expect(() => readPrivateKeyPem(traditional.replace('MBICAQACAQECAQICAQMCAQQCAQU=', 'MA8CAQACAQECAQICAQMCAQQ='))).toThrow('not a DSA private key');
	});

	test('an algorithm the reader does not know is refused by its OID', () => {
		// a PKCS#8 PrivateKeyInfo of algorithm 1.2.3.4
		const unknown = hexBytes('300e 020100 300506032a0304 0402 0000');
		expect(readPkcs8(unknown)).toEqual({ type: undefined, algorithm: '1.2.3.4' });
		expect(() => privateKeySigningAlgorithm(pkcs8Pem(unknown))).toThrow('a key of algorithm 1.2.3.4 cannot sign private_key_jwt assertions');
	});

	test('an EC key on another curve (secp256k1), or with explicit curve parameters, is refused as not P-256/384/521', () => {
		const k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey;
		expect(readSec1(der(k1, 'sec1'))).toMatchObject({ type: 'ec', namedCurve: '1.3.132.0.10' });
		expect(readPkcs8(der(k1, 'pkcs8'))).toMatchObject({ type: 'ec', namedCurve: '1.3.132.0.10' });
		expect(() => privateKeySigningAlgorithm(pem(k1, 'sec1'))).toThrow('an EC key must be on P-256, P-384 or P-521');
		const explicit = untypedKeyPair('ec', { namedCurve: 'P-256', paramEncoding: 'explicit' }).privateKey;
		expect(readSec1(der(explicit, 'sec1'))).toEqual({ type: 'ec', algorithm: '1.2.840.10045.2.1', namedCurve: undefined });
		expect(() => privateKeySigningAlgorithm(pem(explicit, 'sec1'))).toThrow('an EC key must be on P-256, P-384 or P-521');
	});

	test('encrypted keys: an EncryptedPrivateKeyInfo (by its label or its DER) and a legacy Proc-Type PEM', () => {
		const encrypted = (type: 'pkcs8' | 'pkcs1' | 'sec1', key: KeyObject) =>
			key.export({ format: 'pem', type, cipher: 'aes-256-cbc', passphrase: 'secret' } as never) as string;
		const pkcs8 = encrypted('pkcs8', ec['P-256']);
		expect(pkcs8).toContain('-----BEGIN ENCRYPTED PRIVATE KEY-----');
		expect(thrown(() => readPrivateKeyPem(pkcs8))).toBe('it is encrypted (ENCRYPTED PRIVATE KEY)');
		// the same DER under a PRIVATE KEY label
		const relabelled = pkcs8.replace(/ENCRYPTED PRIVATE KEY/g, 'PRIVATE KEY');
		expect(thrown(() => readPrivateKeyPem(relabelled))).toBe('it is encrypted (EncryptedPrivateKeyInfo)');
		for (const legacy of [encrypted('pkcs1', rsa2048), encrypted('sec1', ec['P-256'])]) {
			expect(legacy).toContain('Proc-Type: 4,ENCRYPTED');
			expect(thrown(() => readPrivateKeyPem(legacy))).toBe('it is encrypted (Proc-Type: 4,ENCRYPTED)');
		}
		for (const key of [pkcs8, relabelled, encrypted('pkcs1', rsa2048)]) {
			expect(() => privateKeySigningAlgorithm(key)).toThrow(/^it cannot be read as a private key \(it is encrypted .*\); an encrypted PEM must be decrypted first$/);
		}
	});
});

describe('DER that is not a key: refused, at start-up', () => {
	const p256 = der(ec['P-256'], 'pkcs8');

	test('every truncation of a PKCS#8, PKCS#1 and SEC1 key is refused', () => {
		const cases: [(bytes: Uint8Array) => unknown, Uint8Array][] = [
			[readPkcs8, p256],
			[readPkcs1, der(rsa2048, 'pkcs1')],
			[readSec1, der(ec['P-521'], 'sec1')],
			[readPkcs8, der(ed25519, 'pkcs8')]
		];
		for (const [read, bytes] of cases) {
			for (let length = 0; length < bytes.length; length++) expect(() => read(bytes.subarray(0, length)), `${length} bytes`).toThrow();
		}
		expect(thrown(() => readPkcs8(p256.subarray(0, 100)))).toBe('PKCS#8 PrivateKeyInfo: truncated DER');
	});

	test('trailing bytes after the key, outside or inside its OCTET STRING, are refused', () => {
		expect(thrown(() => readPkcs8(Uint8Array.of(...p256, 0)))).toBe('PKCS#8 PrivateKeyInfo: 1 byte after the key');
		expect(() => readPkcs1(Uint8Array.of(...der(rsa2048, 'pkcs1'), 0x05, 0x00))).toThrow('2 bytes after the key');
		expect(() => readSec1(Uint8Array.of(...der(ec['P-256'], 'sec1'), 0))).toThrow('1 byte after the key');
		// inside: an Ed25519 seed OCTET STRING followed by a stray byte, lengths adjusted
		const ed = der(ed25519, 'pkcs8');
		const padded = hexBytes(`302f 020100 300506032b6570 0423 ${hex(ed.subarray(14))}00`);
		expect(() => readPkcs8(padded)).toThrow('the Ed25519 CurvePrivateKey: 1 byte after the key');
	});

	test('garbage, BER that is not DER, and keys whose members are wrong are refused', () => {
		const garbage = [
			new Uint8Array(0),
			Uint8Array.of(0x30),
			Uint8Array.of(0x30, 0x80, 0x02, 0x01, 0x00, 0x00, 0x00), // indefinite length
			Uint8Array.of(0x30, 0x81, 0x03, 0x02, 0x01, 0x00), // a length not in its shortest form
			Uint8Array.of(0x1f, 0x81, 0x00), // a high tag number
			Uint8Array.of(0x04, 0x02, 0x30, 0x00), // an OCTET STRING, not a SEQUENCE
			Uint8Array.from('not a key at all, just text', (char) => char.charCodeAt(0)),
			Uint8Array.from({ length: 300 }, (_, i) => (i * 167 + 13) % 256)
		];
		for (const bytes of garbage) {
			for (const read of [readPkcs8, readPkcs1, readSec1]) expect(() => read(bytes)).toThrow();
		}
		// well-formed DER of the wrong structure
		expect(() => readPkcs1(p256)).toThrow('an RSAPrivateKey has 9 members, not 3');
		expect(() => readSec1(p256)).toThrow('the ECPrivateKey version must be 1');
		expect(() => readPkcs8(der(rsa2048, 'pkcs1'))).toThrow('the PKCS#8 algorithm has the wrong type');
		// a version 2 PKCS#8, a multi-prime RSA version, a negative modulus
		expect(() => readPkcs8(Uint8Array.of(...p256.subarray(0, 5), 2, ...p256.subarray(6)))).toThrow('unknown PKCS#8 version 2');
		const pkcs1 = der(rsa2048, 'pkcs1');
		expect(() => readPkcs1(Uint8Array.of(...pkcs1.subarray(0, 6), 1, ...pkcs1.subarray(7)))).toThrow('multi-prime RSA keys are not supported');
		// the modulus INTEGER is 02 82 01 01 00 <256 bytes>: drop its sign byte and it is negative (and the lengths shrink by one)
		const negative = Uint8Array.of(0x30, 0x82, ...u16(pkcs1.length - 5), 0x02, 0x01, 0x00, 0x02, 0x82, ...u16(256), ...pkcs1.subarray(12));
		expect(() => readPkcs1(negative)).toThrow('the RSA modulus is negative');
		// an Ed25519 seed of 31 bytes; an EC private key longer than its curve's
		expect(() => readPkcs8(hexBytes(`302d 020100 300506032b6570 0421 041f ${'11'.repeat(31)}`))).toThrow('an Ed25519 private key is 32 bytes, not 31');
		expect(() => readSec1(hexBytes(`3032 020101 0421 ${'11'.repeat(33)} a00a06082a8648ce3d030107`))).toThrow('a P-256 private key is at most 32 bytes, not 33');
		// a SEC1 key that names no curve (which only PKCS#8 may leave to its AlgorithmIdentifier)
		expect(() => readSec1(hexBytes(`3025 020101 0420 ${'11'.repeat(32)}`))).toThrow('the EC key names no curve');
		// a PKCS#8 whose AlgorithmIdentifier and inner ECPrivateKey disagree on the curve
		const disagree = hexBytes(`3045 020100 301006072a8648ce3d020106052b81040022 042e 302c 020101 0420 ${'11'.repeat(32)} a00506032b6570`);
		expect(() => readPkcs8(disagree)).toThrow('the PKCS#8 algorithm and the ECPrivateKey name different curves');
	});

	test('PEM armour: a missing END line, headers, a body that is not base64, another label', () => {
		const good = pem(ec['P-256'], 'pkcs8');
		expect(thrown(() => readPrivateKeyPem(good.replace('-----END PRIVATE KEY-----', '')))).toBe('no "-----END PRIVATE KEY-----" line');
		expect(thrown(() => readPrivateKeyPem(good.replace('-----BEGIN PRIVATE KEY-----\n', '-----BEGIN PRIVATE KEY-----\nComment: x\n\n')))).toBe('PEM headers are not supported');
		expect(thrown(() => readPrivateKeyPem('-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----'))).toBe('the PEM body is not base64');
		expect(thrown(() => readPrivateKeyPem('-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----'))).toBe(
			'a "OPENSSH PRIVATE KEY" PEM is not a PKCS#8, PKCS#1 or SEC1 private key'
		);
		// text around the block, CRLF line ends and the first of two blocks are fine
		const surrounded = `my key:\r\n${good.replace(/\n/g, '\r\n')}\r\n${pem(ec['P-384'], 'pkcs8')}`;
		expect(readPrivateKeyPem(surrounded)).toMatchObject({ type: 'ec', namedCurve: 'P-256' });
		// and the start-up check says so in the existing words
		expect(() => privateKeySigningAlgorithm('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----')).toThrow(
			/^it cannot be read as a private key \(PKCS#8 PrivateKeyInfo: .*\); an encrypted PEM must be decrypted first$/
		);
	});
});

describe('PKCS#1 and SEC1 keys sign assertions that verify with their public keys', () => {
	const as = { issuer: 'https://idp.example', token_endpoint: 'https://idp.example/token' };
	test.each([
		['RSA PKCS#1', rsa2048, 'pkcs1', 'RS256'],
		['EC P-256 SEC1', ec['P-256'], 'sec1', 'ES256'],
		['EC P-384 SEC1', ec['P-384'], 'sec1', 'ES384'],
		['EC P-521 SEC1', ec['P-521'], 'sec1', 'ES512'],
		['RSA 3072 PKCS#8', rsa3072, 'pkcs8', 'RS256'],
		['Ed25519 PKCS#8', ed25519, 'pkcs8', 'Ed25519']
	] as const)('%s', async (_name, key, type, alg) => {
		const body = new URLSearchParams();
		await privateKeyJwt({ private_key: pem(key, type), private_key_kid: 'k' })(as, { client_id: 'app' }, body, new Headers());
		const jwt = body.get('client_assertion') as string;
		expect(decodeProtectedHeader(jwt)).toEqual({ alg, kid: 'k' });
		const { payload } = await jwtVerify(jwt, createPublicKey(key), { issuer: 'app', subject: 'app', audience: as.issuer, algorithms: [alg] });
		expect(payload.exp! - payload.iat!).toBe(60);
	});
});

test('bitLength: leading zero bytes do not count', () => {
	expect([[], [0], [1], [0xff], [0, 0x80, 0], [0x01, 0, 0]].map((bytes) => bitLength(Uint8Array.from(bytes)))).toEqual([0, 0, 1, 8, 16, 17]);
});

function hex(bytes: Uint8Array): string {
	return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function hexBytes(text: string): Uint8Array {
	const clean = text.replace(/\s+/g, '');
	return Uint8Array.from({ length: clean.length / 2 }, (_, i) => parseInt(clean.slice(i * 2, i * 2 + 2), 16));
}

function u16(value: number): [number, number] {
	return [value >> 8, value & 0xff];
}
