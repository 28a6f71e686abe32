// A provider's metadata must be its own (ASVS 10.5.3): a discovery document that names an issuer
// other than the configured one is refused at the sign-in start, before the browser is sent to any
// endpoint it lists, and the ID tokens of a document kitgate accepted must carry exactly its issuer.
// Against a crafted provider on 127.0.0.1 (hostile-openid-provider.ts).

import { describe, expect, test } from 'vitest';
import type { AuthConfig, OAuthConfig } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { hostileProviderWorld, signInAt } from './hostile-openid-provider.js';
import { expectErrorRedirect, quietLogger, setsSession } from './oauth-fixtures.js';

const IMPERSONATED = 'https://accounts.google.com';

const world = hostileProviderWorld();

function browser(provider: OAuthConfig) {
	const log = quietLogger();
	const config: AuthConfig = { secret: TEST_SECRET, trustHost: true, logger: log.logger, providers: [provider] };
	return { log, client: testClient(config) };
}

/** Starts a sign-in and answers where the browser was sent. */
async function start(client: ReturnType<typeof testClient>): Promise<Response> {
	const csrfToken = await client.csrfToken();
	return client.request('/auth/signin/op', { form: { csrfToken, callbackUrl: '/dashboard' } });
}

describe('discovery documents that claim another issuer', () => {
	test.each([
		['issuer configured', () => world.op.provider()],
		['issuer and wellKnown configured', () => world.op.provider({ wellKnown: world.op.wellKnown })]
	])('%s: a document naming another issuer is refused (OAuthSignin) and the browser goes to none of its endpoints', async (_name, provider) => {
		world.op.changeMetadata({ issuer: IMPERSONATED, authorization_endpoint: `${IMPERSONATED}/o/oauth2/v2/auth` });
		const { client, log } = browser(provider());
		const response = await start(client);
		expectErrorRedirect(response, 'OAuthSignin');
		expect(response.headers.get('location')).not.toContain(IMPERSONATED.replace('https://', ''));
		expect(log.text()).toMatch(/"issuer" property does not match the expected value/);
		// the document was read; nothing else was asked of the provider
		expect(world.op.fetched).toEqual([world.op.wellKnown]);
	});

	test('a document naming a look-alike of the configured issuer (another host, path or scheme) is refused too', async () => {
		const { port } = new URL(world.op.issuer);
		for (const issuer of [`http://localhost:${port}`, `${world.op.issuer}/tenant`, `https://127.0.0.1:${port}`]) {
			world.op.changeMetadata({ issuer });
			const { client } = browser(world.op.provider());
			expectErrorRedirect(await start(client), 'OAuthSignin');
		}
	});

	test('control: the provider’s own document signs in; its ID tokens must name exactly its issuer', async () => {
		const { client } = browser(world.op.provider());
		expect(setsSession(await signInAt(world.op, client, { sub: 'alice', email: 'alice@example.test' }))).toBe(true);

		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, claims: { ...parts.claims, iss: IMPERSONATED } });
		const other = browser(world.op.provider());
		expectErrorRedirect(await signInAt(world.op, other.client, { sub: 'alice', email: 'alice@example.test' }), 'OAuthCallbackError');
		expect(other.log.text()).toMatch(/unexpected JWT "iss" \(issuer\) claim value/);
	});

	test('wellKnown alone: the issuer is the one the document names, and ID tokens naming another are refused', async () => {
		const provider = world.op.provider({ issuer: undefined, wellKnown: world.op.wellKnown });
		const { client } = browser(provider);
		expect(setsSession(await signInAt(world.op, client, { sub: 'alice', email: 'alice@example.test' }))).toBe(true);

		world.op.mintIdToken = (parts, { sign }) => sign({ ...parts, claims: { ...parts.claims, iss: IMPERSONATED } });
		const other = browser(provider);
		expectErrorRedirect(await signInAt(world.op, other.client, { sub: 'alice', email: 'alice@example.test' }), 'OAuthCallbackError');
	});
});
