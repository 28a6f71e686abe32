// Secrets stay out of logs and URLs: passwords and session tokens never logged nor put in a
// redirect; the email link's token is the only secret in a URL, and the page it opens sends no
// Referer to other sites and is not cached; what the rate-limit store keeps is hashed.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import Credentials from '../../providers/credentials.js';
import { MemoryRateLimitStore } from '../limits/memory-rate-limit-store.js';
import type { AuthConfig, EmailConfig, RateLimitStore, SendVerificationRequestParams } from '../types.js';
import { TEST_SECRET, testClient } from './client.js';
import { quietLogger } from './oauth-fixtures.js';

const PASSWORD = 'hunter2-but-longer-hunter2';

function setup() {
	const log = quietLogger();
	const sent: SendVerificationRequestParams[] = [];
	const keys: string[] = [];
	const store = MemoryRateLimitStore();
	const recording: RateLimitStore = {
		increment: (key, window, now) => (keys.push(key), store.increment(key, window, now)),
		decrement: (key, now) => store.decrement(key, now),
		reset: (key) => store.reset(key)
	};
	const email: EmailConfig = { id: 'email', name: 'Email', type: 'email', sendVerificationRequest: (params) => void sent.push(params) };
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter: MemoryAdapter(),
		session: { strategy: 'jwt' },
		logger: log.logger,
		debug: true,
		rateLimit: { store: recording },
		providers: [
			Credentials({
				minFailureMs: 0,
				authorize: ({ username, password }) => {
					if (username === 'boom') throw new Error('the user table is unreachable');
					return username === 'ada' && password === PASSWORD ? { id: 'u-ada', name: 'Ada', email: 'ada@example.com' } : null;
				}
			}),
			email
		]
	};
	return { config, log, sent, keys };
}

describe('secrets stay out of logs and URLs', () => {
	test('passwords and session tokens: never logged, never in a redirect URL', async () => {
		const { config, log } = setup();
		const client = testClient(config);
		const responses: Response[] = [];
		for (const username of ['ada', 'boom', 'nobody']) {
			const csrfToken = await client.csrfToken();
			responses.push(await client.request('/auth/callback/credentials', { form: { csrfToken, username, password: username === 'ada' ? PASSWORD : `${PASSWORD}-wrong` } }));
		}
		const sessionToken = client.jar.get('kitgate.session-token') as string;
		expect(sessionToken).toBeTruthy();
		const logged = `${log.text()}\n${log.warnings.join('\n')}`;
		expect(logged).toContain('the user table is unreachable');
		expect(logged).not.toContain(PASSWORD);
		for (const response of responses) {
			const location = response.headers.get('location') ?? '';
			expect(location).not.toContain(PASSWORD);
			expect(location).not.toContain(sessionToken.slice(0, 40));
		}
	});

	test('the email link: its token is in the mail only; the page it opens sends no Referer off-site and is not cached; a bad link does not log the token', async () => {
		const { config, log, sent } = setup();
		const client = testClient(config);
		const csrfToken = await client.csrfToken();
		const requested = await client.request('/auth/signin/email', { form: { csrfToken, email: 'ada@example.com' } });
		expect(requested.headers.get('location')).not.toContain(sent[0].token);
		const link = new URL(sent[0].url);
		const page = await client.request(link.href);
		expect(page.headers.get('cache-control')).toBe('no-store');
		const html = await page.text();
		expect(html).toContain('<meta name="referrer" content="same-origin">');

		const forged = `${sent[0].token.slice(0, -4)}AAAA`;
		await client.request(`${link.origin}/auth/callback/email`, { form: { csrfToken, token: forged, email: 'ada@example.com' } });
		expect(log.text()).toContain('Verification');
		expect(log.text()).not.toContain(forged);
		expect(log.text()).not.toContain(sent[0].token);
	});

	test('the rate-limit store keeps keyed hashes, not addresses or identifiers', async () => {
		const { config, keys } = setup();
		const client = testClient(config);
		const csrfToken = await client.csrfToken();
		await client.request('/auth/signin/email', { form: { csrfToken, email: 'ada@example.com' } });
		await client.request('/auth/callback/credentials', { form: { csrfToken, username: 'ada', password: 'x' } });
		expect(keys.length).toBeGreaterThan(0);
		for (const key of keys) {
			expect(key).toMatch(/^kitgate:(credentials|email):(id|ip):[A-Za-z0-9_-]{32}$/);
			expect(key).not.toContain('ada');
		}
	});
});
