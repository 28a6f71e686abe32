// A second OpenID Provider, independent of oidc-provider: `oauth2-mock-server` (discovery, JWKS,
// signed ID tokens with nonce, PKCE), behind a token endpoint check that authenticates clients.
//
// oauth2-mock-server issues tokens to any caller and reads the client id of an HTTP Basic header
// without percent-decoding it (its ID token's `aud` is the raw user-id). The check in front of it
// compares client credentials the same way, as many servers do (Spring Security's Basic
// converter, the `basic-auth` package, passport-http): split at the first `:`, no decoding. So
// this is the "non-decoding" server of the client authentication tests; oidc-provider decodes.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify, type JWK } from 'jose';
import { OAuth2Issuer, OAuth2Service } from 'oauth2-mock-server';

/** A client registered with the second IdP. */
export interface SecondIdpClient {
	client_id: string;
	/** client_secret_basic, client_secret_post, client_secret_jwt. */
	client_secret?: string;
	token_endpoint_auth_method: 'client_secret_basic' | 'client_secret_post' | 'client_secret_jwt' | 'private_key_jwt' | 'none';
	/** private_key_jwt: the client's public key (with `alg`). */
	jwk?: JWK;
}

/** The running second IdP. */
export interface SecondIdp {
	/** e.g. `http://127.0.0.1:41234` */
	issuer: string;
	/** Why each refused token request was refused, in order. */
	refusals: string[];
	close(): Promise<void>;
}

/** The user every sign-in at the second IdP gets (oauth2-mock-server's `sub` is always `johndoe`). */
export const SECOND_IDP_USER = { sub: 'johndoe', email: 'johndoe@second-idp.test', name: 'John Doe' };

/**
 * Starts the second IdP on 127.0.0.1 with `clients`. Its authorization endpoint logs the user in
 * at once (no pages): `loginAtIdp` just follows the redirect back to the app.
 *
 * @example
 * const idp = await startSecondIdp([{ client_id: 'app', client_secret: 's', token_endpoint_auth_method: 'client_secret_basic' }]);
 * // provider: { type: 'oidc', issuer: idp.issuer, clientId: 'app', clientSecret: 's' }
 */
export async function startSecondIdp(clients: SecondIdpClient[]): Promise<SecondIdp> {
	const issuer = new OAuth2Issuer();
	await issuer.keys.generate('RS256');
	const service = new OAuth2Service(issuer);
	service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
		Object.assign(token.payload, { email: SECOND_IDP_USER.email, name: SECOND_IDP_USER.name });
	});
	service.on('beforeUserinfo', (response: { body: Record<string, unknown> }) => {
		Object.assign(response.body, SECOND_IDP_USER);
	});
	const refusals: string[] = [];
	const handler = service.requestHandler;

	const server = createServer(async (req, res) => {
		if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== '/token') return handler(req, res);
		const body = await readForm(req);
		const refusal = await clientAuthRefusal(req, body, clients, issuer.url as string);
		if (refusal) {
			refusals.push(refusal);
			res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="second-idp", error="invalid_client"' });
			res.end(JSON.stringify({ error: 'invalid_client', error_description: refusal }));
			return;
		}
		// the body is read: hand oauth2-mock-server the parsed form, as its own body parser would
		(req as IncomingMessage & { body?: unknown }).body = body;
		handler(req, res as ServerResponse);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	issuer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		issuer: issuer.url,
		refusals,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

/**
 * Why the token request's client authentication fails, or undefined when it passes. One method
 * per request, and it must be the one the client registered (as a real server requires).
 */
async function clientAuthRefusal(
	req: IncomingMessage,
	body: Record<string, string>,
	clients: SecondIdpClient[],
	issuer: string
): Promise<string | undefined> {
	const authorization = req.headers.authorization;
	let method: SecondIdpClient['token_endpoint_auth_method'];
	let clientId: string | undefined;
	let secret: string | undefined;
	if (authorization !== undefined) {
		const [scheme, credentials = ''] = authorization.split(' ');
		if (scheme.toLowerCase() !== 'basic') return `unsupported authorization scheme ${scheme}`;
		// the user-id ends at the first colon; neither part is percent-decoded
		const decoded = Buffer.from(credentials, 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		if (colon === -1) return 'Basic credentials without a colon';
		method = 'client_secret_basic';
		clientId = decoded.slice(0, colon);
		secret = decoded.slice(colon + 1);
		if (body.client_id !== undefined && body.client_id !== clientId) return 'client_id in the body differs from the Basic user-id';
	} else if (body.client_assertion !== undefined) {
		method = 'client_secret_jwt'; // or private_key_jwt: decided by the client's registration below
		clientId = body.client_id;
	} else if (body.client_secret !== undefined) {
		method = 'client_secret_post';
		clientId = body.client_id;
		secret = body.client_secret;
	} else {
		method = 'none';
		clientId = body.client_id;
	}
	const client = clients.find((candidate) => candidate.client_id === clientId);
	if (!client) return `unknown client ${JSON.stringify(clientId)}`;
	const registered = client.token_endpoint_auth_method;
	if (method === 'client_secret_jwt' && (registered === 'client_secret_jwt' || registered === 'private_key_jwt')) {
		return assertionRefusal(body, client, issuer);
	}
	if (method !== registered) return `client ${JSON.stringify(clientId)} authenticates with ${registered}, not ${method}`;
	if (method !== 'none' && secret !== client.client_secret) return `wrong client_secret for ${JSON.stringify(clientId)}`;
	return undefined;
}

async function assertionRefusal(body: Record<string, string>, client: SecondIdpClient, issuer: string): Promise<string | undefined> {
	if (body.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') return 'unknown client_assertion_type';
	const hmac = client.token_endpoint_auth_method === 'client_secret_jwt';
	try {
		const key = hmac ? new TextEncoder().encode(client.client_secret) : await importJWK(client.jwk as JWK, client.jwk?.alg);
		const { payload } = await jwtVerify(body.client_assertion, key, {
			issuer: client.client_id,
			subject: client.client_id,
			audience: issuer,
			algorithms: hmac ? ['HS256'] : [client.jwk?.alg as string],
			requiredClaims: ['exp', 'jti']
		});
		return payload.jti ? undefined : 'client assertion without jti';
	} catch (error) {
		return `client assertion refused: ${(error as Error).message}`;
	}
}
