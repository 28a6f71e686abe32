// SvelteKit request events for tests of the SvelteKit integration: a real Web Request, a cookie
// jar that records what is set, and a way to run code as SvelteKit runs it for that request.

import type { Handle, RequestEvent } from '@sveltejs/kit';

/** SvelteKit's own request store (what `getRequestEvent()` reads); its module ships without types. */
const { with_request_store }: { with_request_store<T>(store: { event: RequestEvent; state: never }, run: () => T): T } = await import('@sveltejs/kit/internal/server' as string);

/** What a test asks of an event. */
export interface EventOptions {
	method?: string;
	/** Request headers (an Origin, an Accept, a Cookie). */
	headers?: Record<string, string>;
	/** A urlencoded form body. */
	form?: Record<string, string>;
	/** SvelteKit's flags for a remote function call and a `__data.json` request. */
	isRemoteRequest?: boolean;
	isDataRequest?: boolean;
}

/** An event with the cookies the request sent and those set while handling it. */
export type TestEvent = RequestEvent & { setCookies: Map<string, string> };

/** A SvelteKit event for `url` (the request's URL). */
export function kitEvent(url: string, options: EventOptions = {}): TestEvent {
	const parsed = new URL(url);
	const headers = new Headers(options.headers);
	if (options.form) headers.set('content-type', 'application/x-www-form-urlencoded');
	const request = new Request(parsed, { method: options.method ?? (options.form ? 'POST' : 'GET'), headers, body: options.form ? new URLSearchParams(options.form) : undefined });
	const sent = new Map((headers.get('cookie') ?? '').split(/;\s*/).filter(Boolean).map((pair) => pair.split('=') as [string, string]));
	const setCookies = new Map<string, string>();
	return {
		url: parsed,
		request,
		locals: {},
		cookies: {
			get: (name: string) => setCookies.get(name) ?? sent.get(name),
			getAll: () => [...sent].map(([name, value]) => ({ name, value })),
			set: (name: string, value: string) => void setCookies.set(name, value),
			delete: (name: string) => void setCookies.set(name, ''),
			serialize: () => ''
		},
		getClientAddress: () => '127.0.0.1',
		params: {},
		route: { id: null },
		setHeaders: () => {},
		isDataRequest: options.isDataRequest ?? false,
		isSubRequest: false,
		isRemoteRequest: options.isRemoteRequest ?? false,
		fetch,
		setCookies
	} as unknown as TestEvent;
}

/** Runs `handle` for `event`, then `inside` as SvelteKit runs the route's code (`getRequestEvent()` finds the event). */
export async function handled<T>(handle: Handle, event: RequestEvent, inside: () => T | Promise<T>): Promise<T> {
	let result: T | undefined;
	await handle({
		event,
		resolve: async (resolved) => {
			result = await with_request_store({ event: resolved, state: {} as never }, inside);
			return new Response('resolved');
		}
	});
	return result as T;
}

/** What `run` threw (SvelteKit's redirect or error), or undefined when it returned. */
export async function thrownBy(run: () => unknown): Promise<{ status?: number; location?: string; body?: { message: string; code?: string }; message?: string } | undefined> {
	try {
		await run();
	} catch (thrown) {
		return thrown as { status: number };
	}
	return undefined;
}
