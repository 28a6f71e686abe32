// An authorization response is accepted only by the browser, and for the sign-in, that started it
// (ASVS 10.1.2, 10.2.1, 10.2.2): every sign-in makes its own PKCE verifier (S256), state and nonce,
// 256 random bits each, kept only in that browser's encrypted, httpOnly check cookies bound to the
// provider and read once; a callback another browser started (login CSRF) is refused before any
// token request; and a provider that announces the `iss` response parameter must send its own
// issuer there. Against a crafted provider on 127.0.0.1 (hostile-openid-provider.ts).

import { describe, expect, test } from 'vitest';
import { testClient } from './client.js';
import { hostileProviderWorld, type OpUser, signInAt, startAt } from './hostile-openid-provider.js';
import { expectErrorRedirect, setsSession } from './oauth-fixtures.js';

const VICTIM: OpUser = { sub: 'victim', email: 'victim@example.test', name: 'Victim' };
const ATTACKER: OpUser = { sub: 'attacker', email: 'attacker@example.test', name: 'Attacker' };
const CHECK_COOKIES = ['kitgate.pkce.code_verifier', 'kitgate.state', 'kitgate.nonce'];

const world = hostileProviderWorld();

async function sessionName(client: ReturnType<typeof testClient>): Promise<string | null> {
	const session = (await (await client.request('/auth/session')).json()) as { user?: { name?: string } } | null;
	return session?.user?.name ?? null;
}

describe('the values that bind a sign-in to its browser (10.1.2)', () => {
	test('every sign-in gets its own S256 PKCE challenge, state and nonce of 256 random bits, kept only sealed in httpOnly cookies', async () => {
		const { config } = world.setup();
		const seen = { code_challenge: new Set<string>(), state: new Set<string>(), nonce: new Set<string>() };
		for (let i = 0; i < 20; i++) {
			const client = testClient(config);
			const csrfToken = await client.csrfToken();
			const started = await client.request('/auth/signin/op', { form: { csrfToken, callbackUrl: '/dashboard' } });
			const url = new URL(started.headers.get('location') as string);
			expect(url.searchParams.get('code_challenge_method')).toBe('S256');
			for (const name of ['code_challenge', 'state', 'nonce'] as const) {
				const value = url.searchParams.get(name) as string;
				// 32 random bytes (or their SHA-256), base64url
				expect(value, name).toMatch(/^[A-Za-z0-9_-]{43}$/);
				expect(seen[name].has(value), `${name} repeated`).toBe(false);
				seen[name].add(value);
			}
			const lines = started.headers.getSetCookie().filter((line) => CHECK_COOKIES.some((name) => line.startsWith(`${name}=`)));
			expect(lines).toHaveLength(3);
			for (const line of lines) {
				expect(line).toMatch(/; HttpOnly/i);
				const value = line.slice(line.indexOf('=') + 1, line.indexOf(';'));
				// sealed: a JWE that holds none of the values in the clear
				expect(value.split('.')).toHaveLength(5);
				for (const name of ['state', 'nonce'] as const) expect(value).not.toContain(url.searchParams.get(name));
			}
		}
	});

	test('login CSRF: the redirect back of the attacker’s own sign-in, opened in the victim’s browser, is refused before any token request; the attacker’s code stays unused', async () => {
		const { browser, adapter } = world.setup();
		const attacker = browser();
		const back = world.op.authorize((await startAt(attacker)).href, ATTACKER);

		const victim = browser();
		// with no sign-in of its own, and with one of its own under way
		for (const prepare of [async () => undefined, async () => void (await startAt(victim))]) {
			await prepare();
			const before = world.op.tokenRequests;
			expectErrorRedirect(await victim.request(back), 'InvalidCheck');
			expect(world.op.tokenRequests).toBe(before);
			expect(await sessionName(victim)).toBeNull();
		}
		expect(await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'attacker' })).toBeNull();
		// the code was never spent: it still works in the browser that started the sign-in
		expect(setsSession(await attacker.request(back))).toBe(true);
	});

	test('each check cookie is read once: the same redirect back a second time in the same browser is refused', async () => {
		const { browser } = world.setup();
		const client = browser();
		const back = world.op.authorize((await startAt(client)).href, VICTIM);
		expect(setsSession(await client.request(back))).toBe(true);
		expect(CHECK_COOKIES.filter((name) => client.jar.has(name))).toEqual([]);
		const before = world.op.tokenRequests;
		expectErrorRedirect(await client.request(back), 'InvalidCheck');
		expect(world.op.tokenRequests).toBe(before);
	});
});

describe('mix-up: the issuer of the authorization response (10.2.2)', () => {
	test('a provider that announces the iss parameter: a response without it or naming another issuer is refused before the token request; with its own issuer it signs in', async () => {
		world.op.changeMetadata({ authorization_response_iss_parameter_supported: true });
		const { browser, log } = world.setup();
		const responses: Record<string, string>[] = [{}, { iss: 'https://attacker.example.test' }, { iss: `${world.op.issuer}/other` }];
		for (const extra of responses) {
			const client = browser();
			const before = world.op.tokenRequests;
			expectErrorRedirect(await signInAt(world.op, client, VICTIM, extra), 'InvalidCheck');
			expect(world.op.tokenRequests).toBe(before);
		}
		expect(log.text()).toMatch(/response parameter "iss" \(issuer\) missing/);
		expect(log.text()).toMatch(/unexpected "iss" \(issuer\) response parameter value/);
		const client = browser();
		expect(setsSession(await signInAt(world.op, client, VICTIM, { iss: world.op.issuer }))).toBe(true);
	});

	test('a provider that does not announce it: an iss naming another issuer is refused all the same', async () => {
		const { browser } = world.setup();
		const client = browser();
		const before = world.op.tokenRequests;
		expectErrorRedirect(await signInAt(world.op, client, VICTIM, { iss: 'https://attacker.example.test' }), 'InvalidCheck');
		expect(world.op.tokenRequests).toBe(before);
		expect(setsSession(await signInAt(world.op, browser(), VICTIM))).toBe(true);
	});
});
