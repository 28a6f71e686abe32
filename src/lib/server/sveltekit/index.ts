// SvelteKit integration: `SvelteKitAuth(config | (event) => config)` → `{ handle, signIn, signOut }`.
// Export path: `kitgate/sveltekit`. Requests under basePath go to the engine; others get `locals.auth()`.

import { error, isHttpError, redirect, type Action, type RequestEvent } from '@sveltejs/kit';
import { dev } from '$app/environment';
import { env as privateEnv } from '$env/dynamic/private';
import { configurationErrorAnswer, logConfigurationError, runAuth } from '../core/auth.js';
import { signInFromForm, signOutFromForm } from '../core/form-actions.js';
import { resolveConfig } from '../core/config/resolve-config.js';
import type { OutgoingCookie } from '../core/request/cookies.js';
import type { AuthEnv } from '../core/config/env.js';
import { CREDENTIALS_FAILURE, CredentialsSignin, failures, UntrustedHost } from '../core/errors.js';
import type { RequestSource } from '../core/request/context.js';
import { checkSession, sessionRouteAnswer } from '../core/session-check.js';
import { csrfRouteAnswer } from '../core/csrf-route.js';
import type { AuthConfig, Session } from '../core/types.js';
import { appBase } from './app-base.js';
import { kitgateData, registerComponentSource, type ComponentSource } from './component-data.js';
import { isBuilding } from './environment.js';
import { registerRequestKitgate, type RequestKitgate } from './request-kitgate.js';
import { auditImpersonatedRequest } from '../core/admin/impersonation-audit.js';

/** Configuration of the SvelteKit integration (basePath defaults to `{paths.base}/auth`). */
export type SvelteKitAuthConfig = AuthConfig;

/** `locals.auth`: reads the session; `update(data)` runs the callbacks with `trigger: "update"`. */
export interface LocalsAuth {
	(): Promise<Session | null>;
	/** Updates the session from the server (the `jwt` callback receives `trigger: "update"` and `session: data`). */
	update(data: unknown): Promise<Session | null>;
}

declare global {
	// eslint-disable-next-line @typescript-eslint/no-namespace
	namespace App {
		interface Locals {
			/** The session of the request (set by kitgate's `handle`). */
			auth: LocalsAuth;
		}
	}
}

/** What `SvelteKitAuth` returns. */
export interface SvelteKitAuthResult {
	/**
	 * The request hook; compose it with others through `sequence()`. SvelteKit's `Handle`, written
	 * out: SvelteKit 3 moved that type to `@sveltejs/kit/hooks` (from `@sveltejs/kit` it is `any`
	 * there), where SvelteKit 2 has no such export.
	 */
	handle: (input: { event: RequestEvent; resolve: (event: RequestEvent) => Response | Promise<Response> }) => Promise<Response>;
	/** Form action for a `/signin` route: posts `providerId` (and credential fields) to the engine. */
	signIn: Action;
	/** Form action for a `/signout` route. */
	signOut: Action;
}

type ConfigSource = SvelteKitAuthConfig | ((event: RequestEvent) => PromiseLike<SvelteKitAuthConfig>);

const withBasePath = new WeakMap<SvelteKitAuthConfig, SvelteKitAuthConfig>();

/** The config with SvelteKit's default basePath filled in; the same object for the same input (cache). */
function prepare(config: SvelteKitAuthConfig): SvelteKitAuthConfig {
	let prepared = withBasePath.get(config);
	if (!prepared) {
		prepared = config.basePath ? config : { ...config, basePath: `${appBase()}/auth` };
		withBasePath.set(config, prepared);
	}
	return prepared;
}

/**
 * The environment as SvelteKit sees it (`$env/dynamic/private`: `.env` files in dev and preview,
 * the process's variables in production). The URL SvelteKit's adapter builds counts as trusted
 * when the deployment configured it (adapter-node's `ORIGIN`, or `HOST_HEADER` naming the header
 * its proxy sets), on platforms that set it themselves, and in development.
 */
function svelteKitEnv(): AuthEnv {
	const values: AuthEnv = { ...privateEnv };
	const vouched = values.ORIGIN || values.HOST_HEADER || values.VERCEL || values.CF_PAGES || values.NETLIFY || dev || inVitePreview();
	if (vouched && (values.AUTH_TRUST_HOST === undefined || values.AUTH_TRUST_HOST === '')) values.AUTH_TRUST_HOST = 'true';
	return values;
}

/**
 * Whether this server is `vite preview` (a local look at the build): not dev, not building, and
 * the process is Vite's command line (`…/vite/bin/vite.js` or `…/.bin/vite`) run with the command
 * `preview`. The process's own arguments, which no request can touch; a production server (`node
 * build`, a platform's runtime) never matches. There the request URL is built from the Host header
 * (Vite's preview server has no ORIGIN), so it is trusted like `vite dev` for loopback hosts only
 * (`previewHostRefusal`).
 */
function inVitePreview(): boolean {
	if (dev || isBuilding()) return false;
	if (previewing !== undefined) return previewing;
	const args = (globalThis as { process?: { argv?: unknown } }).process?.argv;
	previewing = Array.isArray(args) && typeof args[1] === 'string' && /(?:^|[\\/])vite(?:[\\/]bin[\\/]vite\.js|\.(?:cmd|js|mjs))?$/.test(args[1]) && args.slice(2).includes('preview');
	return previewing;
}

/** `inVitePreview()`, worked out once (a process's arguments do not change). */
let previewing: boolean | undefined;

/** Loopback host names: this machine, whatever resolver or network is there. */
function isLoopback(hostname: string): boolean {
	return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** The errors `previewHostRefusal` made: their message (no secret, no request data) is shown outside development too. */
const previewRefusals = new WeakSet<object>();

/**
 * Under `vite preview`, a request for a host that is not a loopback one, when kitgate trusts the
 * Host header only because this is the preview (no AUTH_URL or `url`, no AUTH_TRUST_HOST or
 * `trustHost`): the error that refuses it. Undefined otherwise.
 */
function previewHostRefusal(event: RequestEvent, config: SvelteKitAuthConfig): UntrustedHost | undefined {
	if (!inVitePreview() || isLoopback(event.url.hostname)) return undefined;
	if (config.url || privateEnv.AUTH_URL || config.trustHost !== undefined || privateEnv.AUTH_TRUST_HOST) return undefined;
	const refusal = new UntrustedHost(
		'Under vite preview, kitgate trusts the Host header only for localhost (localhost, 127.0.0.1, [::1]): open the preview at http://localhost:<port>, ' +
			'or set AUTH_URL to the URL you preview it at.'
	);
	previewRefusals.add(refusal);
	return refusal;
}

/** Configs resolved already (the environment is read once per config, not per request). */
const resolvedConfigs = new WeakSet<SvelteKitAuthConfig>();

/** The config `config` resolved with SvelteKit's environment; throws what is wrong with it. */
function resolved(config: SvelteKitAuthConfig): SvelteKitAuthConfig {
	const prepared = prepare(config);
	if (resolvedConfigs.has(prepared)) return prepared;
	// cached per config object: later engine calls find it resolved with this environment
	resolveConfig(prepared, svelteKitEnv());
	resolvedConfigs.add(prepared);
	return prepared;
}

/**
 * The request as a session read sees it: SvelteKit's parsed URL (the public one, from the adapter's
 * settings) and the request's headers, without serialising the Web Request's URL again; the Web
 * Request itself when a callback asks for it.
 */
function sessionRequestOf(event: RequestEvent): RequestSource {
	const { request } = event;
	return { url: event.url.href, method: request.method, headers: request.headers, toRequest: () => request };
}

/** A JSON answer that must not be cached, with its Set-Cookie lines. */
function jsonResponse(status: number, body: string, setCookies: string[]): Response {
	const headers = new Headers({ 'content-type': 'application/json', 'cache-control': 'no-store' });
	for (const cookie of setCookies) headers.append('set-cookie', cookie);
	return new Response(body, { status, headers });
}

/** A session read that never finds one: what prerendering sees (no cookies, no secrets needed). */
const noSession = Object.assign(async () => null, { update: async () => null }) as LocalsAuth;

/**
 * Adds kitgate to a SvelteKit app.
 *
 * Experimental: the SvelteKit integration (`kitgate/sveltekit`) is experimental, as the interface
 * kitgate implements says of both integrations: its API may still change in a minor version. The
 * engine, the configuration model and the adapters follow semantic versioning.
 *
 * @experimental
 * @example
 * // src/auth.ts
 * export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [Credentials({ ... })] });
 * // src/hooks.server.ts
 * export { handle } from "./auth";
 */
export function SvelteKitAuth(source: ConfigSource): SvelteKitAuthResult {
	// a static config is checked when the server starts (not while the app is built: no secrets then)
	const startupFailed = typeof source !== 'function' && !isBuilding() && !startsUp(source);
	const configOf = async (event: RequestEvent) => {
		const config = resolved(typeof source === 'function' ? await source(event) : source);
		const refusal = previewHostRefusal(event, config);
		if (refusal) throw refusal;
		return config;
	};
	// SvelteKit's adapter built event.url from its own settings (ORIGIN, PROTOCOL_HEADER, HOST_HEADER):
	// that is the public URL, and raw Host / X-Forwarded-* headers are not looked at again
	const options = { appBase: appBase(), requestUrlIsPublic: true };

	const handle: SvelteKitAuthResult['handle'] = async ({ event, resolve }) => {
		// prerendering: no request is real, no secret is there
		if (isBuilding()) {
			event.locals.auth = noSession;
			registerRequestKitgate(event.locals, fallbackKitgate);
			// the components still list the providers: they are in the config, no secret needed
			registerComponentSource(event.locals, () => buildTimeSource(source, event));
			return resolve(event);
		}
		let config: SvelteKitAuthConfig;
		try {
			// a static config is resolved already: no promise on every request
			config = typeof source === 'function' ? await configOf(event) : resolved(source);
			const refusal = typeof source === 'function' ? undefined : previewHostRefusal(event, config);
			if (refusal) throw refusal;
		} catch (failure) {
			registerComponentSource(event.locals, () => unavailable(failure));
			// the remote forms and guards answer 503 through locals.auth() and the actions' own config
			registerRequestKitgate(event.locals, fallbackKitgate);
			// development: the start-up error on every page, as production would not have started
			if (startupFailed) return startupErrorPage(event, source as SvelteKitAuthConfig, failure);
			return misconfigured(event, resolve, typeof source === 'function' ? undefined : source, failure);
		}
		registerComponentSource(event.locals, () => requestSource(config));
		registerRequestKitgate(event.locals, requestKitgateOf(config, signIn, signOut));
		const basePath = config.basePath as string;
		// a change by an impersonated session is audited, kitgate's routes and the app's alike (docs/admin.md)
		if (event.request.method !== 'GET' && event.request.method !== 'HEAD') await auditImpersonatedRequest(sessionRequestOf(event), config, options);
		if (event.request.method === 'GET' && event.url.pathname === `${basePath}/session`) {
			// the hot route: read the cookie directly, as locals.auth() does
			const check = await checkSession(sessionRequestOf(event), config, options);
			const { status, body } = sessionRouteAnswer(check);
			return jsonResponse(status, body, check.setCookies);
		}
		if (event.request.method === 'GET' && event.url.pathname === `${basePath}/csrf`) {
			// fetched before every sign-in: no routing either
			const { status, body, setCookies } = csrfRouteAnswer(sessionRequestOf(event), config, options);
			return jsonResponse(status, body, setCookies);
		}
		if (event.url.pathname.startsWith(`${basePath}/`)) {
			return (await runAuth(event.request, config, { ...options, clientAddress: clientAddressOf(event) })).response;
		}
		let current: Promise<Session | null> | undefined;
		const read = async (update?: { data: unknown }) => {
			const check = await checkSession(sessionRequestOf(event), config, update ? { ...options, update } : options);
			// through SvelteKit's cookies, so that a later write (a sign-in or sign-out action) replaces them
			for (const cookie of check.cookies) setEventCookie(event, cookie);
			return check.session;
		};
		const auth = (() => (current ??= read())) as LocalsAuth;
		auth.update = (data: unknown) => (current = read({ data }));
		event.locals.auth = auth;
		return resolve(event);
	};

	// SvelteKit refuses cross-site posts to form actions, so the engine's CSRF token is not asked for
	const actionOptions = (event: RequestEvent) => ({ ...options, csrfChecked: true, clientAddress: clientAddressOf(event) });

	// a per-request config that cannot work: SvelteKit's 503, as for pages that read the session
	const actionConfig = async (event: RequestEvent) => {
		try {
			return await configOf(event);
		} catch (failure) {
			return unavailable(failure);
		}
	};

	const signIn: Action = async (event) => {
		// development: the fields the form sent, to say which credentials fields it lacked (the engine reads the body)
		const sent = dev ? await formFields(event.request) : undefined;
		const config = await actionConfig(event);
		const result = await signInFromForm(event.request, config, actionOptions(event));
		for (const cookie of result.cookies) setEventCookie(event, cookie);
		if (sent && result.failure) fieldlessCredentials(config, sent);
		if (result.failure?.type === 'CredentialsSignin') credentialsFailure(result.failure.code ?? 'credentials');
		engineRedirect(result.redirect);
	};

	const signOut: Action = async (event) => {
		const result = await signOutFromForm(event.request, await actionConfig(event), actionOptions(event));
		for (const cookie of result.cookies) setEventCookie(event, cookie);
		engineRedirect(result.redirect);
	};

	// before the config is there (prerendering, a config that cannot work): the built-in sign-in page
	const fallbackKitgate = requestKitgateOf({ basePath: `${appBase()}/auth` } as SvelteKitAuthConfig, signIn, signOut);

	return { handle, signIn, signOut };
}

/** What the rest of a request needs of this kitgate (`request-kitgate.ts`): its actions and the pages a signed-out visitor reaches. */
function requestKitgateOf(config: SvelteKitAuthConfig, signIn: Action, signOut: Action): RequestKitgate {
	const signInPage = config.pages?.signIn ?? `${config.basePath}/signin`;
	const openPages = [signInPage, config.pages?.error, config.pages?.verifyRequest].filter((page): page is string => typeof page === 'string' && page !== '');
	return { signIn, signOut, signInPage, openPages };
}

/**
 * SvelteKit's 303 to where the engine sends the browser after a form action: a page of this site
 * it checked, or the provider's authorization URL from the config. SvelteKit 3 refuses an
 * external location unless told (`Cannot redirect to external URL … pass { external: true }`);
 * SvelteKit 2 takes two arguments and ignores the third.
 */
function engineRedirect(location: string): never {
	const kitRedirect: (status: 303, location: string, options: { external: true }) => never = redirect;
	kitRedirect(303, location, { external: true });
}

/**
 * Whether a static config can start. When it cannot, production stops here (the error says what to
 * set). In development (`vite dev`) it is said in the terminal, once, and the server goes on: each
 * page then shows it (`startupErrorPage`), where SvelteKit would show a bare "500 Internal Error"
 * for a hooks module that threw. Vite restarts the server when `.env` changes.
 */
function startsUp(config: SvelteKitAuthConfig): boolean {
	try {
		resolved(config);
		return true;
	} catch (failure) {
		if (!dev) throw failure;
		logConfigurationError(config, failure);
		return false;
	}
}

/**
 * Development only: the answer to every request while the static config cannot start: 503 with
 * kitgate's error page saying what to set and where (JSON `{ error }` for the session route).
 */
function startupErrorPage(event: RequestEvent, config: SvelteKitAuthConfig, failure: unknown): Response {
	const json = event.url.pathname === `${prepare(config).basePath}/session`;
	const raw = configurationErrorAnswer(config, failure, { detail: true, json, log: false });
	return new Response(raw.body, { status: raw.status, headers: raw.headers });
}

/** What `kitgateData` reads of a resolved config (the engine's own view: providers checked, names filled in). */
function requestSource(config: SvelteKitAuthConfig): ComponentSource {
	const view = resolveConfig(config, svelteKitEnv());
	return { basePath: view.basePath, providers: view.providers, accountRoutes: view.account.enabled, locale: view.locale, messages: view.messages };
}

/**
 * What `kitgateData` reads while prerendering: the config as written (not resolved: there is no
 * secret). A config function that needs what only a request has (its platform) gives no providers.
 */
async function buildTimeSource(source: ConfigSource, event: RequestEvent): Promise<ComponentSource> {
	let config: SvelteKitAuthConfig;
	try {
		config = prepare(typeof source === 'function' ? await source(event) : source);
	} catch {
		return { basePath: `${appBase()}/auth`, providers: [], accountRoutes: false };
	}
	const accountRoutes = config.account !== false && (config.account !== undefined || Boolean(config.adapter));
	const providers = Array.isArray(config.providers) ? config.providers : [];
	return { basePath: config.basePath as string, providers, accountRoutes, locale: config.locale, messages: config.messages };
}

/**
 * A configuration that cannot work, met on a request: the auth routes answer 503 (the error page
 * says what to change in development, JSON for the session route); other pages render, and one
 * that calls `locals.auth()` gets SvelteKit's 503 error page. Never a bare 500, never a secret.
 */
function misconfigured(
	event: RequestEvent,
	resolve: Parameters<SvelteKitAuthResult['handle']>[0]['resolve'],
	config: SvelteKitAuthConfig | undefined,
	failure: unknown
): Response | Promise<Response> {
	const basePath = config?.basePath ?? `${appBase()}/auth`;
	if (event.url.pathname.startsWith(`${basePath}/`)) {
		const json = event.url.pathname === `${basePath}/session`;
		const raw = configurationErrorAnswer(config ?? ({} as AuthConfig), failure, { detail: dev || previewRefusals.has(failure as object), json });
		return new Response(raw.body, { status: raw.status, headers: raw.headers });
	}
	const refuse = () => unavailable(failure);
	event.locals.auth = Object.assign(refuse, { update: refuse }) as unknown as LocalsAuth;
	return resolve(event);
}

/** SvelteKit's 503 for a configuration that cannot work (what to change, in development only). */
function unavailable(failure: unknown): never {
	const detail = (dev || previewRefusals.has(failure as object)) && failure instanceof Error;
	error(failures.Configuration.status, detail ? failure.message : 'Sign-in is not configured on this server.');
}

/** The fields of a form post, read from a copy of the request (undefined for any other body). */
async function formFields(request: Request): Promise<FormData | undefined> {
	try {
		return await request.clone().formData();
	} catch {
		return undefined;
	}
}

/** What kitgate's forms add to the provider's fields. */
const FORM_FIELDS = new Set(['providerId', 'provider', 'callbackUrl', 'redirectTo', 'redirect', 'csrfToken']);

/**
 * Development only: a failed credentials sign-in from a form that lacked the provider's fields
 * (declared ones it did not send, or none at all when the provider declares none) is a form to fix,
 * not a wrong password nor an invalid request: SvelteKit's 400 naming the fields and how to give
 * them. Returns when the form had them, or the sign-in was not a credentials one.
 */
function fieldlessCredentials(config: SvelteKitAuthConfig, sent: FormData): void {
	const id = sent.get('providerId') ?? sent.get('provider');
	const provider = resolveConfig(config, svelteKitEnv()).providers.find((candidate) => candidate.id === id && candidate.type === 'credentials');
	if (!provider || provider.type !== 'credentials') return;
	const declared = Object.keys(provider.credentials ?? {});
	const missing = declared.filter((name) => !sent.has(name));
	const ways = 'or give them to SignIn: the credentials prop, a credentials snippet, or slot="credentials" markup';
	if (declared.length > 0 && missing.length > 0) {
		error(
			400,
			`The sign-in form sent no ${missing.join(', ')} for credentials provider "${provider.id}" (it declares ${declared.join(', ')}). ` +
				`<SignIn provider="${provider.id}" /> renders the provider's own fields when the root layout's server load returns kitgate: await kitgateData(event); ` +
				`${ways}, with inputs named ${missing.join(', ')}.`
		);
	}
	if (declared.length === 0 && [...sent.keys()].every((name) => FORM_FIELDS.has(name))) {
		error(
			400,
			`Credentials provider "${provider.id}" declares no fields, and the sign-in form sent none: authorize() got no credentials. ` +
				`Declare them in the provider (credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } }), which <SignIn provider="${provider.id}" /> renders, ${ways}.`
		);
	}
}

/**
 * The spec: in form actions a credentials failure is thrown to the caller. It is SvelteKit's own
 * 401 error, also `instanceof CredentialsSignin` (with its `code`), so an action that does not
 * catch it answers 401, not 500.
 */
function credentialsFailure(code: string): never {
	try {
		error(failures.CredentialsSignin.status, failures.CredentialsSignin.defaultMessage);
	} catch (thrown) {
		if (isHttpError(thrown)) Object.assign(thrown, { [CREDENTIALS_FAILURE]: true, code, type: 'CredentialsSignin' });
		throw thrown;
	}
}

/** The client address SvelteKit's adapter reports (for per-address rate limits); undefined where it cannot tell. */
function clientAddressOf(event: RequestEvent): string | undefined {
	try {
		return event.getClientAddress();
	} catch {
		return undefined;
	}
}

function setEventCookie(event: RequestEvent, cookie: OutgoingCookie): void {
	const { options } = cookie;
	event.cookies.set(cookie.name, cookie.value, {
		path: options.path ?? '/',
		httpOnly: options.httpOnly,
		sameSite: options.sameSite,
		secure: options.secure,
		domain: options.domain,
		maxAge: options.maxAge,
		expires: options.expires
	});
}

export { CredentialsSignin, kitgateData };
export { getSession, requireSession, SESSION_REQUIRED, type RequireSessionOptions } from './session-helpers.js';
export { signInRemote, signOutRemote, type RemoteAuthFormInput, type RemoteSignInFailure } from './remote-forms.js';
export { protect } from './protect.js';
export type { KitgateData, SignInProvider } from '../core/response/component-data.js';
// the types an app augments or annotates, also here (as `@auth/sveltekit` has them): `declare module 'kitgate/sveltekit' { interface Session { … } }`
// from the package root, so that an augmentation of 'kitgate' (Auth.js's of '@auth/core/jwt', renamed) applies wherever these are used
export type { Account, AuthConfig, DefaultSession, JWT, Profile, Session, User } from '../../index.js';
