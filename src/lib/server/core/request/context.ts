// The per-request context every action receives: resolved config, public URL, cookie names for
// the request's scheme, the request's cookies, and the cookies the response will set.

import { readableRequest } from './body.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { parseCookies, type CookieSet, type OutgoingCookie } from './cookies.js';
import { csrfState, type CsrfState } from './csrf.js';
import { lazyRequest } from './lazy-request.js';
import { publicUrl } from './public-url.js';
import type { CookieOption } from '../types.js';

/** Options an integration passes along with a request. */
export interface RequestOptions {
	/** Path the application is served under (SvelteKit `paths.base`); default "". */
	appBase?: string;
	/** Address of the client as the server saw it (Express `req.ip`, SvelteKit `getClientAddress()`), for rate limits. */
	clientAddress?: string;
	/**
	 * The request URL is the public URL, built by the framework from its own configuration
	 * (SvelteKit: the adapter's `ORIGIN`, `PROTOCOL_HEADER`, `HOST_HEADER`): Host and
	 * X-Forwarded-* headers of the request are then ignored.
	 */
	requestUrlIsPublic?: boolean;
	/**
	 * The framework already refused cross-site posts (SvelteKit checks the origin of form
	 * actions), so kitgate's CSRF token is not asked for.
	 */
	csrfChecked?: boolean;
}

/** Request headers as the engine reads them: a Web `Headers`, or an integration's own view of its request. */
export interface HeaderReader {
	get(name: string): string | null;
}

/** Everything an action needs to know about the request it handles. */
export interface RequestContext {
	config: ResolvedConfig;
	/** The Web Request; an integration that did not build one has it built on first use (an app callback). */
	request: Request;
	/** The request method (`GET`, `POST`, …), read without building the Web Request. */
	method: string;
	/** The request headers, read without building the Web Request. */
	headers: HeaderReader;
	/** The body bytes an integration already read, for the engine to parse without a Web Request. */
	bodyBytes?: Uint8Array;
	/** A Web Request of this request whose body can still be read (a new one each call when the body was read): what app callbacks get. */
	readableRequest(): Request;
	/**
	 * The same, built only when first read (a stand-in until then, lazy-request.ts): for a callback
	 * that does not declare the request parameter, and so most likely never reads it.
	 */
	readableRequestOnDemand(): Request;
	/** The public URL of the request. */
	url: URL;
	/**
	 * The query kitgate reads (callback URL, authorization parameters): the route's own, or empty
	 * when an app's form action calls the engine (the page's query belongs to the app).
	 */
	query: URLSearchParams;
	/** The integration's framework checked the post's origin (`RequestOptions.csrfChecked`). */
	csrfChecked: boolean;
	/**
	 * Set by the second-factor gate when a trusted browser skipped the second step: the session
	 * this request starts records no sign-in time, so sensitive changes ask for a full sign-in.
	 */
	secondFactorSkipped?: boolean;
	/** Set by a session read that found a valid impersonation: who is shown, and by whom (the pages' banner). */
	impersonation?: { user: string; admin: string };
	/** Public origin, e.g. `https://example.com`. */
	origin: string;
	/** Site URL given to the `redirect` callback: origin plus the application's base path. */
	baseUrl: string;
	/** Origin plus `basePath`: where kitgate's routes live. */
	authUrl: string;
	secure: boolean;
	cookieNames: CookieSet;
	/** Cookies of the request. */
	cookies: Record<string, string>;
	/** Cookies to set on the response. */
	setCookies: OutgoingCookie[];
	/** Current time in milliseconds. */
	now: number;
	/** Client address from the integration (`RequestOptions.clientAddress`), if any. */
	clientAddress?: string;
	/**
	 * True when the public URL is fixed by configuration (AUTH_URL, or the framework's own, as
	 * SvelteKit's adapter), false when it came from a Host header kitgate merely trusts.
	 */
	urlVouched: boolean;
}

/** What a session check needs to know about a request: its URL's scheme and its headers. */
export interface SessionRequest {
	/** The request URL (only its protocol is read unless a route needs more). */
	url: string;
	headers: { get(name: string): string | null };
}

/**
 * A request as an integration hands it to the engine without building a Web Request first
 * (Express): its URL, method, headers and body bytes, and how to build the Web Request should an
 * app callback (`authorize`, `rateLimit.clientAddress`, …) or a failure need one.
 *
 * @example
 * const source: RequestSource = { url, method: 'GET', headers: { get: (name) => null }, toRequest: () => new Request(url) };
 */
export interface RequestSource extends SessionRequest {
	method: string;
	/** `url` already parsed by the integration, handed over (the engine may use this object as its own). */
	parsedUrl?: URL;
	/** The body the integration read (POST), as bytes. */
	body?: Uint8Array;
	/** Builds a new Web Request, body included, on each call. */
	toRequest(): Request;
}

/** True for a Web Request (or anything that is one already, not a source to build it from). */
function isWebRequest(request: Request | RequestSource): request is Request {
	return typeof (request as Partial<RequestSource>).toRequest !== 'function';
}

/**
 * The context of a route request. Its Web Request is built from the integration's source only when
 * something asks for it: most routes read the method, headers and body bytes only.
 */
class RouteContext implements RequestContext {
	config: ResolvedConfig;
	method: string;
	headers: HeaderReader;
	bodyBytes?: Uint8Array;
	url: URL;
	query: URLSearchParams;
	csrfChecked: boolean;
	origin: string;
	baseUrl: string;
	authUrl: string;
	secure: boolean;
	cookieNames: CookieSet;
	cookies: Record<string, string>;
	setCookies: OutgoingCookie[] = [];
	now: number;
	clientAddress?: string;
	urlVouched: boolean;
	#source: Request | RequestSource;
	#request?: Request;

	constructor(request: Request | RequestSource, config: ResolvedConfig, options: RequestOptions) {
		const url = publicUrl(request, { authUrl: config.authUrl, trustHost: config.trustHost, requestUrlIsPublic: options.requestUrlIsPublic });
		const secure = config.useSecureCookies ?? url.protocol === 'https:';
		const appBase = options.appBase ? options.appBase.replace(/\/+$/, '') : '';
		this.#source = request;
		if (isWebRequest(request)) this.#request = request;
		else this.bodyBytes = request.body;
		this.config = config;
		this.method = request.method ?? 'GET';
		this.headers = request.headers;
		this.url = url;
		this.query = url.searchParams;
		this.csrfChecked = options.csrfChecked === true;
		this.origin = url.origin;
		this.baseUrl = `${url.origin}${appBase}`;
		this.authUrl = `${url.origin}${config.basePath}`;
		this.secure = secure;
		this.cookieNames = secure ? config.cookies.secure : config.cookies.insecure;
		this.cookies = parseCookies(request.headers.get('cookie'));
		this.now = config.now();
		this.clientAddress = options.clientAddress;
		this.urlVouched = isUrlVouched(config, options);
	}

	get request(): Request {
		return (this.#request ??= (this.#source as RequestSource).toRequest());
	}

	readableRequest(): Request {
		const source = this.#source;
		return isWebRequest(source) ? readableRequest(source) : source.toRequest();
	}

	readableRequestOnDemand(): Request {
		return lazyRequest(() => this.readableRequest());
	}
}

/**
 * Builds the context of `request` (a Web Request, or an integration's source of one). Throws
 * `InvalidRequest` for an invalid Host header.
 *
 * @example
 * const ctx = createContext(new Request('https://example.com/auth/signin'), resolveConfig(config));
 */
export function createContext(request: Request | RequestSource, config: ResolvedConfig, options: RequestOptions = {}): RequestContext {
	return new RouteContext(request, config, options);
}

/** True when the public URL does not come from a Host header kitgate merely trusts (pure). */
function isUrlVouched(config: ResolvedConfig, options: RequestOptions): boolean {
	return Boolean(config.authUrl) || Boolean(options.requestUrlIsPublic) || !config.trustHost;
}

/**
 * The context of a session read: no URL is parsed unless something asks for one (the origin and
 * page URLs are computed on first use, from a full route context). The hot path of every request,
 * so its lazy fields live on the prototype: a read allocates no closures.
 */
class SessionContext implements RequestContext {
	config: ResolvedConfig;
	csrfChecked: boolean;
	secure: boolean;
	cookieNames: CookieSet;
	cookies: Record<string, string>;
	setCookies: OutgoingCookie[] = [];
	now: number;
	urlVouched: boolean;
	headers: HeaderReader;
	#request: SessionRequest;
	#options: RequestOptions;
	#route?: RequestContext;
	#query?: URLSearchParams;

	constructor(request: SessionRequest, config: ResolvedConfig, options: RequestOptions) {
		const secure = config.useSecureCookies ?? isHttps(request, config, options.requestUrlIsPublic);
		this.#request = request;
		this.#options = options;
		this.config = config;
		this.csrfChecked = options.csrfChecked === true;
		this.secure = secure;
		this.cookieNames = secure ? config.cookies.secure : config.cookies.insecure;
		this.headers = request.headers;
		this.cookies = parseCookies(request.headers.get('cookie'));
		this.now = config.now();
		this.urlVouched = isUrlVouched(config, this.#options);
	}

	/** The route's fields, built from the real request only when a callback or hook reads them. */
	#full(): RequestContext {
		return (this.#route ??= createContext(this.#request as Request, this.config, this.#options));
	}

	get request(): Request {
		return this.#full().request;
	}
	readableRequest(): Request {
		return this.#full().readableRequest();
	}
	readableRequestOnDemand(): Request {
		return this.#full().readableRequestOnDemand();
	}
	get method(): string {
		return (this.#request as Partial<Request>).method ?? 'GET';
	}
	get url(): URL {
		return this.#full().url;
	}
	get query(): URLSearchParams {
		return this.#query ?? this.#full().query;
	}
	set query(query: URLSearchParams) {
		this.#query = query;
	}
	get origin(): string {
		return this.#full().origin;
	}
	get baseUrl(): string {
		return this.#full().baseUrl;
	}
	get authUrl(): string {
		return this.#full().authUrl;
	}
}

/**
 * A context for reading the session only: no URL is parsed unless something asks for one (the
 * origin and page URLs are computed on first use). This is the hot path of every request.
 *
 * @example
 * const ctx = createSessionContext({ url, headers: request.headers }, resolveConfig(config));
 */
export function createSessionContext(request: SessionRequest, config: ResolvedConfig, options: RequestOptions = {}): RequestContext {
	return new SessionContext(request, config, options);
}

/** True when the public URL of the request is HTTPS (same rule as `publicUrl`, without building it). */
function isHttps(request: SessionRequest, config: ResolvedConfig, requestUrlIsPublic = false): boolean {
	if (config.authUrl) return config.authUrl.protocol === 'https:';
	if (config.trustHost && !requestUrlIsPublic) {
		const header = request.headers.get('x-forwarded-proto');
		// the usual value (and Express's answer) needs no splitting, trimming or lower-casing
		const forwarded = header === 'http' || header === 'https' ? header : header?.split(',')[0].trim().toLowerCase();
		if (forwarded === 'https' || forwarded === 'http') return forwarded === 'https';
	}
	return request.url.startsWith('https:');
}

/** The CSRF state each request settled on (one new token per request, not one per call). */
const csrfOfRequest = new WeakMap<RequestContext, CsrfState>();

/**
 * The CSRF state of the request; queues the CSRF cookie when a new token was made. Every call of
 * one request gets the same state: without a cookie, a page asking twice (e.g. an enrolment bound
 * to the token, then its form) would otherwise show a token other than the cookie's.
 */
export function requestCsrf(ctx: RequestContext): CsrfState {
	const option: CookieOption = ctx.cookieNames.csrfToken;
	const state = csrfOfRequest.get(ctx) ?? csrfState(ctx.cookies[option.name], ctx.config.secrets);
	csrfOfRequest.set(ctx, state);
	if (state.cookieValue && !ctx.setCookies.some((c) => c.name === option.name)) {
		ctx.setCookies.push({ name: option.name, value: state.cookieValue, options: option.options });
	}
	return state;
}
