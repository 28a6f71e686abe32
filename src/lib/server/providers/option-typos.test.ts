// A misspelt provider option (`clientSecert`, `clientID`) is a type error, and a start-up error that
// names the provider, the key and the one it most likely meant; never an `invalid_client` at the
// first sign-in. Checked when the config is resolved, never while an app is built.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import { exactKeys } from '../core/config/option-keys.js';
import { resolveConfig } from '../core/config/resolve-config.js';
import { InvalidConfiguration } from '../core/errors.js';
import type { AuthConfig, OAuthConfig, Provider } from '../core/types.js';
import Apple from './apple.js';
import Auth0 from './auth0.js';
import Cognito from './cognito.js';
import Credentials from './credentials.js';
import Discord from './discord.js';
import Email from './email.js';
import Facebook from './facebook.js';
import GitHub from './github.js';
import GitLab from './gitlab.js';
import Google from './google.js';
import Keycloak from './keycloak.js';
import LinkedIn from './linkedin.js';
import MicrosoftEntraID from './microsoft-entra-id.js';
import OAuth from './oauth.js';
import { OAUTH_USER_CONFIG_KEYS, type OAuthUserConfig } from './oauth-user-config.js';
import OIDC from './oidc.js';
import Okta from './okta.js';
import Passkey from './passkey.js';
import Slack from './slack.js';
import Spotify from './spotify.js';
import TikTok from './tiktok.js';
import Twitch from './twitch.js';
import Twitter from './twitter.js';
import { thrown } from '../core/test/thrown.js';

const valid = { clientId: 'client-id', clientSecret: 'client-secret' };
const issuer = 'https://sso.example.com';
const endpoints = { authorization: 'https://id.acme.test/authorize', token: 'https://id.acme.test/token', userinfo: 'https://id.acme.test/me' };

/** Every built-in factory that goes through the common OAuth options, with what it needs besides. */
const oauthFactories: [string, (options: Record<string, unknown>) => Provider][] = [
	['apple', (o) => Apple(o as never)],
	['auth0', (o) => Auth0({ issuer, ...o } as never)],
	['cognito', (o) => Cognito({ issuer, ...o } as never)],
	['discord', (o) => Discord(o as never)],
	['facebook', (o) => Facebook(o as never)],
	['github', (o) => GitHub(o as never)],
	['gitlab', (o) => GitLab(o as never)],
	['google', (o) => Google(o as never)],
	['keycloak', (o) => Keycloak({ issuer, ...o } as never)],
	['linkedin', (o) => LinkedIn(o as never)],
	['microsoft-entra-id', (o) => MicrosoftEntraID(o as never)],
	['acme', (o) => OAuth({ id: 'acme', ...endpoints, ...o } as never)],
	['oidc', (o) => OIDC({ issuer, ...o } as never)],
	['okta', (o) => Okta({ issuer, ...o } as never)],
	['slack', (o) => Slack(o as never)],
	['spotify', (o) => Spotify(o as never)],
	['tiktok', (o) => TikTok(o as never)],
	['twitch', (o) => Twitch(o as never)],
	['twitter', (o) => Twitter(o as never)]
];

/** Resolves `providers` as an app's start-up does (an adapter and passkeys on, so every provider type can start). */
function start(...providers: Provider[]) {
	const config: AuthConfig = {
		secret: 'x'.repeat(32),
		trustHost: true,
		adapter: MemoryAdapter(),
		experimental: { enableWebAuthn: true },
		logger: { warn: () => {}, error: () => {}, debug: () => {} },
		providers
	};
	return resolveConfig(config, {});
}


describe('misspelt options are type errors', () => {
	test('on the OAuth/OIDC factories, the email, credentials and passkey ones', () => {
		const authorize = () => null;
		// each line compiles only because the option is refused: `npx tsc` fails on an unused directive
		// @ts-expect-error clientSecert is not an option
		GitHub({ clientId: 'a', clientSecert: 'b' });
		// @ts-expect-error clientID is not an option
		Google({ clientID: 'a' });
		// @ts-expect-error clientID is not an option
		OIDC({ issuer, clientID: 'a' });
		// @ts-expect-error clientSecert is not an option
		OAuth({ id: 'acme', ...endpoints, clientSecert: 'b' });
		// @ts-expect-error issuerUrl is not an option
		Keycloak({ issuerUrl: issuer });
		// @ts-expect-error tenantID is not an option
		MicrosoftEntraID({ tenantID: 'contoso' });
		// @ts-expect-error enterprize is not an option
		GitHub({ enterprize: { baseUrl: 'https://github.example.com' } });
		// @ts-expect-error clientSecert is not an option
		Twitter({ version: '2.0', clientSecert: 'b' });
		// @ts-expect-error form is not an option
		Email({ server: 'smtp://127.0.0.1:2525', form: 'no-reply@example.com' });
		// @ts-expect-error authorise is not an option
		Credentials({ authorize, authorise: authorize });
		// @ts-expect-error relyingparty is not an option
		Passkey({ relyingparty: { name: 'Example' } });
		const options: OAuthUserConfig<unknown> = { clientId: 'a' };
		expect(options.clientId).toBe('a');
	});

	test('each factory list of options is the type’s own: one key short is a type error', () => {
		const [first, ...rest] = OAUTH_USER_CONFIG_KEYS;
		expect(first).toBe('id');
		// @ts-expect-error the list misses `id`
		exactKeys<OAuthUserConfig<unknown>>()(rest);
		expect(OAUTH_USER_CONFIG_KEYS).toContain('clientSecret');
	});
});

describe('misspelt options stop the start-up, naming the provider, the key and the one meant', () => {
	test.each(oauthFactories)('%s: clientSecert → clientSecret, clientID → clientId', (id, make) => {
		// building the app (no config resolved yet) never throws
		const secert = make({ clientId: 'a', clientSecert: 'b' });
		const capitalised = make({ clientID: 'a', clientSecret: 'b' });
		let error = thrown(() => start(secert));
		expect(error).toBeInstanceOf(InvalidConfiguration);
		expect(error.message).toContain(`"${id}"`);
		expect(error.message).toMatch(/`clientSecert` \(did you mean `clientSecret`\?\)/);
		error = thrown(() => start(capitalised));
		expect(error.message).toContain(`"${id}"`);
		expect(error.message).toMatch(/`clientID` \(did you mean `clientId`\?\)/);
		// the same factory with the right keys starts
		expect(() => start(make(valid))).not.toThrow();
	});

	test('snake case and other near misses are matched; a key like no option is named without a guess', () => {
		expect(thrown(() => start(Google({ client_id: 'a', clientSecret: 'b' } as never))).message).toMatch(/`client_id` \(did you mean `clientId`\?\)/);
		expect(thrown(() => start(GitHub({ ...valid, enterprize: {} } as never))).message).toMatch(/`enterprize` \(did you mean `enterprise`\?\)/);
		expect(thrown(() => start(MicrosoftEntraID({ ...valid, tenantID: 'c' } as never))).message).toMatch(/`tenantID` \(did you mean `tenantId`\?\)/);
		expect(thrown(() => start(GitLab({ ...valid, baseURL: 'https://gitlab.example.com' } as never))).message).toMatch(/did you mean `baseUrl`/);
		const unrelated = thrown(() => start(Google({ ...valid, colour: 'red' } as never))).message;
		expect(unrelated).toContain('`colour`');
		expect(unrelated).not.toContain('did you mean');
		// several at once: all named in one message
		expect(thrown(() => start(Google({ clientID: 'a', clientSecert: 'b' } as never))).message).toMatch(/options `clientID`.*`clientSecert`/);
	});

	test('a provider’s own options are accepted', () => {
		expect(() =>
			start(
				GitHub({ ...valid, enterprise: { baseUrl: 'https://github.example.com' } }),
				GitLab({ ...valid, baseUrl: 'https://gitlab.example.com' }),
				MicrosoftEntraID({ ...valid, tenantId: 'contoso' }),
				Twitter({ ...valid, version: '2.0' })
			)
		).not.toThrow();
	});

	test('Email, Credentials and Passkey refuse their misspelt options too', () => {
		const authorize = () => null;
		const email = thrown(() => start(Email({ server: 'smtp://127.0.0.1:2525', form: 'no-reply@example.com' } as never)));
		expect(email.message).toMatch(/"email".*`form` \(did you mean `from`\?\)/);
		const credentials = thrown(() => start(Credentials({ authorize, authorise: authorize } as never)));
		expect(credentials.message).toMatch(/"credentials".*`authorise` \(did you mean `authorize`\?\)/);
		const passkey = thrown(() => start(Passkey({ relyingparty: { name: 'Example' } } as never)));
		expect(passkey.message).toMatch(/"passkey".*`relyingparty` \(did you mean `relyingParty`\?\)/);
		// and start with their right options
		expect(() => start(Email({ server: 'smtp://127.0.0.1:2525', from: 'no-reply@example.com' }), Credentials({ authorize }), Passkey())).not.toThrow();
	});
});

describe('attacks on the check', () => {
	test('prototype names given as own keys are unknown options, not accepted ones', () => {
		const protoKey = JSON.parse('{"clientId": "a", "clientSecret": "b", "__proto__": {"clientSecret": "c"}}') as Record<string, unknown>;
		expect(Object.keys(protoKey)).toContain('__proto__');
		for (const options of [protoKey, { ...valid, constructor: 'x' }, { ...valid, toString: 'x' }, { ...valid, hasOwnProperty: 'x' }]) {
			const key = Object.keys(options).find((name) => !Object.hasOwn(valid, name)) as string;
			const error = thrown(() => start(GitHub(options as never)));
			expect(error.message).toContain(`\`${key}\``);
		}
		expect(thrown(() => start(Credentials({ authorize: () => null, ['__proto__']: {} } as never))).message).toContain('`__proto__`');
	});

	test('a built-in provider spread into an object of its own still refuses the misspelt option', () => {
		const spread = { ...GitHub({ clientId: 'a', clientSecert: 'b' } as never), name: 'GitHub (work)' } as OAuthConfig;
		expect(thrown(() => start(spread)).message).toMatch(/"github".*`clientSecert` \(did you mean `clientSecret`\?\)/);
	});

	test('a provider object of the app’s own: a misspelt option is refused, a field of its own is kept', () => {
		const custom = (fields: Record<string, unknown>): OAuthConfig => ({ id: 'corp', name: 'Corp', type: 'oidc', issuer, clientSecret: 'b', ...fields });
		expect(thrown(() => start(custom({ clientID: 'a' }))).message).toMatch(/"corp".*`clientID` \(did you mean `clientId`\?\)/);
		expect(thrown(() => start(custom({ clientId: 'a', wellknown: `${issuer}/.well-known/openid-configuration` }))).message).toMatch(/did you mean `wellKnown`/);
		const kept = start(custom({ clientId: 'a', department: 'sales' })).providerById.get('corp') as OAuthConfig;
		expect(kept.department).toBe('sales');
	});
});
