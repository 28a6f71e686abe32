// What an action returns (a redirect, JSON or a page) and how it becomes a Response. How a
// failure becomes an outcome is `failure-answer.ts`.

import type { RequestContext } from '../request/context.js';
import { serializeCookie } from '../request/cookies.js';
import type { ErrorType } from '../errors.js';
import type { PagesOptions } from '../types.js';

/** A failed request's code (and a credentials refusal's `code`), kept on its outcome for integrations. */
export interface OutcomeFailure {
	type: ErrorType;
	code?: string;
}

/** The result of an action. */
export type Outcome =
	| { type: 'redirect'; url: string; failure?: OutcomeFailure }
	| { type: 'json'; body: unknown; status?: number; headers?: Record<string, string>; failure?: OutcomeFailure }
	| { type: 'html'; html: string; status?: number; headers?: Record<string, string> };

/** Absolute URL of a page: the user's page from `pages`, else the built-in route under basePath. */
export function pageUrl(
	ctx: RequestContext,
	page: keyof PagesOptions,
	params: Record<string, string | undefined> = {}
): string {
	const builtIn: Record<keyof PagesOptions, string> = {
		signIn: 'signin',
		signOut: 'signout',
		error: 'error',
		verifyRequest: 'verify-request',
		newUser: 'signin',
		account: 'account',
		secondFactor: 'second-factor'
	};
	const custom = ctx.config.pages[page];
	const url = custom ? new URL(custom, ctx.origin) : new URL(`${ctx.authUrl}/${builtIn[page]}`);
	for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
	return url.href;
}

/** A response as plain values: integrations write it without building a Web Response. */
export interface RawResponse {
	status: number;
	/** Header lines in order; `set-cookie` may appear several times. */
	headers: [string, string][];
	body: string | null;
}

/** Converts an outcome to a raw response with the queued cookies; honours `X-Auth-Return-Redirect: 1`. */
export function toRawResponse(ctx: RequestContext, outcome: Outcome): RawResponse {
	const headers: [string, string][] = [['cache-control', 'no-store']];
	let status: number;
	let body: string | null;
	if (outcome.type === 'redirect') {
		if (ctx.headers.get('x-auth-return-redirect') === '1') {
			headers.push(['content-type', 'application/json']);
			status = 200;
			body = JSON.stringify({ url: outcome.url });
		} else {
			headers.push(['location', outcome.url]);
			status = 302;
			body = null;
		}
	} else if (outcome.type === 'json') {
		headers.push(['content-type', 'application/json']);
		status = outcome.status ?? 200;
		body = JSON.stringify(outcome.body ?? null);
	} else {
		headers.push(['content-type', 'text/html; charset=utf-8']);
		status = outcome.status ?? 200;
		body = outcome.html;
	}
	if (outcome.type !== 'redirect') {
		for (const [name, value] of Object.entries(outcome.headers ?? {})) {
			// an outcome's own header replaces a default of the same name
			const lower = name.toLowerCase();
			const at = headers.findIndex(([existing]) => existing === lower);
			if (at >= 0) headers[at] = [lower, value];
			else headers.push([lower, value]);
		}
	}
	for (const cookie of ctx.setCookies) headers.push(['set-cookie', serializeCookie(cookie)]);
	return { status, headers, body };
}

/** A Web Response carrying a raw response. */
export function rawToResponse(raw: RawResponse): Response {
	const headers = new Headers();
	for (const [name, value] of raw.headers) headers.append(name, value);
	return new Response(raw.body, { status: raw.status, headers });
}

/** Converts an outcome to a Response with the queued cookies; honours `X-Auth-Return-Redirect: 1`. */
export function toResponse(ctx: RequestContext, outcome: Outcome): Response {
	return rawToResponse(toRawResponse(ctx, outcome));
}
