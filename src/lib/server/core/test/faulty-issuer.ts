// An OpenID issuer on 127.0.0.1 whose endpoints can be switched to fail: hang (never answer),
// answer malformed JSON, or answer 500. For the fault-injection tests; valid when all are `ok`.

import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

/** How an endpoint behaves. */
export type EndpointMode = 'ok' | 'hang' | 'malformed' | 'error';

/** The issuer and the switches of its endpoints. */
export interface FaultyIssuer {
	issuer: string;
	modes: { discovery: EndpointMode; token: EndpointMode; jwks: EndpointMode };
	/** Requests that were left hanging so far. */
	hung: number;
	/** Token requests received so far. */
	tokenRequests: number;
	close: () => Promise<void>;
}

/**
 * Starts the issuer. Its authorization endpoint is never visited: tests build the callback URL
 * (`?code=anything&state=…`) themselves. The token endpoint signs an ID token for `faulty-user`
 * whose audience is the client id of the request (client_secret_basic).
 *
 * @example
 * const idp = await startFaultyIssuer();
 * idp.modes.token = 'hang';
 */
export async function startFaultyIssuer(): Promise<FaultyIssuer> {
	const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
	const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
	const sockets = new Set<Socket>();
	const state: FaultyIssuer = {
		issuer: '',
		modes: { discovery: 'ok', token: 'ok', jwks: 'ok' },
		hung: 0,
		tokenRequests: 0,
		close: async () => {}
	};

	/** Answers per `mode`; `ok` sends `body()`. */
	async function answer(res: ServerResponse, mode: EndpointMode, body: () => Promise<unknown> | unknown): Promise<void> {
		if (mode === 'hang') {
			state.hung++;
			return;
		}
		if (mode === 'error') {
			res.writeHead(500, { 'content-type': 'text/html' });
			res.end('<h1>Internal Server Error</h1>');
			return;
		}
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(mode === 'malformed' ? '{"issuer": "half a docum' : JSON.stringify(await body()));
	}

	const server = createServer(async (req, res) => {
		for await (const _chunk of req) {
			// drain the body
		}
		const path = (req.url ?? '/').split('?')[0];
		if (path === '/.well-known/openid-configuration') {
			return answer(res, state.modes.discovery, () => ({
				issuer: state.issuer,
				authorization_endpoint: `${state.issuer}/authorize`,
				token_endpoint: `${state.issuer}/token`,
				jwks_uri: `${state.issuer}/jwks`,
				response_types_supported: ['code'],
				subject_types_supported: ['public'],
				id_token_signing_alg_values_supported: ['RS256']
			}));
		}
		if (path === '/jwks') {
			return answer(res, state.modes.jwks, () => ({ keys: [jwk] }));
		}
		if (path === '/token' && req.method === 'POST') {
			state.tokenRequests++;
			const basic = req.headers.authorization?.split(' ')[1];
			const clientId = basic ? decodeURIComponent(Buffer.from(basic, 'base64').toString('utf8').split(':')[0]) : 'unknown';
			return answer(res, state.modes.token, async () => {
				const now = Math.floor(Date.now() / 1000);
				const idToken = await new SignJWT({ email: 'faulty@example.test', name: 'Faulty User' })
					.setProtectedHeader({ alg: 'RS256', kid: 'k1' })
					.setIssuer(state.issuer)
					.setSubject('faulty-user')
					.setAudience(clientId)
					.setIssuedAt(now)
					.setExpirationTime(now + 600)
					.sign(privateKey);
				return { access_token: 'faulty-access-token', token_type: 'Bearer', expires_in: 600, id_token: idToken };
			});
		}
		res.writeHead(404, { 'content-type': 'application/json' });
		res.end('{"error":"not_found"}');
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	state.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	state.close = () =>
		new Promise<void>((resolve) => {
			for (const socket of sockets) socket.destroy();
			server.close(() => resolve());
		});
	return state;
}
