// A software passkey authenticator for tests: real P-256 keys from node:crypto, authenticator
// data, `none` attestation in CBOR and signed assertions — what a browser would post, byte for byte.

import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
	AuthenticationResponseJSON,
	PublicKeyCredentialCreationOptionsJSON,
	PublicKeyCredentialRequestOptionsJSON,
	RegistrationResponseJSON
} from '@simplewebauthn/server';

/** Authenticator data flags (WebAuthn §6.1). */
const FLAG = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attested: 0x40 } as const;

/** One credential the authenticator holds. */
export interface SoftwareCredential {
	id: string;
	privateKey: KeyObject;
	publicKeyCose: Uint8Array;
	userHandle: string;
	rpId: string;
	counter: number;
}

/** What a test may bend in a ceremony to provoke a failure. */
export interface CeremonyOverrides {
	/** Origin written into clientDataJSON (default: the authenticator's origin). */
	origin?: string;
	/** RP ID hashed into authenticator data (default: the options' RP ID). */
	rpId?: string;
	/** Signature counter to report (default: the credential's counter + 1). */
	counter?: number;
	/** Challenge written into clientDataJSON (default: the options' challenge). */
	challenge?: string;
	/** Credential to use (default: the first allowed one, else the first held). */
	credentialId?: string;
	/** Whether an assertion reports user verification (default: true); false is presence alone, a security key without its PIN. */
	userVerified?: boolean;
}

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

function uint32(value: number): Buffer {
	const buffer = Buffer.alloc(4);
	buffer.writeUInt32BE(value);
	return buffer;
}

function coseKey(publicKey: KeyObject): Uint8Array {
	const jwk = publicKey.export({ format: 'jwk' });
	// kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y
	return isoCBOR.encode(
		new Map<number, number | Uint8Array>([
			[1, 2],
			[3, -7],
			[-1, 1],
			[-2, new Uint8Array(Buffer.from(jwk.x as string, 'base64url'))],
			[-3, new Uint8Array(Buffer.from(jwk.y as string, 'base64url'))]
		])
	);
}

function newCredential(options: PublicKeyCredentialCreationOptionsJSON, rpId: string, counter: number): SoftwareCredential {
	const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
	return { id: b64url(randomBytes(32)), privateKey, publicKeyCose: coseKey(publicKey), userHandle: options.user.id, rpId, counter };
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
	return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/**
 * A platform-like authenticator that creates discoverable, backed-up credentials.
 *
 * @example
 * const device = softwareAuthenticator('http://localhost:3000');
 * const response = device.register(options);
 */
export function softwareAuthenticator(origin: string) {
	const credentials: SoftwareCredential[] = [];

	function register(options: PublicKeyCredentialCreationOptionsJSON, overrides: CeremonyOverrides = {}): RegistrationResponseJSON {
		const rpId = options.rp.id as string;
		// re-registering a held credential (what a second account would try with a stolen one)
		const reused = credentials.find((c) => c.id === overrides.credentialId);
		const credential: SoftwareCredential = reused ?? newCredential(options, rpId, overrides.counter ?? 0);
		const rawId = Buffer.from(credential.id, 'base64url');
		const flags = FLAG.userPresent | FLAG.userVerified | FLAG.backupEligible | FLAG.backedUp | FLAG.attested;
		const idLength = Buffer.alloc(2);
		idLength.writeUInt16BE(rawId.length);
		const authData = Buffer.concat([
			sha256(overrides.rpId ?? rpId),
			Buffer.from([flags]),
			uint32(credential.counter),
			Buffer.alloc(16), // AAGUID: none
			idLength,
			rawId,
			Buffer.from(credential.publicKeyCose)
		]);
		const attestationObject = isoCBOR.encode(
			new Map<string, string | Uint8Array | Map<string, string>>([
				['fmt', 'none'],
				['attStmt', new Map<string, string>()],
				['authData', new Uint8Array(authData)]
			])
		);
		if (!reused) credentials.push(credential);
		return {
			id: credential.id,
			rawId: credential.id,
			type: 'public-key',
			response: {
				clientDataJSON: b64url(clientData('webauthn.create', overrides.challenge ?? options.challenge, overrides.origin ?? origin)),
				attestationObject: b64url(attestationObject),
				transports: ['internal', 'hybrid']
			},
			clientExtensionResults: {},
			authenticatorAttachment: 'platform'
		};
	}

	function authenticate(options: PublicKeyCredentialRequestOptionsJSON, overrides: CeremonyOverrides = {}): AuthenticationResponseJSON {
		const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
		const credential =
			credentials.find((c) => c.id === overrides.credentialId) ??
			credentials.find((c) => allowed.size === 0 || allowed.has(c.id));
		if (!credential) throw new Error('The software authenticator holds no allowed credential.');
		credential.counter = overrides.counter ?? credential.counter + 1;
		const flags = FLAG.userPresent | (overrides.userVerified === false ? 0 : FLAG.userVerified) | FLAG.backupEligible | FLAG.backedUp;
		const authData = Buffer.concat([sha256(overrides.rpId ?? options.rpId ?? credential.rpId), Buffer.from([flags]), uint32(credential.counter)]);
		const clientDataJSON = clientData('webauthn.get', overrides.challenge ?? options.challenge, overrides.origin ?? origin);
		const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
		return {
			id: credential.id,
			rawId: credential.id,
			type: 'public-key',
			response: {
				clientDataJSON: b64url(clientDataJSON),
				authenticatorData: b64url(authData),
				signature: b64url(signature),
				userHandle: credential.userHandle
			},
			clientExtensionResults: {},
			authenticatorAttachment: 'platform'
		};
	}

	return { register, authenticate, credentials };
}
