// A tiny OpenID issuer on 127.0.0.1 whose token endpoint returns a crafted ID token (expired,
// signed with a key not in its JWKS, wrong nonce, or valid): for ID token tests a real IdP can't fake.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

/** What the next token response's ID token looks like. */
export type IdTokenMode = 'valid' | 'expired' | 'bad-signature' | 'wrong-nonce';

/** The fake issuer: set `mode` before each callback. */
export interface FakeIssuer {
	issuer: string;
	mode: IdTokenMode;
	close: () => Promise<void>;
}

/**
 * Starts the fake issuer. Its authorization endpoint is never visited: tests build the callback
 * URL (`?code=anything`) themselves. The ID token's audience is the client id the token request used.
 *
 * @example
 * const fake = await startFakeIssuer();
 * fake.mode = 'expired';
 */
export async function startFakeIssuer(): Promise<FakeIssuer> {
	const published = await generateKeyPair('RS256', { extractable: true });
	const impostor = await generateKeyPair('RS256');
	const jwk = { ...(await exportJWK(published.publicKey)), kid: 'published', alg: 'RS256', use: 'sig' };
	const state: FakeIssuer = { issuer: '', mode: 'valid', close: async () => {} };

	const server = createServer(async (req, res) => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const json = (status: number, body: unknown) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		if (req.url === '/.well-known/openid-configuration') {
			return json(200, {
				issuer: state.issuer,
				authorization_endpoint: `${state.issuer}/authorize`,
				token_endpoint: `${state.issuer}/token`,
				jwks_uri: `${state.issuer}/jwks`,
				response_types_supported: ['code'],
				subject_types_supported: ['public'],
				id_token_signing_alg_values_supported: ['RS256']
			});
		}
		if (req.url === '/jwks') return json(200, { keys: [jwk] });
		if (req.url === '/token' && req.method === 'POST') {
			const basic = req.headers.authorization?.split(' ')[1];
			const clientId = basic ? decodeURIComponent(Buffer.from(basic, 'base64').toString('utf8').split(':')[0]) : 'unknown';
			const now = Math.floor(Date.now() / 1000);
			const expired = state.mode === 'expired';
			const idToken = await new SignJWT({ email: 'fake@example.test', ...(state.mode === 'wrong-nonce' ? { nonce: 'not-the-nonce' } : {}) })
				.setProtectedHeader({ alg: 'RS256', kid: 'published' })
				.setIssuer(state.issuer)
				.setSubject('fake-user')
				.setAudience(clientId)
				.setIssuedAt(expired ? now - 7200 : now)
				.setExpirationTime(expired ? now - 3600 : now + 3600)
				.sign(state.mode === 'bad-signature' ? impostor.privateKey : published.privateKey);
			return json(200, { access_token: 'fake-access-token', token_type: 'Bearer', expires_in: 3600, id_token: idToken });
		}
		json(404, { error: 'not_found' });
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	state.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	state.close = () =>
		new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	return state;
}
