// Test helper: what the two request stand-ins (client.ts's testClient on `Auth()`, integrations.ts's
// Browser over HTTP) put on a request: the Cookie header of their jar, and a form or JSON body with
// its content type and the method that goes with it.

/** The parts of a test request that make its body and method. */
export interface TestRequestBody {
	method?: string;
	/** A form body (urlencoded). */
	form?: Record<string, string>;
	/** A JSON body. */
	json?: unknown;
	/** A raw body with its own content-type header. */
	body?: BodyInit;
}

/**
 * Sets the Cookie header of the cookies in `jar` on `headers`, unless the jar is empty or the
 * request brings a Cookie header of its own.
 *
 * @example
 * sendCookies(headers, new Map([['a', '1'], ['b', '2']])); // cookie: a=1; b=2
 */
export function sendCookies(headers: Headers, jar: ReadonlyMap<string, string> | undefined): void {
	if (jar?.size && !headers.has('cookie')) headers.set('cookie', cookieHeaderOf(jar));
}

/**
 * `name=value; …` of the cookies in `jar`.
 *
 * @example
 * cookieHeaderOf(new Map([['a', '1']])); // 'a=1'
 */
export function cookieHeaderOf(jar: ReadonlyMap<string, string>): string {
	return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/**
 * The body of `init` (a form urlencoded, JSON, or its raw body) with its content type set on
 * `headers`, and its method: the one given, else POST with a body and GET without.
 *
 * @example
 * const { method, body } = encodeRequest({ form: { csrfToken } }, headers); // POST, csrfToken=…
 */
export function encodeRequest(init: TestRequestBody, headers: Headers): { method: string; body: BodyInit | undefined } {
	let body = init.body;
	if (init.form) {
		headers.set('content-type', 'application/x-www-form-urlencoded');
		body = new URLSearchParams(init.form).toString();
	} else if (init.json !== undefined) {
		headers.set('content-type', 'application/json');
		body = JSON.stringify(init.json);
	}
	return { method: init.method ?? (body !== undefined ? 'POST' : 'GET'), body };
}
