// Shared parts of the OAuth integration tests: a real oidc-provider with a few clients, provider
// configs pointing at it, and helpers that drive a sign-in from `POST /signin` to the callback.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { startDemoIdp } from '../../../../../scripts/demo-idp.js';
import type { AuthConfig, OAuthConfig } from '../types.js';
import { loginAtIdp, type IdpLoginOptions } from './idp-browser.js';
import { TEST_SECRET, testClient } from './client.js';

/** The app's origin in tests, and a second deployment's (redirect proxy tests). */
export const ORIGIN = 'http://localhost:3000';
export const PROXY_ORIGIN = 'http://localhost:4000';

/** Provider ids the IdP accepts callbacks for (on both origins). */
const PROVIDER_IDS = ['idp', 'other', 'wk', 'post', 'plain', 'refresh'];

/** The IdP's clients: secret-basic (default), secret-post, a second secret-basic client, secret-JWT. */
export const CLIENTS = {
	basic: { client_id: 'kitgate-basic', client_secret: 'basic-secret-basic-secret' },
	post: { client_id: 'kitgate-post', client_secret: 'post-secret-post-secret', token_endpoint_auth_method: 'client_secret_post' as const },
	second: { client_id: 'kitgate-second', client_secret: 'second-secret-second-secret' },
	jwt: { client_id: 'kitgate-jwt', client_secret: 'jwt-secret-jwt-secret-jwt-secret-jwt-secret', token_endpoint_auth_method: 'client_secret_jwt' as const }
};

/** Starts the IdP for a test file. */
export async function startTestIdp(): Promise<{ issuer: string; close: () => Promise<void> }> {
	const redirect_uris = [ORIGIN, PROXY_ORIGIN].flatMap((origin) => PROVIDER_IDS.map((id) => `${origin}/auth/callback/${id}`));
	return startDemoIdp({ clients: Object.values(CLIENTS).map((client) => ({ ...client, redirect_uris })) });
}

/**
 * The identity provider world of a test file: the test IdP, started before the file's tests and
 * closed after them. Read `world.idp` inside tests and hooks.
 *
 * @example
 * const world = testIdpWorld();
 * test('…', async () => {
 * 	const client = testClient(oauthConfig([idpProvider(world.idp.issuer)]));
 * });
 */
export function testIdpWorld() {
	const world = {} as { idp: Awaited<ReturnType<typeof startTestIdp>> };
	beforeAll(async () => {
		world.idp = await startTestIdp();
	});
	afterAll(() => world.idp?.close());
	return world;
}

/** An OIDC provider on the test IdP (client `kitgate-basic`), with `overrides`. */
export function idpProvider(issuer: string, overrides: Partial<OAuthConfig> = {}): OAuthConfig {
	return {
		id: 'idp',
		name: 'Test IdP',
		type: 'oidc',
		issuer,
		clientId: CLIENTS.basic.client_id,
		clientSecret: CLIENTS.basic.client_secret,
		...overrides
	};
}

/** A config for `Auth()` with the test secret and `providers`. */
export function oauthConfig(providers: OAuthConfig[], overrides: Partial<AuthConfig> = {}): AuthConfig {
	return { secret: TEST_SECRET, trustHost: true, providers, logger: quietLogger().logger, ...overrides };
}

/** A logger that keeps what it is given, so tests can check the logged causes. */
export function quietLogger() {
	const errors: Error[] = [];
	const warnings: string[] = [];
	// everything logged, in order: errors and warnings (refused requests are warnings, see the failure table)
	const lines: string[] = [];
	return {
		errors,
		warnings,
		logger: {
			error: (error: Error) => {
				errors.push(error);
				lines.push(`${error.name}: ${error.message} ${describeCause(error.cause)}`);
				if (process.env.DEBUG_OAUTH) console.error(error, (error.cause as { err?: unknown } | undefined)?.err);
			},
			warn: (code: string, ...message: unknown[]) => {
				warnings.push([code, ...message].join(' '));
				lines.push([code, ...message.map((part) => (part instanceof Error ? describeCause({ err: part }) : String(part)))].join(' '));
			},
			debug: () => {}
		},
		/** Every logged error and warning with its causes, one line each. */
		text: () => lines.join('\n')
	};
}

function describeCause(cause: unknown): string {
	const err = (cause as { err?: unknown } | undefined)?.err ?? cause;
	if (err instanceof Error) return `<- ${err.name}: ${err.message} ${describeCause(err.cause)}`;
	return '';
}

export type TestClient = ReturnType<typeof testClient>;

/** `POST /auth/signin/{id}` with a CSRF token; returns the response (a redirect to the IdP). */
export async function startSignIn(client: TestClient, providerId: string, fields: Record<string, string> = {}, query = ''): Promise<Response> {
	const csrfToken = await client.csrfToken();
	return client.request(`/auth/signin/${providerId}${query}`, { form: { csrfToken, callbackUrl: '/dashboard', ...fields } });
}

/** The authorization URL a sign-in start redirected to. */
export function authorizationUrl(response: Response): URL {
	expect(response.status).toBe(302);
	return new URL(response.headers.get('location') as string);
}

/** Starts a sign-in, logs in at the IdP and returns the IdP's redirect back to the app (not yet followed). */
export async function throughIdp(client: TestClient, providerId: string, options: IdpLoginOptions = {}): Promise<string> {
	const started = await startSignIn(client, providerId);
	return loginAtIdp(authorizationUrl(started).href, options);
}

/** A whole sign-in: start, IdP login, callback. Returns the callback's response. */
export async function signInThroughIdp(client: TestClient, providerId: string, options: IdpLoginOptions = {}): Promise<Response> {
	const back = await throughIdp(client, providerId, options);
	return client.request(back);
}

/**
 * An explicit link of another provider by the signed-in user: `POST /auth/account/link` (CSRF token,
 * `callbackUrl` /dashboard), IdP login, callback. Returns the callback's response.
 */
export async function linkThroughIdp(client: TestClient, providerId: string, options: IdpLoginOptions = {}): Promise<Response> {
	const csrfToken = await client.csrfToken();
	const started = await client.request('/auth/account/link', { form: { csrfToken, provider: providerId, callbackUrl: '/dashboard' } });
	return client.request(await loginAtIdp(authorizationUrl(started).href, options));
}

/** True when the response sets a session cookie with a value. */
export function setsSession(response: Response): boolean {
	return response.headers
		.getSetCookie()
		.some((line) => /^(__Secure-)?kitgate\.session-token(\.\d+)?=[^;]+/.test(line) && !/max-age=0/i.test(line));
}

/** Asserts an error redirect to the sign-in page (or error page) with `type`, and no session. */
export function expectErrorRedirect(response: Response, type: string, page: 'signin' | 'error' = 'signin'): void {
	expect(response.status).toBe(302);
	const location = new URL(response.headers.get('location') as string);
	expect(location.pathname).toBe(`/auth/${page}`);
	expect(location.searchParams.get('error')).toBe(type);
	expect(setsSession(response)).toBe(false);
}

/** One request that passed through a recording proxy. */
export interface RecordedRequest {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/**
 * A pass-through HTTP proxy on 127.0.0.1 in front of `target` (the real IdP) that records what the
 * client sent, so tests can see how kitgate authenticates at the token endpoint.
 */
export async function startRecordingProxy(target: string): Promise<{ url: string; requests: RecordedRequest[]; close: () => Promise<void> }> {
	const requests: RecordedRequest[] = [];
	const server = createServer(async (req, res) => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const body = Buffer.concat(chunks).toString('utf8');
		requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body });
		const headers = Object.fromEntries(
			Object.entries(req.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host')
		);
		const upstream = await fetch(`${target}${req.url}`, { method: req.method, headers, body: body || undefined, redirect: 'manual' });
		res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
		res.end(Buffer.from(await upstream.arrayBuffer()));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: () => new Promise<void>((resolve) => server.close(() => resolve()))
	};
}
