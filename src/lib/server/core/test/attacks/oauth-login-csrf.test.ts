// Attack (login CSRF): the attacker gets a code for their own account at the identity provider,
// then makes the victim's browser — which has a sign-in of its own under way — open the app's
// callback with that code. An identity provider that does not enforce PKCE accepts the victim's
// code verifier with the attacker's code, so PKCE alone does not tie the callback to the browser:
// `state` (on by default for OAuth 2, with `nonce` for OIDC) must refuse it. Here the provider is
// the real oidc-provider behind a proxy that strips PKCE, as a provider that ignores it would.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { everyAdapter } from '../../../adapters/test/every-adapter.js';
import type { Adapter } from '../../types.js';
import { sinkProvider } from '../email-fixtures.js';
import { loginAtIdp } from '../idp-browser.js';
import { Browser, INTEGRATIONS } from '../integrations.js';
import { address, attackConfig, attackWorld, errorOf, sessionOf, signInByEmail, startOAuth } from './flows.js';

const world = attackWorld({ sink: true, idp: ['lax', 'idp'] });
let proxy: { url: string; close: () => Promise<void> };
beforeAll(async () => {
	proxy = await startPkceStrippingProxy(world.idp.issuer);
});
afterAll(async () => {
	await proxy.close();
});

/**
 * A proxy in front of the IdP that drops `code_challenge` from authorization requests and
 * `code_verifier` from token requests: to the app it is an identity provider that ignores PKCE.
 */
async function startPkceStrippingProxy(target: string): Promise<{ url: string; close: () => Promise<void> }> {
	let self = '';
	const server: Server = createServer(async (req, res) => {
		const url = new URL(req.url ?? '/', target);
		for (const name of ['code_challenge', 'code_challenge_method']) url.searchParams.delete(name);
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		let body = Buffer.concat(chunks).toString('utf8');
		if (req.headers['content-type']?.includes('application/x-www-form-urlencoded')) {
			const form = new URLSearchParams(body);
			form.delete('code_verifier');
			body = form.toString();
		}
		const headers = Object.fromEntries(
			Object.entries(req.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !['host', 'content-length'].includes(entry[0]))
		);
		const upstream = await fetch(url, { method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body, redirect: 'manual' });
		const out: Record<string, string | string[]> = {};
		upstream.headers.forEach((value, name) => {
			if (name !== 'set-cookie' && name !== 'content-encoding' && name !== 'content-length') out[name] = value;
		});
		const cookies = upstream.headers.getSetCookie();
		if (cookies.length) out['set-cookie'] = cookies;
		// the IdP's own pages are reached through the proxy too
		if (typeof out.location === 'string') out.location = out.location.replace(target, self);
		res.writeHead(upstream.status, out);
		const text = upstream.headers.get('content-type')?.startsWith('text/html');
		res.end(text ? (await upstream.text()).replaceAll(target, self) : Buffer.from(await upstream.arrayBuffer()));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url: self,
		close: () => {
			server.closeAllConnections();
			return new Promise<void>((resolve) => server.close(() => resolve()));
		}
	};
}

const adapters = everyAdapter('oauth-login-csrf');

describe.each(INTEGRATIONS)('%s', (integration) => {
	const app = () => world.apps[integration];

	test.each(adapters)("a forged callback carrying the attacker's code is refused in the victim's browser (%s adapter)", async (_name, makeAdapter) => {
		const adapter = makeAdapter() as Required<Adapter>;
		// the provider as an app configures one: default checks, endpoints of an IdP that ignores PKCE
		const lax = world.idp.provider('lax', { authorization: `${proxy.url}/auth`, token: `${proxy.url}/token` });
		app().use(attackConfig(adapter, 'database', { providers: [lax, sinkProvider(world.sink)] }));
		const mallory = world.idp.addAccount({ id: `mallory-${crypto.randomUUID()}`, email: address('mallory', 'evil.test'), name: 'Mallory', email_verified: true });

		// the victim is signed in and has started connecting an account (say, was on the IdP's login page)
		const victim = new Browser();
		await signInByEmail(victim, app(), world.sink, address('victim'));
		const victimId = (await sessionOf(victim, app()))?.user?.id as string;
		await startOAuth(victim, app(), 'lax');

		// the attacker runs a sign-in of their own up to the IdP's redirect, and keeps the code
		const attacker = new Browser();
		const attackerStart = await startOAuth(attacker, app(), 'lax');
		expect(attackerStart.searchParams.get('state'), 'state is on by default').toBeTruthy();
		const forged = new URL(await loginAtIdp(attackerStart.href, { login: mallory.id }));

		// the victim's browser is sent to the callback with the attacker's code (and the attacker's state, or none)
		for (const state of [forged.searchParams.get('state'), null]) {
			const url = new URL(forged);
			if (state === null) url.searchParams.delete('state');
			const answer = await victim.request(url);
			expect(answer.status).toBe(302);
			expect(errorOf(answer)).toBe('InvalidCheck');
			expect((await sessionOf(victim, app()))?.user?.id).toBe(victimId);
			if (state === null) break;
			await startOAuth(victim, app(), 'lax');
		}
		expect(await adapter.getUserByAccount({ provider: 'lax', providerAccountId: mallory.id })).toBeNull();
	});
});
