// Reads a request body (urlencoded, multipart form or JSON) into a flat map of string fields.
// Oversized or malformed bodies become `InvalidRequest`, never an exception that escapes as a 500.

import { InvalidRequest } from './errors.js';

/** Largest body kitgate reads; sign-in forms are tiny, passkey responses a few KB. */
export const MAX_BODY_BYTES = 64 * 1024;

/** String fields of a form or JSON body; nested JSON values are kept as they are. */
export type RequestBody = Record<string, unknown>;

/** Parses the body of a POST; an empty or unknown-type body gives `{}`. */
export async function readBody(request: Request): Promise<RequestBody> {
	if (request.method !== 'POST' || !request.body) return {};
	const declared = Number(request.headers.get('content-length') ?? '0');
	if (declared > MAX_BODY_BYTES) throw new InvalidRequest('The request body is too large.');
	const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
	let text: string;
	try {
		const bytes = new Uint8Array(await request.clone().arrayBuffer());
		if (bytes.byteLength > MAX_BODY_BYTES) throw new InvalidRequest('The request body is too large.');
		if (type === 'multipart/form-data') return formToObject(await request.formData());
		text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
	} catch (error) {
		if (error instanceof InvalidRequest) throw error;
		throw new InvalidRequest('The request body could not be read.', { cause: error });
	}
	if (type === 'application/x-www-form-urlencoded') {
		return Object.fromEntries(new URLSearchParams(text));
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

function formToObject(form: FormData): RequestBody {
	const result: RequestBody = {};
	for (const [key, value] of form) if (typeof value === 'string' && !(key in result)) result[key] = value;
	return result;
}

/** A string field of the body, or undefined when absent or not a string. */
export function stringField(body: RequestBody, name: string): string | undefined {
	const value = body[name];
	return typeof value === 'string' ? value : undefined;
}
