// A small OAuth 1.0a service provider for tests (node:http on 127.0.0.1): request token, authorize,
// access token and a verify_credentials profile, each request's HMAC-SHA1 signature checked.

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hmacSha1Signature, parseOAuthHeader, sameText } from './oauth1-signature-check.js';

/** The user the server signs in (the shape of `1.1/account/verify_credentials.json`). */
export interface TestOAuth1User {
	id: number;
	id_str: string;
	name: string;
	screen_name: string;
	email: string;
	profile_image_url_https: string;
	[key: string]: unknown;
}

/** A running test server. */
export interface OAuth1TestServer {
	/** `http://127.0.0.1:<port>` */
	origin: string;
	consumerKey: string;
	consumerSecret: string;
	user: TestOAuth1User;
	/** Every refused request: path and why (signature, token, verifier, nonce…). */
	refusals: { path: string; reason: string }[];
	/** Paths of the requests whose signature checked out, in order. */
	accepted: string[];
	/** Access tokens issued, with their secrets. */
	accessTokens: Map<string, string>;
	close(): Promise<void>;
}

/** Options of `startOAuth1Server`. */
export interface OAuth1ServerOptions {
	consumerKey?: string;
	consumerSecret?: string;
	user?: Partial<TestOAuth1User>;
}

interface RequestToken {
	secret: string;
	callback: string;
	verifier?: string;
}

/** Seconds of clock difference the server accepts on `oauth_timestamp`. */
const TIMESTAMP_WINDOW = 300;

/**
 * Starts the server on an ephemeral port. Routes: `POST /oauth/request_token`,
 * `GET /oauth/authenticate?oauth_token=…` (approves at once and redirects to the callback;
 * `&deny=1` declines), `POST /oauth/access_token`, `GET /1.1/account/verify_credentials.json`.
 *
 * @example
 * const server = await startOAuth1Server();
 * Twitter({ clientId: server.consumerKey, clientSecret: server.consumerSecret, requestToken: `${server.origin}/oauth/request_token`, ... });
 */
export async function startOAuth1Server(options: OAuth1ServerOptions = {}): Promise<OAuth1TestServer> {
	const consumerKey = options.consumerKey ?? 'test-consumer-key';
	const consumerSecret = options.consumerSecret ?? 'test consumer secret with spaces & symbols!';
	const user: TestOAuth1User = {
		id: 1234567890,
		id_str: '1234567890',
		name: 'Ada Lovelace',
		screen_name: 'ada',
		email: 'ada@example.com',
		profile_image_url_https: 'https://pbs.twimg.test/profile_images/1/ada_normal.jpg',
		...options.user
	};
	const requestTokens = new Map<string, RequestToken>();
	const accessTokens = new Map<string, string>();
	const seenNonces = new Set<string>();
	const refusals: OAuth1TestServer['refusals'] = [];
	const accepted: string[] = [];

	const server = createServer((req, res) => {
		handle(req, res).catch((error: unknown) => {
			res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
		});
	});

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
		const body = await readBody(req);
		const refuse = (status: number, reason: string) => {
			refusals.push({ path: url.pathname, reason });
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ errors: [{ code: 32, message: `Could not authenticate you (${reason}).` }] }));
		};
		const form = (fields: Record<string, string>) => {
			res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' });
			res.end(new URLSearchParams(fields).toString());
		};

		if (req.method === 'GET' && url.pathname === '/oauth/authenticate') {
			const token = url.searchParams.get('oauth_token') ?? '';
			const pending = requestTokens.get(token);
			if (!pending) return refuse(400, 'unknown request token');
			const target = new URL(pending.callback);
			if (url.searchParams.get('deny') === '1') {
				requestTokens.delete(token);
				target.searchParams.set('denied', token);
			} else {
				pending.verifier = randomBytes(12).toString('hex');
				target.searchParams.set('oauth_token', token);
				target.searchParams.set('oauth_verifier', pending.verifier);
			}
			res.writeHead(302, { location: target.href }).end();
			return;
		}

		const oauth = parseOAuthHeader(req.headers.authorization);
		if (!oauth) return refuse(401, 'no OAuth Authorization header');
		const tokenSecretOf = (): string | undefined => {
			if (url.pathname === '/oauth/request_token') return '';
			if (url.pathname === '/oauth/access_token') return requestTokens.get(oauth.oauth_token ?? '')?.secret;
			return accessTokens.get(oauth.oauth_token ?? '');
		};
		const tokenSecret = tokenSecretOf();
		if (tokenSecret === undefined) return refuse(401, 'unknown token');
		const problem = checkRequest(req.method ?? 'GET', url, body, req.headers['content-type'], oauth, tokenSecret);
		if (problem) return refuse(401, problem);
		accepted.push(url.pathname);

		if (req.method === 'POST' && url.pathname === '/oauth/request_token') {
			if (!oauth.oauth_callback) return refuse(400, 'oauth_callback missing');
			const token = `rt-${randomBytes(8).toString('hex')}`;
			const secret = randomBytes(16).toString('base64');
			requestTokens.set(token, { secret, callback: oauth.oauth_callback });
			return form({ oauth_token: token, oauth_token_secret: secret, oauth_callback_confirmed: 'true' });
		}
		if (req.method === 'POST' && url.pathname === '/oauth/access_token') {
			const token = oauth.oauth_token ?? '';
			const pending = requestTokens.get(token);
			if (!pending?.verifier || !oauth.oauth_verifier || !sameText(pending.verifier, oauth.oauth_verifier)) {
				return refuse(401, 'wrong oauth_verifier');
			}
			// request tokens are single use
			requestTokens.delete(token);
			const accessToken = `${user.id_str}-${randomBytes(12).toString('hex')}`;
			const accessSecret = randomBytes(20).toString('base64');
			accessTokens.set(accessToken, accessSecret);
			return form({ oauth_token: accessToken, oauth_token_secret: accessSecret, user_id: user.id_str, screen_name: user.screen_name });
		}
		if (req.method === 'GET' && url.pathname === '/1.1/account/verify_credentials.json') {
			const { email, ...publicFields } = user;
			const profile = url.searchParams.get('include_email') === 'true' ? { ...publicFields, email } : publicFields;
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(profile));
			return;
		}
		refuse(404, `no route ${req.method} ${url.pathname}`);
	}

	/** Why the request must be refused, or undefined when its signature and freshness check out. */
	function checkRequest(
		method: string,
		url: URL,
		body: string,
		contentType: string | undefined,
		oauth: Record<string, string>,
		tokenSecret: string
	): string | undefined {
		if (oauth.oauth_consumer_key !== consumerKey) return 'unknown consumer key';
		if (oauth.oauth_signature_method !== 'HMAC-SHA1') return 'signature method is not HMAC-SHA1';
		if (oauth.oauth_version !== undefined && oauth.oauth_version !== '1.0') return 'oauth_version is not 1.0';
		const timestamp = Number(oauth.oauth_timestamp);
		if (!Number.isInteger(timestamp) || Math.abs(timestamp - Date.now() / 1000) > TIMESTAMP_WINDOW) return 'stale timestamp';
		const nonceKey = `${oauth.oauth_timestamp}:${oauth.oauth_nonce}:${oauth.oauth_token ?? ''}`;
		if (!oauth.oauth_nonce || seenNonces.has(nonceKey)) return 'nonce missing or replayed';

		const bodyParams = (contentType ?? '').startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(body) : [];
		const expected = hmacSha1Signature(method, url, oauth, consumerSecret, tokenSecret, bodyParams);
		if (!oauth.oauth_signature || !sameText(expected, oauth.oauth_signature)) return 'invalid signature';
		seenNonces.add(nonceKey);
		return undefined;
	}

	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		consumerKey,
		consumerSecret,
		user,
		refusals,
		accepted,
		accessTokens,
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close((error) => (error ? reject(error) : resolve()));
			})
	};
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}
