// The per-request context every action receives: resolved config, public URL, cookie names for
// the request's scheme, the request's cookies, and the cookies the response will set.

import type { ResolvedConfig } from './config.js';
import { parseCookies, type CookieSet, type OutgoingCookie } from './cookies.js';
import { csrfState, type CsrfState } from './csrf.js';
import { publicUrl } from './origin.js';
import type { CookieOption } from './types.js';

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

/** Everything an action needs to know about the request it handles. */
export interface RequestContext {
	config: ResolvedConfig;
	request: Request;
	/** The public URL of the request. */
	url: URL;
	/**
	 * The query kitgate reads (callback URL, authorization parameters): the route's own, or empty
	 * when an app's form action calls the engine (the page's query belongs to the app).
	 */
	query: URLSearchParams;
	/** The integration's framework checked the post's origin (`RequestOptions.csrfChecked`). */
	csrfChecked: boolean;
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

/** Builds the context of `request`. Throws `InvalidRequest` for an invalid Host header. */
export function createContext(request: Request, config: ResolvedConfig, options: RequestOptions = {}): RequestContext {
	const url = publicUrl(request, { ...config, requestUrlIsPublic: options.requestUrlIsPublic });
	const secure = config.useSecureCookies ?? url.protocol === 'https:';
	const appBase = (options.appBase ?? '').replace(/\/+$/, '');
	return {
		config,
		request,
		url,
		query: url.searchParams,
		csrfChecked: options.csrfChecked === true,
		origin: url.origin,
		baseUrl: `${url.origin}${appBase}`,
		authUrl: `${url.origin}${config.basePath}`,
		secure,
		cookieNames: secure ? config.cookies.secure : config.cookies.insecure,
		cookies: parseCookies(request.headers.get('cookie')),
		setCookies: [],
		now: config.now(),
		clientAddress: options.clientAddress,
		urlVouched: isUrlVouched(config, options)
	};
}

/** True when the public URL does not come from a Host header kitgate merely trusts (pure). */
function isUrlVouched(config: ResolvedConfig, options: RequestOptions): boolean {
	return Boolean(config.authUrl) || Boolean(options.requestUrlIsPublic) || !config.trustHost;
}

/** What a session check needs to know about a request: its URL's scheme and its headers. */
export interface SessionRequest {
	/** The request URL (only its protocol is read unless a route needs more). */
	url: string;
	headers: { get(name: string): string | null };
}

/**
 * A context for reading the session only: no URL is parsed unless something asks for one (the
 * origin and page URLs are computed on first use). This is the hot path of every request.
 */
export function createSessionContext(request: SessionRequest, config: ResolvedConfig, options: RequestOptions = {}): RequestContext {
	const secure = config.useSecureCookies ?? isHttps(request, config, options.requestUrlIsPublic);
	let full: RequestContext | undefined;
	// routes' fields, built from the real request only when a callback or hook reads them
	const route = () => (full ??= createContext(request as Request, config, options));
	return {
		config,
		get request() {
			return route().request;
		},
		get url() {
			return route().url;
		},
		get query() {
			return route().query;
		},
		csrfChecked: options.csrfChecked === true,
		get origin() {
			return route().origin;
		},
		get baseUrl() {
			return route().baseUrl;
		},
		get authUrl() {
			return route().authUrl;
		},
		secure,
		cookieNames: secure ? config.cookies.secure : config.cookies.insecure,
		cookies: parseCookies(request.headers.get('cookie')),
		setCookies: [],
		now: config.now(),
		urlVouched: isUrlVouched(config, options)
	};
}

/** True when the public URL of the request is HTTPS (same rule as `publicUrl`, without building it). */
function isHttps(request: SessionRequest, config: ResolvedConfig, requestUrlIsPublic = false): boolean {
	if (config.authUrl) return config.authUrl.protocol === 'https:';
	if (config.trustHost && !requestUrlIsPublic) {
		const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0].trim().toLowerCase();
		if (forwarded === 'https' || forwarded === 'http') return forwarded === 'https';
	}
	return request.url.startsWith('https:');
}

/** The CSRF state of the request; queues the CSRF cookie when a new token was made. */
export function requestCsrf(ctx: RequestContext): CsrfState {
	const option: CookieOption = ctx.cookieNames.csrfToken;
	const state = csrfState(ctx.cookies[option.name], ctx.config.secrets);
	if (state.cookieValue && !ctx.setCookies.some((c) => c.name === option.name)) {
		ctx.setCookies.push({ name: option.name, value: state.cookieValue, options: option.options });
	}
	return state;
}
