// Express integration: `ExpressAuth(config)` middleware for the routes under basePath, and
// `getSession(req, config)`. Export path: `kitgate/express`. Works with Express 5 (and 4).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { runAuthRaw } from '../core/auth.js';
import type { RawResponse } from '../core/response/outcome.js';
import { resolveConfig } from '../core/config/resolve-config.js';
import { MAX_BODY_BYTES } from '../core/request/body.js';
import { failures, InvalidRequest, PayloadTooLarge } from '../core/errors.js';
import { isValidHost } from '../core/request/public-url.js';
import type { RequestSource, SessionRequest } from '../core/request/context.js';
import { checkSession, sessionRouteAnswer } from '../core/session-check.js';
import { csrfRouteAnswer } from '../core/csrf-route.js';
import type { AuthConfig, Session } from '../core/types.js';
import { auditImpersonatedRequest } from '../core/admin/impersonation-audit.js';

/** Configuration of the Express integration (basePath defaults to `/auth`). */
export type ExpressAuthConfig = AuthConfig;

/** The parts of an Express request kitgate reads. */
export interface ExpressRequestLike extends IncomingMessage {
	protocol?: string;
	originalUrl?: string;
	body?: unknown;
	get?(name: string): string | undefined;
	host?: string;
	/** The client address after `trust proxy` (Express sets it). */
	ip?: string;
	/** The response of this request (Express sets it). */
	res?: ServerResponse;
}

type ExpressResponseLike = ServerResponse;
type Next = (error?: unknown) => void;

/**
 * The middleware serving kitgate's routes. Mount it on the basePath:
 * `app.use("/auth", ExpressAuth(config))` or `app.use("/auth/*splat", ExpressAuth(config))`.
 * Set `app.set("trust proxy", true)` behind a proxy so HTTPS is detected.
 *
 * Experimental: the Express integration (`kitgate/express`) is experimental, as the interface
 * kitgate implements says of both integrations: its API may still change in a minor version. The
 * engine, the configuration model and the adapters follow semantic versioning.
 *
 * @experimental
 * @example
 * app.use("/auth", ExpressAuth({ providers: [Credentials({ ... })] }));
 */
export function ExpressAuth(config: ExpressAuthConfig) {
	// validated now, so a misconfiguration stops the server at start-up
	const resolved = resolveConfig(config);
	const sessionPath = `${resolved.basePath}/session`;
	const csrfPath = `${resolved.basePath}/csrf`;
	return async function kitgateMiddleware(req: ExpressRequestLike, res: ExpressResponseLike, next: Next): Promise<void> {
		try {
			const path = (req.originalUrl ?? req.url ?? '/').split('?')[0];
			if (!path.startsWith(`${resolved.basePath}/`)) return next();
			// the session route runs on every page of a client app, the CSRF route before every sign-in:
			// both are answered without routing or a Web Request/Response
			if (req.method === 'GET' && path === sessionPath) {
				const check = await checkSession(sessionRequest(req), config);
				const { status, body } = sessionRouteAnswer(check);
				return writeJson(res, status, body, check.setCookies);
			}
			// (a malformed Host goes through the routes, which answer it 400, as for every other route)
			if (req.method === 'GET' && path === csrfPath && isValidHost(req.host ?? header(req, 'host') ?? '')) {
				const { status, body, setCookies } = csrfRouteAnswer(sessionRequest(req), config);
				return writeJson(res, status, body, setCookies);
			}
			// the client address as Express decided it (`trust proxy`), for per-address rate limits;
			// read before the body, while the socket is surely attached
			const clientAddress = req.ip ?? req.socket?.remoteAddress;
			let request: RequestSource;
			try {
				// no Web Request: the engine reads the method, headers and body bytes, and builds one only for an app callback
				request = await requestSource(req, true);
			} catch (error) {
				if (error instanceof PayloadTooLarge) return refuseLargeBody(req, res);
				// a body that broke off or failed to read: the client gets a 400, never a 500
				if (error instanceof InvalidRequest) return refuseBody(res);
				throw error;
			}
			// a change by an impersonated session is audited (a read of the session only when the admin's kept cookie is there)
			if (isAuditedChange(req)) await auditImpersonatedChange(req, config);
			const { raw } = await runAuthRaw(request, config, { clientAddress });
			writeRawResponse(res, raw);
		} catch (error) {
			next(error);
		}
	};
}

/**
 * The session of an Express request, or null. kitgate extends the session cookie when `updateAge`
 * says so (and replaces an adopted Auth.js cookie) on `res`, or on `req.res` when `res` is not
 * passed, as in Auth.js's `getSession(req, config)`.
 *
 * @example
 * app.use(async (req, res, next) => { res.locals.session = await getSession(req, config, res); next(); });
 */
export async function getSession(
	req: ExpressRequestLike,
	config: ExpressAuthConfig,
	res?: ExpressResponseLike
): Promise<Session | null> {
	// a read (GET, HEAD) is never audited: no call and no await on the hot path
	if (isAuditedChange(req)) await auditImpersonatedChange(req, config);
	// the hot path: no Web Request is built, only what a session read needs
	const { session, setCookies } = await checkSession(sessionRequest(req), config);
	const response = res ?? req.res;
	if (response && setCookies.length && !response.headersSent) appendSetCookie(response, setCookies);
	return session;
}

const audited = new WeakSet<object>();

/** True for a change (not GET or HEAD) not yet audited in this request. */
function isAuditedChange(req: ExpressRequestLike): boolean {
	const method = req.method ?? 'GET';
	return method !== 'GET' && method !== 'HEAD' && !audited.has(req);
}

/** Audits a change made by an impersonated session, once per request (docs/admin.md, "Impersonation"). */
async function auditImpersonatedChange(req: ExpressRequestLike, config: ExpressAuthConfig): Promise<void> {
	if (!isAuditedChange(req)) return;
	audited.add(req);
	await auditImpersonatedRequest(Object.assign(sessionRequest(req), { method: req.method ?? 'GET' }), config);
}

/** Express's protocol for the request (its `trust proxy` setting applied), without Express: the socket's. */
function protocolOf(req: ExpressRequestLike): string {
	return req.protocol ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
}

function header(req: ExpressRequestLike, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The request's headers as the engine reads them, without copying them into a Web `Headers`:
 * Express has already applied `trust proxy` to the protocol and host, so raw X-Forwarded-Proto
 * and X-Forwarded-Host are replaced by its answer.
 */
class ExpressHeaders {
	constructor(
		private readonly req: ExpressRequestLike,
		private readonly protocol: string,
		private readonly forwardedHost: () => string | null,
		/** The body was re-encoded from what a body parser made of it: its declared length no longer holds. */
		private readonly reencoded = false
	) {}

	get(name: string): string | null {
		const key = name.toLowerCase();
		if (key === 'x-forwarded-proto') return this.protocol;
		if (key === 'x-forwarded-host') return this.forwardedHost();
		if ((key === 'content-length' && this.reencoded) || key.startsWith(':')) return null;
		return header(this.req, key) ?? null;
	}
}

/** The request as a session check sees it: Express's protocol and host, the raw headers, no URL until asked for. */
class ExpressSessionRequest implements SessionRequest {
	readonly headers: ExpressHeaders;

	constructor(private readonly req: ExpressRequestLike) {
		this.headers = new ExpressHeaders(req, protocolOf(req), () => req.host ?? header(req, 'host') ?? null);
	}

	get url(): string {
		const { req } = this;
		return `${protocolOf(req)}://${req.host ?? header(req, 'host') ?? 'localhost'}${req.originalUrl ?? req.url ?? '/'}`;
	}
}

function sessionRequest(req: ExpressRequestLike): SessionRequest {
	return new ExpressSessionRequest(req);
}

/** An Express request as the engine's routes read it; the Web Request is built from it only on demand. */
class ExpressRequestSource implements RequestSource {
	readonly url: string;
	readonly parsedUrl: URL;
	readonly method: string;
	readonly headers: ExpressHeaders;
	readonly body: Uint8Array | undefined;

	constructor(
		private readonly req: ExpressRequestLike,
		url: URL,
		protocol: string,
		forwardedHost: string,
		/** The body as read or re-encoded (a string stays one, as `new Request` takes it). */
		private readonly rawBody: string | Uint8Array | undefined,
		reencoded: boolean
	) {
		this.body = typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody;
		this.url = url.href;
		// handed to the engine, which parses nothing again
		this.parsedUrl = url;
		this.method = req.method ?? 'GET';
		this.headers = new ExpressHeaders(req, protocol, () => forwardedHost, reencoded);
	}

	toRequest(): Request {
		const headers = new Headers();
		for (const [name, value] of Object.entries(this.req.headers)) {
			if (value === undefined || name.startsWith(':')) continue;
			headers.set(name, Array.isArray(value) ? value.join(', ') : value);
		}
		headers.set('x-forwarded-proto', this.headers.get('x-forwarded-proto') as string);
		headers.set('x-forwarded-host', this.headers.get('x-forwarded-host') as string);
		if (this.headers.get('content-length') === null) headers.delete('content-length');
		const init: RequestInit = { method: this.method, headers };
		if (this.rawBody !== undefined) init.body = this.rawBody as BodyInit;
		return new Request(this.url, init);
	}
}

/**
 * The request as the engine's routes read it: protocol and host from Express (its own `trust
 * proxy` setting), the body read (when `withBody`) as bytes. A body over `MAX_BODY_BYTES`
 * (declared or sent) throws `PayloadTooLarge` and is not read further.
 */
async function requestSource(req: ExpressRequestLike, withBody: boolean): Promise<ExpressRequestSource> {
	const protocol = protocolOf(req);
	const host = req.host ?? req.get?.('host') ?? header(req, 'host') ?? 'localhost';
	// a malformed or empty Host is passed on so the engine answers 400 InvalidRequest (not a 500 here)
	const malformedHost = isValidHost(host) ? undefined : host || '(empty)';
	const url = new URL(req.originalUrl ?? req.url ?? '/', `${protocol}://${malformedHost === undefined ? host : 'localhost'}`);
	const method = req.method ?? 'GET';
	let body: string | Uint8Array | undefined;
	let reencoded = false;
	if (withBody && method !== 'GET' && method !== 'HEAD') ({ bytes: body, reencoded } = await requestBody(req));
	return new ExpressRequestSource(req, url, protocol, malformedHost ?? url.host, body, reencoded);
}

/**
 * Converts an Express request to a Web Request. Protocol and host come from Express, which
 * applies its own `trust proxy` setting, so raw X-Forwarded-* headers are replaced by its answer.
 * A body over `MAX_BODY_BYTES` (declared or sent) throws `PayloadTooLarge` and is not read further;
 * one that breaks off throws `InvalidRequest`. The middleware itself no longer builds one per route.
 *
 * @example
 * const request = await toWebRequest(req, true);
 */
export async function toWebRequest(req: ExpressRequestLike, withBody: boolean): Promise<Request> {
	return (await requestSource(req, withBody)).toRequest();
}

/** The body bytes: re-encoded when a body parser already consumed the stream, else read raw. */
async function requestBody(req: ExpressRequestLike): Promise<{ bytes: string | Uint8Array; reencoded: boolean }> {
	if (req.body !== undefined && req.body !== null && typeof req.body === 'object' && !(req.body instanceof Uint8Array)) {
		const type = header(req, 'content-type') ?? '';
		if (type.includes('application/json')) return { bytes: JSON.stringify(req.body), reencoded: true };
		const form = new URLSearchParams();
		for (const [key, value] of Object.entries(req.body as Record<string, unknown>)) {
			if (typeof value === 'string') form.append(key, value);
		}
		return { bytes: form.toString(), reencoded: true };
	}
	if (typeof req.body === 'string' || req.body instanceof Uint8Array) return { bytes: req.body, reencoded: false };
	// refused on the declared length before a byte is read
	if (Number(header(req, 'content-length') ?? 0) > MAX_BODY_BYTES) throw new PayloadTooLarge(`The request body is larger than ${MAX_BODY_BYTES} bytes.`);
	return { bytes: await readRawBody(req), reencoded: false };
}

/** Reads the stream up to MAX_BODY_BYTES; past that it stops reading and throws `PayloadTooLarge`. */
function readRawBody(req: ExpressRequestLike): Promise<Uint8Array> {
	return new Promise((resolve, reject) => {
		if (req.readableEnded) return resolve(new Uint8Array(0));
		if (req.destroyed) return reject(new InvalidRequest('The request body could not be read.'));
		const chunks: Uint8Array[] = [];
		let size = 0;
		const settle = (error?: Error) => {
			req.off('data', onData);
			req.off('end', onEnd);
			req.off('error', onError);
			req.off('close', onClose);
			if (error) reject(error);
			else resolve(Buffer.concat(chunks));
		};
		const onData = (chunk: Uint8Array | string) => {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			size += bytes.byteLength;
			if (size <= MAX_BODY_BYTES) return void chunks.push(bytes);
			// stop reading here; the socket stays open until the 413 is written (see refuseLargeBody)
			req.pause();
			settle(new PayloadTooLarge(`The request body is larger than ${MAX_BODY_BYTES} bytes.`));
		};
		const onEnd = () => settle();
		const onError = (error: Error) => settle(error);
		const onClose = () => settle(new InvalidRequest('The request body ended early.'));
		req.on('data', onData);
		req.on('end', onEnd);
		req.on('error', onError);
		req.on('close', onClose);
	});
}

/** Answers 400 InvalidRequest to a body that could not be read (the client may be gone already). */
function refuseBody(res: ExpressResponseLike): void {
	if (res.headersSent || res.writableEnded) return;
	res.statusCode = failures.InvalidRequest.status;
	res.setHeader('content-type', 'application/json');
	res.setHeader('cache-control', 'no-store');
	res.end(JSON.stringify({ error: 'InvalidRequest' }));
}

/** How long a refused request's connection stays open for the client to read the 413, and how much of the rest is drained meanwhile. */
const LINGER_MS = 2000;
const LINGER_BYTES = 1024 * 1024;

/**
 * Answers 413 to a body over the limit, with the failure table's code for it (`PayloadTooLarge`) and
 * `Connection: close`; the rest of the body is never stored. Closing while the client still sends
 * would reset the connection and could lose the answer (RFC 9112 §9.6), so the answer is written
 * whole first and `end()`, after which Node closes the socket, waits until the client closes, at
 * most LINGER_MS. Meanwhile up to LINGER_BYTES are drained unread; past that reading stops, which
 * stalls the client's upload until it reads the answer.
 */
function refuseLargeBody(req: ExpressRequestLike, res: ExpressResponseLike): void {
	const body = JSON.stringify({ error: 'PayloadTooLarge' });
	res.writeHead(failures.PayloadTooLarge.status, {
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(body),
		'cache-control': 'no-store',
		connection: 'close'
	});
	res.write(body);
	let drained = 0;
	let closed = false;
	const close = () => {
		if (closed) return;
		closed = true;
		clearTimeout(timer);
		req.off('data', discard);
		req.off('end', close);
		req.off('close', close);
		res.end();
	};
	const discard = (chunk: Uint8Array | string) => {
		drained += chunk.length;
		if (drained > LINGER_BYTES) req.pause();
	};
	const timer = setTimeout(close, LINGER_MS);
	req.on('data', discard);
	req.on('end', close);
	req.on('close', close);
	req.resume();
}

function appendSetCookie(res: ExpressResponseLike, cookies: string[]): void {
	const existing = res.getHeader('set-cookie');
	const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
	res.setHeader('set-cookie', [...list, ...cookies]);
}

/** Writes a JSON answer that must not be cached, with its Set-Cookie lines. */
function writeJson(res: ExpressResponseLike, status: number, body: string, setCookies: string[]): void {
	res.statusCode = status;
	res.setHeader('content-type', 'application/json');
	res.setHeader('cache-control', 'no-store');
	if (setCookies.length) appendSetCookie(res, setCookies);
	res.end(body);
}

/** Writes a raw engine response to an Express/Node response, keeping every Set-Cookie header. */
function writeRawResponse(res: ExpressResponseLike, raw: RawResponse): void {
	res.statusCode = raw.status;
	const cookies: string[] = [];
	for (const [name, value] of raw.headers) {
		if (name === 'set-cookie') cookies.push(value);
		else res.setHeader(name, value);
	}
	if (cookies.length) appendSetCookie(res, cookies);
	res.end(raw.body ?? undefined);
}

// the types an app augments or annotates, also here (as `@auth/express` has them)
// from the package root, so that an augmentation of 'kitgate' (Auth.js's of '@auth/core/jwt', renamed) applies wherever these are used
export type { Account, AuthConfig, DefaultSession, JWT, Profile, Session, User } from '../../index.js';
