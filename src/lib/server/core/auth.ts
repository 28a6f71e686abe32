// The engine: `Auth(request, config)` routes a Web Request under basePath to its action and
// returns a Response. Errors become safe redirects, pages or 4xx answers; causes go to the log.

import { parseBody, readBody, type RequestBody } from './request/body.js';
import { resolveConfig, type ResolvedConfig } from './config/resolve-config.js';
import { createContext, type RequestContext, type RequestOptions, type RequestSource } from './request/context.js';
import type { OutgoingCookie } from './request/cookies.js';
import { AuthError, failures, MethodNotAllowed, UnknownAction } from './errors.js';
import { asAuthError, failureAnswer, logFailure } from './response/failure-answer.js';
import { processEnv } from './config/env.js';
import { createLogger } from './config/logger.js';
import { rawToResponse, toRawResponse, type Outcome, type RawResponse } from './response/outcome.js';
import { getCsrfToken } from './actions/csrf.js';
import { handleCallback } from './actions/callback.js';
import { showErrorPage } from './actions/error.js';
import { listProviders } from './actions/providers.js';
import { readSessionAction, updateSessionAction } from './actions/session.js';
import { showSignInPage, startSignIn } from './actions/signin.js';
import { findProvider } from './request/request-checks.js';
import { showSignOutPage, signOut } from './actions/signout.js';
import { showVerifyRequest } from './actions/verify-request.js';
import { getWebAuthnOptions } from './actions/webauthn-options.js';
import { deleteWebAuthnAuthenticator, listWebAuthnAuthenticators } from './actions/webauthn-authenticators.js';
import { resolveMessages } from '../pages/messages.js';
import { renderPage } from '../pages/render.js';
import { dropSessionCacheCookie } from './session/session-cache.js';
import { readStoredSession } from './session/session.js';
import { hasAdminSessionCookie } from './admin/impersonation-cookie.js';
import { loadOnce } from './util/load-once.js';
import type { AuthConfig } from './types.js';

type Handler = (ctx: RequestContext, providerId: string | undefined, body: RequestBody) => Promise<Outcome> | Outcome;

/** Each route: its handlers by method, and whether it takes a provider id segment. */
const routes: Record<string, { GET?: Handler; POST?: Handler; provider: 'none' | 'optional' | 'required' }> = {
	providers: { GET: listProviders, provider: 'none' },
	csrf: { GET: getCsrfToken, provider: 'none' },
	session: { GET: readSessionAction, POST: (ctx, _id, body) => updateSessionAction(ctx, body), provider: 'none' },
	signin: { GET: showSignInPage, POST: startSignIn, provider: 'optional' },
	callback: { GET: handleCallback, POST: handleCallback, provider: 'required' },
	signout: { GET: showSignOutPage, POST: (ctx, _id, body) => signOut(ctx, body), provider: 'none' },
	error: { GET: showErrorPage, provider: 'none' },
	'verify-request': { GET: showVerifyRequest, provider: 'none' },
	'webauthn-options': { GET: getWebAuthnOptions, provider: 'required' },
	'webauthn-authenticators': { GET: listWebAuthnAuthenticators, POST: deleteWebAuthnAuthenticator, provider: 'required' },
	// the segment after `account` names the operation (docs/account.md)
	account: {
		GET: async (ctx, operation, body) => (await accountActions()).showAccount(ctx, operation, body),
		POST: async (ctx, operation, body) => (await accountActions()).changeAccount(ctx, operation, body),
		provider: 'optional'
	},
	// the admin routes (docs/admin.md): the segment after `admin` names the page or the change
	admin: {
		GET: async (ctx, operation, body) => (await adminActions()).showAdmin(ctx, operation, body),
		POST: async (ctx, operation, body) => (await adminActions()).changeAdmin(ctx, operation, body),
		provider: 'optional'
	},
	// the organization routes (docs/organizations.md): the segment after `organizations` names the page or the change
	organizations: {
		GET: async (ctx, operation, body) => (await organizationActions()).showOrganizations(ctx, operation, body),
		POST: async (ctx, operation, body) => (await organizationActions()).changeOrganizations(ctx, operation, body),
		provider: 'optional'
	},
	// the second sign-in step of a user with a second factor (two-factor/second-factor.ts); its
	// segment `passkey` takes a passkey instead of a code (two-factor/passkey-second-factor.ts)
	'second-factor': {
		GET: async (ctx, step) => (step === undefined ? (await secondFactorActions()).showSecondFactor(ctx) : (await passkeyStepActions()).showPasskeyStepOptions(ctx, step)),
		POST: async (ctx, step, body) =>
			step === undefined ? (await secondFactorActions()).verifySecondFactor(ctx, body) : (await passkeyStepActions()).verifyPasskeyStepAction(ctx, step, body),
		provider: 'optional'
	}
};

// The account page and the second step, with what they need (device names, TOTP, QR codes), are
// loaded on their first request: an app that never serves them keeps them out of memory.
const accountActions = loadOnce(() => import('./actions/account.js'));
const adminActions = loadOnce(() => import('./actions/admin.js'));
const organizationActions = loadOnce(() => import('./actions/organizations.js'));
const secondFactorActions = loadOnce(() => import('./actions/second-factor.js'));
const passkeyStepActions = loadOnce(() => import('./actions/second-factor-passkey.js'));


/** Routes that show a built-in page without reading the session themselves. */
const PAGE_ROUTES = new Set(['signin', 'signout', 'error', 'verify-request']);

/** Routes that answer JSON clients; their errors are JSON too. */
const JSON_ROUTES = new Set(['providers', 'csrf', 'session', 'webauthn-options', 'webauthn-authenticators']);

/**
 * Handles one request to kitgate's routes under `basePath`.
 *
 * @example
 * // any server with Web Request/Response
 * const response = await Auth(request, { providers: [Credentials({ ... })], secret: process.env.AUTH_SECRET });
 */
export async function Auth(request: Request, config: AuthConfig, options: RequestOptions = {}): Promise<Response> {
	return (await runAuth(request, config, options)).response;
}

/** What `runAuth` gives integrations: the response and the cookies it sets, as objects. */
export interface AuthRun {
	response: Response;
	cookies: OutgoingCookie[];
}

/** `Auth()` for integrations that must set cookies themselves (SvelteKit form actions). */
export async function runAuth(request: Request, config: AuthConfig, options: RequestOptions = {}): Promise<AuthRun> {
	const { raw, cookies } = await runAuthRaw(request, config, options);
	return { response: rawToResponse(raw), cookies };
}

/**
 * `Auth()` answering plain values, for integrations that write responses themselves (Express);
 * they may hand over a `RequestSource` instead of a Web Request, built only if a callback needs it.
 */
export async function runAuthRaw(
	request: Request | RequestSource,
	config: AuthConfig,
	options: RequestOptions = {}
): Promise<{ raw: RawResponse; cookies: OutgoingCookie[] }> {
	let resolved: ResolvedConfig;
	try {
		resolved = resolveConfig(config);
	} catch (error) {
		// what to change is shown only where the runtime says it is development (a Worker has no NODE_ENV)
		const stage = processEnv().NODE_ENV;
		return { raw: configurationErrorAnswer(config, error, { detail: stage === 'development' || stage === 'test' }), cookies: [] };
	}
	let ctx: RequestContext;
	try {
		ctx = createContext(request, resolved, options);
	} catch (error) {
		// a request the engine cannot even read (an invalid or untrusted Host): no page to send it to
		const failure = asAuthError(error);
		logFailure(resolved.logger, failure);
		const body = JSON.stringify({ error: failure.type });
		return { raw: { status: failures[failure.type].status, headers: [['content-type', 'application/json']], body }, cookies: [] };
	}
	const raw = toRawResponse(ctx, await handleRequest(ctx));
	return { raw, cookies: ctx.setCookies };
}

/** Splits `{basePath}/{action}/{providerId}`; undefined when the path is not under basePath. */
export function parseAuthPath(pathname: string, basePath: string): { action: string; providerId?: string; extra: boolean } | undefined {
	if (!pathname.startsWith(`${basePath}/`)) return undefined;
	const segments = pathname.slice(basePath.length + 1).split('/');
	let providerId: string | undefined;
	try {
		providerId = segments[1] ? decodeURIComponent(segments[1]) : undefined;
	} catch {
		providerId = undefined;
	}
	return { action: segments[0], providerId, extra: segments.length > 2 && segments.slice(2).some(Boolean) };
}

async function handleRequest(ctx: RequestContext): Promise<Outcome> {
	const parsed = parseAuthPath(ctx.url.pathname, ctx.config.basePath);
	const route = parsed && !parsed.extra ? routes[parsed.action] : undefined;
	const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
	if (!parsed || !route || !Object.hasOwn(routes, parsed.action) || (route.provider === 'none' && parsed.providerId)) {
		return failure(ctx, new UnknownAction(`No kitgate route at ${ctx.url.pathname}.`), true);
	}
	const handler = route[method as 'GET' | 'POST'];
	if (!handler) {
		const allow = (['GET', 'POST'] as const).filter((m) => route[m]).join(', ');
		return failureAnswer(ctx, new MethodNotAllowed(`${method} ${ctx.url.pathname}: the route takes ${allow}.`), { json: true, headers: { allow } });
	}
	// an admin impersonating someone sees the banner with its Stop button on every built-in page:
	// the pages that do not read the session read it then (only with the kept admin cookie)
	if (method === 'GET' && PAGE_ROUTES.has(parsed.action) && hasAdminSessionCookie(ctx)) await readStoredSession(ctx).catch(() => null);
	// a passkey callback is posted by script and answers JSON too
	const isJson = JSON_ROUTES.has(parsed.action) || (parsed.action === 'callback' && isWebAuthnProvider(ctx, parsed.providerId));
	// a POST may change the session or its user in this browser (GET routes change nothing but by
	// starting a new session): the copy of a database session (session.cache) then goes, unless the
	// route wrote a new one
	if (ctx.config.sessionCache && method === 'POST') {
		return dropSessionCacheAfter(ctx, () => routeOutcome(ctx, route, handler, parsed, method, isJson));
	}
	return routeOutcome(ctx, route, handler, parsed, method, isJson);
}

async function dropSessionCacheAfter(ctx: RequestContext, run: () => Promise<Outcome>): Promise<Outcome> {
	const outcome = await run();
	dropSessionCacheCookie(ctx);
	return outcome;
}

async function routeOutcome(
	ctx: RequestContext,
	route: (typeof routes)[string],
	handler: Handler,
	parsed: { action: string; providerId?: string },
	method: string,
	isJson: boolean
): Promise<Outcome> {
	try {
		if (route.provider === 'required' && !parsed.providerId) throw new UnknownAction('The route needs a provider id.');
		const body = method === 'POST' ? await postBody(ctx) : {};
		// GET signin/:provider shows the page (for a known provider); only POST starts a flow
		if (method === 'GET' && parsed.action === 'signin') {
			if (parsed.providerId !== undefined) findProvider(ctx, parsed.providerId);
			return await handler(ctx, undefined, body);
		}
		return await handler(ctx, parsed.providerId, body);
	} catch (error) {
		return failure(ctx, error, isJson);
	}
}

/** The body of a POST: from the bytes the integration read, else from the Web Request. */
function postBody(ctx: RequestContext): Promise<RequestBody> {
	return ctx.bodyBytes === undefined ? readBody(ctx.request) : parseBody(ctx.bodyBytes, ctx.headers.get('content-type'));
}

function isWebAuthnProvider(ctx: RequestContext, providerId: string | undefined): boolean {
	return providerId !== undefined && ctx.config.providerById.get(providerId)?.type === 'webauthn';
}

/**
 * The answer to a route that failed: JSON for JSON routes, else the failure's page. A missing
 * route or provider is JSON for clients that are not browsers (`curl` gets a plain 404).
 */
function failure(ctx: RequestContext, error: unknown, json: boolean): Outcome {
	const notFound = error instanceof AuthError && (error.type === 'UnknownAction' || error.type === 'InvalidProvider');
	return failureAnswer(ctx, error, { json: json || (notFound && !wantsPage(ctx.headers)) });
}

/** True for a browser navigation (it accepts HTML) or a script asking for the redirect target. */
function wantsPage(headers: RequestContext['headers']): boolean {
	return headers.get('x-auth-return-redirect') === '1' || (headers.get('accept') ?? '').includes('text/html');
}

/**
 * Logs a configuration that cannot work through the config's logger (console by default).
 *
 * @example logConfigurationError(config, new MissingSecret('…'));
 */
export function logConfigurationError(config: AuthConfig, error: unknown): void {
	createLogger(config?.logger, false).error(error instanceof Error ? error : new AuthError('Invalid configuration', { cause: { err: error } }));
}

/**
 * The answer to any request while the configuration cannot work (a per-request config found
 * broken): 503 with the error page, or `{ error }` JSON for script routes. With `detail` (in
 * development) the page says what to change; error messages never hold a secret. Logged.
 *
 * @example
 * return configurationErrorAnswer(config, error, { detail: dev, json: path.endsWith('/session') });
 */
export function configurationErrorAnswer(config: AuthConfig, error: unknown, options: { detail: boolean; json?: boolean; log?: boolean }): RawResponse {
	// `log: false`: said once already (a start-up error in development, shown on every request)
	if (options.log !== false) logConfigurationError(config, error);
	// the page explains an untrusted host; every other set-up problem is a Configuration error
	const type = error instanceof AuthError && error.type === 'UntrustedHost' ? 'UntrustedHost' : 'Configuration';
	// the Configuration row's status: the server, not the request, is at fault
	const status = failures.Configuration.status;
	if (options.json) {
		return { status, headers: [['content-type', 'application/json'], ['cache-control', 'no-store']], body: JSON.stringify({ error: type }) };
	}
	const html = renderPage('error', {
		theme: config?.theme ?? {},
		messages: resolveMessages(config?.locale, config?.messages),
		lang: config?.locale ?? 'en',
		error: type,
		signInUrl: '',
		homeUrl: '/',
		detail: options.detail && error instanceof Error ? error.message : undefined
	});
	return { status, headers: [['content-type', 'text/html; charset=utf-8'], ['cache-control', 'no-store']], body: html };
}
