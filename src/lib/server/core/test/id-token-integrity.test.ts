// What makes an ID token acceptable to kitgate as an OpenID relying party (ASVS 9.1, 9.2, 10.5.1,
// 10.5.4): a signature by a key of the provider's own JWKS, under an algorithm the provider's
// metadata allows (never `none`, never an HMAC keyed with the provider's public key, never a key
// the token names itself); the claims unchanged; within `nbf`..`exp`; for this client (`aud`, `azp`);
// for this sign-in (`nonce`); and only from the token endpoint's answer to this code exchange, never
// from the front channel. Each refused token ends on the sign-in page with no session and nothing
// stored. Against a crafted provider on 127.0.0.1 (hostile-openid-provider.ts).

import { importJWK, type CryptoKey } from 'jose';
import { describe, expect, test } from 'vitest';
import type { Adapter } from '../types.js';
import { testClient } from './client.js';
import { type HostileOpenIdProvider, hostileProviderWorld, OP_CLIENT, type OpUser, signInAt, startAt } from './hostile-openid-provider.js';
import { expectErrorRedirect, setsSession } from './oauth-fixtures.js';

const ALICE: OpUser = { sub: 'alice', email: 'alice@example.test', name: 'Alice' };
const MALLORY: OpUser = { sub: 'mallory', email: 'mallory@example.test', name: 'Mallory' };

const world = hostileProviderWorld();

/** Nobody was signed in or stored for `user`. */
async function expectNobody(adapter: Required<Adapter>, user: OpUser = ALICE) {
	expect(await adapter.getUserByAccount({ provider: 'op', providerAccountId: user.sub })).toBeNull();
	if (user.email) expect(await adapter.getUserByEmail(user.email)).toBeNull();
}

async function sessionName(client: ReturnType<typeof testClient>): Promise<string | null> {
	const session = (await (await client.request('/auth/session')).json()) as { user?: { name?: string } } | null;
	return session?.user?.name ?? null;
}

describe('ID tokens kitgate accepts', () => {
	test('control: an ID token signed by the provider’s published key, for this client and this sign-in, signs in', async () => {
		const { client, adapter, log } = world.setup();
		const done = await signInAt(world.op, client, ALICE);
		expect(done.headers.get('location')).toBe('http://localhost:3000/dashboard');
		expect(setsSession(done)).toBe(true);
		expect(await sessionName(client)).toBe('Alice');
		expect(await adapter.getUserByAccount({ provider: 'op', providerAccountId: 'alice' })).not.toBeNull();
		expect(log.errors).toEqual([]);
	});
});

describe('signature and algorithm (9.1.1, 9.1.2)', () => {
	test('an unsigned ID token (alg none) is refused, also when the provider’s metadata lists none', async () => {
		world.op.mintIdToken = (parts, { unsecured }) => unsecured({ ...parts, header: { alg: 'none', typ: 'JWT' } });
		const first = world.setup();
		expectErrorRedirect(await signInAt(world.op, first.client, ALICE), 'OAuthCallbackError');
		expect(first.log.text()).toMatch(/unexpected JWT "alg" header parameter/);
		await expectNobody(first.adapter);

		world.op.changeMetadata({ id_token_signing_alg_values_supported: ['RS256', 'none'] });
		const second = world.setup();
		expectErrorRedirect(await signInAt(world.op, second.client, ALICE), 'OAuthCallbackError');
		expect(second.log.text()).toMatch(/checking the ID token's signature failed: unsupported JWS "alg" identifier/);
		await expectNobody(second.adapter);
	});

	test('an algorithm the provider’s metadata does not list is refused: HS256 keyed with the client secret, RS384 with the published key', async () => {
		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, header: { alg: 'HS256' } }, new TextEncoder().encode(OP_CLIENT.secret));
		const hmac = world.setup();
		expectErrorRedirect(await signInAt(world.op, hmac.client, ALICE), 'OAuthCallbackError');
		expect(hmac.log.text()).toMatch(/unexpected JWT "alg" header parameter/);
		await expectNobody(hmac.adapter);

		// the provider's own key material, used under an algorithm its metadata does not list
		const rs384 = (await importJWK({ ...world.op.published.privateJwk, alg: 'RS384' }, 'RS384')) as CryptoKey;
		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, header: { alg: 'RS384', kid: 'op-key' } }, rs384);
		const other = world.setup();
		expectErrorRedirect(await signInAt(world.op, other.client, ALICE), 'OAuthCallbackError');
		expect(other.log.text()).toMatch(/unexpected JWT "alg" header parameter/);
		await expectNobody(other.adapter);
	});

	test('key confusion: HS256 keyed with the provider’s public key is refused, also when the metadata lists HS256', async () => {
		world.op.changeMetadata({ id_token_signing_alg_values_supported: ['RS256', 'HS256'] });
		for (const publicKey of [world.op.published.pem, JSON.stringify(world.op.published.jwk)]) {
			world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, header: { alg: 'HS256', kid: 'op-key' } }, new TextEncoder().encode(publicKey));
			const { client, adapter, log } = world.setup();
			expectErrorRedirect(await signInAt(world.op, client, ALICE), 'OAuthCallbackError');
			expect(log.text()).toMatch(/checking the ID token's signature failed: signature verification failed/);
			await expectNobody(adapter);
		}
	});

	test('a claim changed under the provider’s signature (another sub) is refused', async () => {
		world.op.mintIdToken = async (parts, { sign }) => {
			const [header, , signature] = (await sign(parts)).split('.');
			const forged = Buffer.from(JSON.stringify({ ...parts.claims, sub: 'mallory', email: MALLORY.email })).toString('base64url');
			return `${header}.${forged}.${signature}`;
		};
		const { client, adapter, log } = world.setup();
		expectErrorRedirect(await signInAt(world.op, client, ALICE), 'OAuthCallbackError');
		expect(log.text()).toMatch(/checking the ID token's signature failed/);
		await expectNobody(adapter, MALLORY);
		await expectNobody(adapter);
	});
});

describe('where the key comes from (9.1.3)', () => {
	test.each([
		['a jwk header holding the attacker’s key', (op: HostileOpenIdProvider) => ({ alg: 'RS256', jwk: op.attacker.jwk })],
		['a jku header naming the attacker’s JWKS', (op: HostileOpenIdProvider) => ({ alg: 'RS256', kid: 'attacker-key', jku: op.attackerJwks })],
		['an x5u header naming the attacker’s URL', (op: HostileOpenIdProvider) => ({ alg: 'RS256', kid: 'attacker-key', x5u: op.attackerJwks })],
		['the provider’s kid, signed by the attacker', (op: HostileOpenIdProvider) => ({ alg: 'RS256', kid: 'op-key', jku: op.attackerJwks })]
	])('an ID token signed by the attacker with %s is refused; only the provider’s jwks_uri is fetched', async (_name, header) => {
		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, header: header(world.op) }, world.op.attacker.privateKey);
		const { client, adapter, log } = world.setup();
		expectErrorRedirect(await signInAt(world.op, client, ALICE), 'OAuthCallbackError');
		expect(log.text()).toMatch(/checking the ID token's signature failed/);
		expect(world.op.fetched).not.toContain(world.op.attackerJwks);
		expect(world.op.fetched.filter((url) => url.endsWith('/jwks'))).toEqual([`${world.op.issuer}/jwks`]);
		await expectNobody(adapter);
	});
});

describe('validity period (9.2.1)', () => {
	test('an ID token not valid yet (nbf an hour ahead) is refused, as is an expired one; one valid now signs in', async () => {
		const now = () => Math.floor(Date.now() / 1000);
		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, claims: { ...parts.claims, nbf: now() + 3600 } });
		const early = world.setup();
		expectErrorRedirect(await signInAt(world.op, early.client, ALICE), 'OAuthCallbackError');
		expect(early.log.text()).toMatch(/unexpected JWT "nbf" \(not before\) claim value/);
		await expectNobody(early.adapter);

		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, claims: { ...parts.claims, iat: now() - 7200, exp: now() - 3600 } });
		const late = world.setup();
		expectErrorRedirect(await signInAt(world.op, late.client, ALICE), 'OAuthCallbackError');
		expect(late.log.text()).toMatch(/"exp" \(expiration time\) claim value, expiration is past/);
		await expectNobody(late.adapter);

		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, claims: { ...parts.claims, nbf: now() - 5 } });
		const inTime = world.setup();
		expect(setsSession(await signInAt(world.op, inTime.client, ALICE))).toBe(true);
	});
});

describe('audience and issuer (9.2.3, 10.5.4)', () => {
	test.each([
		['another client as audience', { aud: 'another-client' }, /unexpected JWT "aud" \(audience\) claim value/],
		['several audiences, no azp', { aud: [OP_CLIENT.id, 'another-client'] }, /"aud" \(audience\) claim includes additional untrusted audiences/],
		['several audiences, another client as azp', { aud: [OP_CLIENT.id, 'another-client'], azp: 'another-client' }, /unexpected ID Token "azp" \(authorized party\) claim value/],
		['no audience', { aud: undefined }, /"aud"/],
		['another issuer', { iss: 'https://attacker.example.test' }, /unexpected JWT "iss" \(issuer\) claim value/]
	])('an ID token with %s is refused', async (_name, claims, logged) => {
		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, claims: { ...parts.claims, ...claims } });
		const { client, adapter, log } = world.setup();
		expectErrorRedirect(await signInAt(world.op, client, ALICE), 'OAuthCallbackError');
		expect(log.text()).toMatch(logged);
		await expectNobody(adapter);
	});
});

describe('this sign-in only (10.5.1, 9.2.2)', () => {
	test('an ID token replayed from an earlier sign-in (valid, unexpired, signed, another nonce) is refused; one without a nonce too', async () => {
		const earlier = world.setup();
		expect(setsSession(await signInAt(world.op, earlier.client, MALLORY))).toBe(true);
		const kept = world.op.idTokens[0];

		world.op.mintIdToken = () => kept;
		const replayed = world.setup();
		expectErrorRedirect(await signInAt(world.op, replayed.client, ALICE), 'InvalidCheck');
		expect(replayed.log.text()).toMatch(/nonce does not match/);
		await expectNobody(replayed.adapter, MALLORY);

		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, claims: { ...parts.claims, nonce: undefined } });
		const without = world.setup();
		expectErrorRedirect(await signInAt(world.op, without.client, ALICE), 'OAuthCallbackError');
		expect(without.log.text()).toMatch(/missing JWT "nonce" \(nonce\) claim|"nonce"/);
		await expectNobody(without.adapter);
	});

	test('an ID token in the callback’s query (front channel) is refused before any token request: only the token endpoint’s answer identifies the user', async () => {
		// a token the provider really signed for this client (kept from the attacker's own sign-in)
		const attacker = world.setup();
		expect(setsSession(await signInAt(world.op, attacker.client, MALLORY))).toBe(true);
		const signed = world.op.idTokens[0];

		const { client, adapter, log } = world.setup();
		const before = world.op.tokenRequests;
		const back = world.op.authorize((await startAt(client)).href, ALICE, { id_token: signed });
		expectErrorRedirect(await client.request(back), 'InvalidCheck');
		expect(log.text()).toMatch(/implicit and hybrid flows are not supported/);
		expect(world.op.tokenRequests).toBe(before);
		await expectNobody(adapter, MALLORY);
		await expectNobody(adapter);
		expect(await sessionName(client)).toBeNull();
	});
});
