// What the bench's Workers share, kitgate's and Auth.js's (bench/runtimes.js bundles each for
// Cloudflare's workerd and runs the same modules on Node): the user, the credentials check by a
// constant comparison (no password hash, as in bench/apps), and a mailbox for email links that the
// bench reads back through `GET /__bench/link?email=…`, the one route that is not the library's.

import { BENCH_USER, CREDENTIALS } from '../apps/shared.js';

export { BENCH_USER, CREDENTIAL_FIELDS, CREDENTIALS } from '../apps/shared.js';

/** The user when `credentials` are the bench's username and password (a constant comparison), else null. */
export function constantCheck(credentials) {
	return credentials?.username === CREDENTIALS.username && credentials?.password === CREDENTIALS.password ? { ...BENCH_USER } : null;
}

const links = new Map();

/** Keeps the last link sent to `identifier` (an email provider's `sendVerificationRequest`). */
export function keepLink(identifier, url) {
	links.set(identifier, url);
}

/** The answer to `GET /__bench/link?email=…` (the last link sent there), or undefined for any other request. */
export function mailboxAnswer(request) {
	const url = new URL(request.url);
	if (url.pathname !== '/__bench/link') return undefined;
	const link = links.get(url.searchParams.get('email'));
	return link ? new Response(link) : new Response('no link', { status: 404 });
}
