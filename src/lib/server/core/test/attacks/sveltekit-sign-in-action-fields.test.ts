// Attacks: what the fields of a form post (and the page's own query) can make SvelteKit's
// `signIn` action do, now that it hands the post to the route code (signInFromForm). Real app,
// real identity provider (oidc-provider), a same-origin post each time (what SvelteKit lets in).
//
// HOLDS: the page's query is not the sign-in's; authorizationParams.* / -* cannot replace the
// parameters that tie the callback to the browser; odd provider ids are InvalidProvider; oversized
// bodies are InvalidRequest; callback URLs of OAuth and email sign-ins started here stay on site.
// BROKE (each fixed since, the test kept):
// - `request` / `request_uri` pass as authorization parameters: at a provider that supports
//   request objects (RFC 9101: it then uses the object's parameters only; Keycloak accepts
//   unsigned ones unless the client pins an algorithm) they replace redirect_uri, state, nonce and
//   code_challenge, the very parameters PROTECTED_PARAMS keeps out. Defence in depth: the form is
//   the app's own page.
// - a repeated field: kitgate reads the LAST value of an urlencoded body (the first of a multipart
//   one), SvelteKit's / the platform's FormData.get() the FIRST. An app action that checks
//   `email` or `providerId` before calling `signIn(event)` (an allow-list of domains, password
//   sign-in switched off) checks one value and kitgate acts on another. The credentials flow
//   already refuses repeated fields for this reason (InvalidRequest); the other fields do not.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Email from '../../../providers/email.js';
import Passkey from '../../../providers/passkey.js';
import type { AuthConfig } from '../../types.js';
import { loginAtIdp } from '../idp-browser.js';
import { Browser, startApp, type AppServer } from '../integrations.js';
import { attackConfig, rightPasswordCredentials, startIdpFor } from './flows.js';

let app: AppServer;
let idp: Awaited<ReturnType<typeof startIdpFor>>;
beforeAll(async () => {
	app = await startApp('sveltekit');
	idp = await startIdpFor([app.origin], ['idp']);
	idp.addAccount({ id: 'ada', email: 'ada@example.com', name: 'Ada', email_verified: true });
});
afterAll(async () => {
	await Promise.all([app?.close(), idp?.close()]);
});

/** Mails "sent" by the email provider: the address and the link. */
const mail: { to: string; url: string }[] = [];

function config(): AuthConfig {
	return attackConfig(MemoryAdapter(), 'jwt', {
		experimental: { enableWebAuthn: true },
		providers: [
			rightPasswordCredentials(),
			Email({ sendVerificationRequest: ({ identifier, url }) => void mail.push({ to: identifier, url }) }),
			Passkey(),
			idp.provider('idp')
		]
	});
}

const page = { accept: 'text/html' };
const locationOf = (answer: Response) => new URL(answer.headers.get('location') as string, app.origin);
const sessionCookies = (answer: Response) => answer.headers.getSetCookie().filter((line) => /^kitgate\.session-token(\.\d+)?=[^;]/.test(line));

/** A same-origin post with a raw urlencoded body (repeated fields). */
function postRaw(path: string, body: string): Promise<Response> {
	return fetch(`${app.origin}${path}`, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.origin, ...page },
		body
	});
}

describe('the page\'s own query', () => {
	test('never reaches the sign-in: not its callbackUrl, not its parameters for the identity provider', async () => {
		app.use(config());
		mail.length = 0;
		const query = `?callbackUrl=${encodeURIComponent('https://evil.example/x')}&login_hint=from-page&prompt=none&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`;
		const browser = new Browser();
		const credentials = await browser.request(`${app.origin}/signin${query}`, { form: { providerId: 'credentials', username: 'ada', password: 'right' }, headers: page });
		expect(locationOf(credentials).href).toBe(`${app.origin}/`);

		const oauth = await browser.request(`${app.origin}/signin${query}`, { form: { providerId: 'idp' }, headers: page });
		const authorization = locationOf(oauth);
		expect(authorization.origin).toBe(idp.issuer);
		for (const name of ['login_hint', 'prompt', 'callbackUrl']) expect(authorization.searchParams.has(name), name).toBe(false);
		expect(authorization.searchParams.get('redirect_uri')).toBe(`${app.origin}/auth/callback/idp`);
		// and where the OAuth sign-in ends: the site, not the page query's callbackUrl
		const back = await browser.request(await loginAtIdp(authorization.href, { login: 'ada' }));
		expect(locationOf(back).href).toBe(`${app.origin}/`);

		await browser.request(`${app.origin}/signin${query}`, { form: { providerId: 'email', email: 'ada@example.com' }, headers: page });
		expect(mail).toHaveLength(1);
		expect(new URL(mail[0].url).searchParams.get('callbackUrl')).toBe(`${app.origin}/`);
	});
});

describe('authorizationParams fields', () => {
	const PROTECTED = ['redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'nonce', 'client_id', 'response_type', 'callbackUrl'];

	test.each(['authorizationParams.', 'authorizationParams-'])('%s<name> cannot replace what ties the callback to this browser', async (prefix) => {
		app.use(config());
		const fields: Record<string, string> = { providerId: 'idp', [`${prefix}login_hint`]: 'ada@example.com' };
		for (const name of PROTECTED) fields[`${prefix}${name}`] = `forged-${name}`;
		const answer = await new Browser().request(`${app.origin}/signin`, { form: fields, headers: page });
		const authorization = locationOf(answer);
		expect(authorization.origin).toBe(idp.issuer);
		// the control: an unprotected parameter does pass
		expect(authorization.searchParams.get('login_hint')).toBe('ada@example.com');
		for (const name of PROTECTED) {
			expect(authorization.searchParams.getAll(name).some((value) => value.startsWith('forged-')), name).toBe(false);
		}
		expect(authorization.searchParams.get('redirect_uri')).toBe(`${app.origin}/auth/callback/idp`);
		expect(authorization.searchParams.get('client_id')).toBe('attack-client');
		expect(authorization.searchParams.get('response_type')).toBe('code');
		expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
	});

	test('cannot smuggle a request object (request, request_uri) that replaces them at the provider', async () => {
		app.use(config());
		// an unsigned request object (alg "none") naming the attacker's state, nonce and PKCE challenge
		const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
		const requestObject = `${part({ alg: 'none' })}.${part({ client_id: 'attack-client', response_type: 'code', redirect_uri: `${app.origin}/auth/callback/idp`, state: 'attacker', nonce: 'attacker', code_challenge: 'attacker', code_challenge_method: 'plain' })}.`;
		const browser = new Browser();
		const viaAction = await browser.request(`${app.origin}/signin`, {
			form: { providerId: 'idp', 'authorizationParams.request': requestObject, 'authorizationParams-request_uri': 'https://evil.example/request.jwt' },
			headers: page
		});
		// the engine route takes them from its query (Auth.js's signIn(id, options, authorizationParams))
		const csrfToken = await browser.csrfToken(app.origin);
		const viaRoute = await browser.request(`${app.origin}/auth/signin/idp?request=${requestObject}&request_uri=${encodeURIComponent('https://evil.example/request.jwt')}`, {
			form: { csrfToken }
		});
		for (const [path, answer] of [['action', viaAction], ['route', viaRoute]] as const) {
			const authorization = locationOf(answer);
			expect(authorization.origin, path).toBe(idp.issuer);
			expect.soft(authorization.searchParams.has('request'), `${path}: a request object reached the provider`).toBe(false);
			expect.soft(authorization.searchParams.has('request_uri'), `${path}: a request_uri reached the provider`).toBe(false);
		}
	});
});

describe('providerId', () => {
	test.each(['nope', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'passkey', '../callback/credentials'])('%j: the InvalidProvider error page, no cookie, no mail', async (providerId) => {
		app.use(config());
		mail.length = 0;
		const answer = await new Browser().request(`${app.origin}/signin`, { form: { providerId, email: 'ada@example.com', username: 'ada', password: 'right' }, headers: page });
		expect(answer.status).toBe(303);
		expect(locationOf(answer).href).toBe(`${app.origin}/auth/error?error=InvalidProvider`);
		expect(answer.headers.getSetCookie()).toEqual([]);
		expect(mail).toEqual([]);
	});
});

describe('fields sent twice', () => {
	test('a repeated email or providerId is not resolved differently from the app\'s own FormData.get()', async () => {
		app.use(config());
		mail.length = 0;
		// what an app action wrapping `signIn` reads to allow only its own domain
		const emailBody = 'providerId=email&email=ada%40allowed.example&email=eve%40evil.example';
		const appSees = (await new Request('http://x/', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: emailBody }).formData()).get('email');
		expect(appSees).toBe('ada@allowed.example');
		await postRaw('/signin', emailBody);
		expect(mail.map((m) => m.to), 'the app checked ada@allowed.example; kitgate mailed a sign-in link to another address').not.toContain('eve@evil.example');

		// an app that switched password sign-in off in its action (`if (form.get('providerId') === 'credentials') return fail(403)`)
		const providerBody = 'providerId=idp&providerId=credentials&username=eve&password=right';
		const appSeesProvider = (await new Request('http://x/', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: providerBody }).formData()).get('providerId');
		expect(appSeesProvider).toBe('idp');
		const answer = await postRaw('/signin', providerBody);
		expect(sessionCookies(answer), 'the app saw providerId "idp"; kitgate signed in with the credentials provider').toEqual([]);
	});

	test('multipart and urlencoded bodies of the same form pick the same value', async () => {
		app.use(config());
		mail.length = 0;
		await postRaw('/signin', 'providerId=email&email=first%40example.com&email=second%40example.com');
		const multipart = new FormData();
		multipart.append('providerId', 'email');
		multipart.append('email', 'first@example.com');
		multipart.append('email', 'second@example.com');
		await fetch(`${app.origin}/signin`, { method: 'POST', redirect: 'manual', headers: { origin: app.origin, ...page }, body: multipart });
		const picked = mail.map((m) => m.to);
		// either both are refused (no mail) or both mail the same address
		expect(new Set(picked).size, `urlencoded and multipart mailed ${JSON.stringify(picked)}`).toBeLessThanOrEqual(1);
	});
});

describe('bodies', () => {
	test('an oversized body is PayloadTooLarge, before any flow runs: no cookie, no mail', async () => {
		app.use(config());
		mail.length = 0;
		const answer = await new Browser().request(`${app.origin}/signin`, {
			form: { providerId: 'email', email: 'ada@example.com', pad: 'x'.repeat(70 * 1024) },
			headers: page
		});
		expect(answer.status).toBe(303);
		expect(locationOf(answer).href).toBe(`${app.origin}/auth/error?error=PayloadTooLarge`);
		expect(answer.headers.getSetCookie()).toEqual([]);
		expect(mail).toEqual([]);
	});
});

describe('callback URLs of sign-ins the action starts', () => {
	test.each(['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'https://127.0.0.1@evil.example/'])('%j: the OAuth sign-in and the email link both end on the site', async (callbackUrl) => {
		app.use(config());
		mail.length = 0;
		const browser = new Browser();
		const started = await browser.request(`${app.origin}/signin`, { form: { providerId: 'idp', callbackUrl }, headers: page });
		const back = await browser.request(await loginAtIdp(locationOf(started).href, { login: 'ada' }));
		expect(back.status).toBe(302);
		expect(locationOf(back).host).toBe(new URL(app.origin).host);
		expect((await browser.session(app.origin))?.user?.email).toBe('ada@example.com');

		await new Browser().request(`${app.origin}/signin`, { form: { providerId: 'email', email: 'ada@example.com', redirectTo: callbackUrl }, headers: page });
		expect(mail).toHaveLength(1);
		expect(new URL(new URL(mail[0].url).searchParams.get('callbackUrl') as string).host).toBe(new URL(app.origin).host);
	});
});
