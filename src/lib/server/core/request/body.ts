// Reads a request body (urlencoded, multipart form or JSON) into a flat map of string fields.
// Oversized or malformed bodies become `InvalidRequest`, never an exception that escapes as a 500.

import { InvalidRequest, PayloadTooLarge } from '../errors.js';

/** Largest body kitgate reads; sign-in forms are tiny, passkey responses a few KB. */
export const MAX_BODY_BYTES = 64 * 1024;

/** String fields of a form or JSON body; nested JSON values are kept as they are. */
export type RequestBody = Record<string, unknown>;

/** Bytes of bodies already read, so an app callback can still be handed a readable request. */
const bodies = new WeakMap<Request, Uint8Array>();

/**
 * `request` as the app should see it in callbacks such as `authorize(credentials, request)`: when
 * kitgate has read the body, a copy whose body can be read again.
 */
export function readableRequest(request: Request): Request {
	const bytes = bodies.get(request);
	if (!bytes) return request;
	return new Request(request.url, { method: request.method, headers: request.headers, body: bytes as BodyInit });
}

/** Decodes without state between calls (no `stream` option), so one decoder serves every request. */
const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Parses the body of a POST; an empty or unknown-type body gives `{}`. */
export async function readBody(request: Request): Promise<RequestBody> {
	if (request.method !== 'POST' || !request.body) return {};
	const declared = Number(request.headers.get('content-length') ?? '0');
	if (declared > MAX_BODY_BYTES) throw new PayloadTooLarge(`The request body is larger than ${MAX_BODY_BYTES} bytes.`);
	let bytes: Uint8Array;
	try {
		bytes = new Uint8Array(await request.arrayBuffer());
	} catch (error) {
		// a framework's own body limit (SvelteKit's BODY_SIZE_LIMIT) says 413
		if ((error as { status?: unknown } | null)?.status === 413) throw new PayloadTooLarge(`The request body is larger than the server reads.`);
		throw new InvalidRequest('The request body could not be read.', { cause: error });
	}
	if (bytes.byteLength > MAX_BODY_BYTES) throw new PayloadTooLarge(`The request body is larger than ${MAX_BODY_BYTES} bytes.`);
	bodies.set(request, bytes);
	return parseBody(bytes, request.headers.get('content-type'));
}

/**
 * Parses body bytes an integration already read (no Web Request is built for them) by their
 * Content-Type, as `readBody` does.
 *
 * @example
 * const body = await parseBody(new TextEncoder().encode('a=1'), 'application/x-www-form-urlencoded'); // { a: '1' }
 */
export async function parseBody(bytes: Uint8Array, contentType: string | null): Promise<RequestBody> {
	if (bytes.byteLength > MAX_BODY_BYTES) throw new PayloadTooLarge(`The request body is larger than ${MAX_BODY_BYTES} bytes.`);
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	if (type === 'multipart/form-data') {
		try {
			// the bytes are already read: parse them with the request's own boundary
			return firstValues(await new Response(bytes as BodyInit, { headers: { 'content-type': contentType ?? '' } }).formData());
		} catch (error) {
			throw new InvalidRequest('The multipart body could not be read.', { cause: error });
		}
	}
	const text = utf8.decode(bytes);
	if (type === 'application/x-www-form-urlencoded') {
		return firstValues(new URLSearchParams(text));
	}
	if (type === 'application/json') {
		try {
			const parsed: unknown = JSON.parse(text);
			if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as RequestBody;
		} catch {
			// fall through
		}
		throw new InvalidRequest('The JSON body must be an object.');
	}
	return {};
}

/** Fields a form body carried more than once, by the body parsed from it. */
const repeated = new WeakMap<RequestBody, Set<string>>();

/**
 * The string fields of a form, the first value of a field sent twice: what the app's own
 * `FormData.get()` reads, so an app that checks a field before calling kitgate checks the value
 * kitgate acts on, whatever the encoding. Fields sent more than once are noted (`repeatedFields`).
 */
function firstValues(form: Iterable<[string, FormDataEntryValue]>): RequestBody {
	const result: RequestBody = {};
	const seen = new Set<string>();
	let twice: Set<string> | undefined;
	for (const [key, value] of form) {
		if (seen.has(key)) (twice ??= new Set()).add(key);
		seen.add(key);
		if (typeof value !== 'string' || Object.hasOwn(result, key)) continue;
		// defined, not assigned: a field named __proto__ is a field like any other
		if (key === '__proto__') Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
		else result[key] = value;
	}
	if (twice) repeated.set(result, twice);
	return result;
}

/**
 * Names among `names` that the form body `body` (as `readBody` or `parseBody` parsed it) carried
 * more than once, whatever their values' types; empty for other bodies. kitgate keeps one value of
 * each field, but an app reading the request handed to a callback could see another one.
 *
 * @example
 * repeatedFields(await parseBody(bytes('a=1&a=2'), 'application/x-www-form-urlencoded'), ['a']) // Set { 'a' }
 */
export function repeatedFields(body: RequestBody, names: readonly string[]): Set<string> {
	const twice = repeated.get(body);
	return new Set(twice ? names.filter((name) => twice.has(name)) : []);
}

/** A string field of the body, or undefined when absent or not a string. */
export function stringField(body: RequestBody, name: string): string | undefined {
	const value = body[name];
	return typeof value === 'string' ? value : undefined;
}
