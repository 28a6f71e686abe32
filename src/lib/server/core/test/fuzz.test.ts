// Hostile-input suite on the engine: thousands of generated requests (fast-check) to `Auth()` with
// credentials, an OIDC provider on a closed port, email and passkeys. No 5xx, no escaping
// exception, no session without credentials, no reflected unescaped input, no foreign redirect.

import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { Auth } from '../auth.js';
import type { AuthConfig } from '../types.js';
import { FUZZ_ORIGIN, allowedHosts, carriesValidCredentials, cookieHeader, encodeBody, expectSafeAnswer, fuzzConfig, fuzzRuns, hostileRequest, isSessionCookie, prepareForgedTokens, type CsrfPair, type HostileRequest } from './hostile-requests.js';
import { closedPort } from './cuttable-proxy.js';

let config: AuthConfig;
let csrf: CsrfPair;

beforeAll(async () => {
	await prepareForgedTokens();
	config = fuzzConfig(await closedPort());
	const answer = await Auth(new Request(`${FUZZ_ORIGIN}/auth/csrf`), config);
	csrf = { cookie: answer.headers.getSetCookie()[0].split(';')[0], token: ((await answer.json()) as { csrfToken: string }).csrfToken };
});

/** The hostile request as a Web Request; undefined when even `Request` refuses it (the client's problem). */
function toWebRequest(hostile: HostileRequest): Request | undefined {
	const headers = new Headers();
	try {
		for (const [name, value] of hostile.headers) headers.append(name, value);
	} catch {
		return undefined;
	}
	const cookie = cookieHeader(hostile, csrf);
	if (cookie) headers.set('cookie', cookie);
	const { bytes, type } = encodeBody(hostile, csrf);
	if (type !== undefined) headers.set('content-type', type);
	const noBody = hostile.method === 'GET' || hostile.method === 'HEAD';
	try {
		return new Request(new URL(hostile.target, FUZZ_ORIGIN), { method: hostile.method, headers, body: noBody ? undefined : (bytes as BodyInit | undefined) });
	} catch {
		return undefined;
	}
}

describe('Auth() under hostile requests', () => {
	test('every answer is safe', async () => {
		let sent = 0;
		await fc.assert(
			fc.asyncProperty(hostileRequest, async (hostile) => {
				const request = toWebRequest(hostile);
				if (!request) return;
				sent++;
				// an exception escaping Auth() fails the property with its stack
				const response = await Auth(request, config);
				const body = await response.text();
				expectSafeAnswer(
					hostile,
					{
						status: response.status,
						contentType: response.headers.get('content-type') ?? '',
						location: response.headers.get('location'),
						setCookies: response.headers.getSetCookie(),
						body
					},
					allowedHosts(hostile)
				);
			}),
			{ numRuns: fuzzRuns(1500), seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined }
		);
		// the harness itself must not have thrown most requests away
		expect(sent).toBeGreaterThan(fuzzRuns(1500) * 0.8);
	}, 120_000);

	test('the generator reaches the flows: valid credentials sign in, and only those', async () => {
		// a sample of the same generator, checked for coverage rather than safety
		const sample = fc.sample(hostileRequest, { numRuns: 3000, seed: 42 });
		const routes = new Set(sample.map((r) => r.target.split('?')[0].split('/').slice(0, 4).join('/')));
		for (const route of ['/auth/callback/credentials', '/auth/signin/email', '/auth/signin/oidc', '/auth/callback/oidc', '/auth/webauthn-options/passkey', '/auth/session', '/auth/signout']) {
			expect(routes, route).toContain(route);
		}
		const valid = { method: 'POST', target: '/auth/callback/credentials', headers: [], cookies: '', withCsrf: true, body: { kind: 'form', fields: { username: 'ada', password: 'lovelace' }, raw: '' } } satisfies HostileRequest;
		expect(carriesValidCredentials(valid)).toBe(true);
		const response = await Auth(toWebRequest(valid)!, config);
		expect(response.headers.getSetCookie().some(isSessionCookie)).toBe(true);
	});
});
