// Attack: the attacker asks for a sign-in link for the victim's address with a forged `Host` or
// `X-Forwarded-Host`, so the victim's mail points at the attacker's host (link, sender, subject)
// and one click hands the token over. Links must come from the configured URL (AUTH_URL, or the
// URL SvelteKit's adapter was configured with), never from a header nothing vouched for; and in
// production, email sign-in without a configured URL refuses to start unless the host is trusted
// explicitly. The mail is read on the real SMTP server.

import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import { ExpressAuth } from '../../../express/index.js';
import { resolveConfig } from '../../config/resolve-config.js';
import { sinkProvider } from '../email-fixtures.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { address, attackConfig, attackWorld } from './flows.js';

const world = attackWorld({ sink: true });

const savedEnv = { AUTH_URL: process.env.AUTH_URL, NODE_ENV: process.env.NODE_ENV, VERCEL: process.env.VERCEL };
afterEach(() => {
	for (const [name, value] of Object.entries(savedEnv)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

/**
 * Asks for a link with raw headers (node:http lets a test set `Host`, which fetch does not),
 * then returns the mail the SMTP server received for `email`.
 */
async function requestLinkWithHeaders(app: AppServer, email: string, headers: Record<string, string>) {
	const browser = new Browser();
	const csrfToken = await browser.csrfToken(app.origin);
	const cookie = [...(browser.jar.get(new URL(app.origin).host) ?? [])].map(([k, v]) => `${k}=${v}`).join('; ');
	const body = new URLSearchParams({ csrfToken, email, callbackUrl: '/' }).toString();
	const status = await new Promise<number>((resolve, reject) => {
		const req = httpRequest(
			`${app.origin}/auth/signin/email`,
			{
				method: 'POST',
				headers: {
					'content-type': 'application/x-www-form-urlencoded',
					'content-length': String(Buffer.byteLength(body)),
					origin: app.origin,
					cookie,
					...headers
				}
			},
			(res) => {
				res.resume();
				resolve(res.statusCode ?? 0);
			}
		);
		req.on('error', reject);
		req.end(body);
	});
	const mail = world.sink.messages().find((message) => message.envelope.to.includes(email));
	return { status, mail };
}

const POISON: Record<string, string>[] = [
	{ host: 'attacker.example' },
	{ 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'https' },
	{ host: 'attacker.example', 'x-forwarded-host': 'attacker.example' }
];

describe.each(INTEGRATIONS)('%s', (integration) => {
	const app = () => world.apps[integration];

	test.each(POISON)('with AUTH_URL set, a poisoned request (%o) mails a link, sender and subject of the configured URL', async (headers) => {
		process.env.AUTH_URL = app().origin;
		app().use(attackConfig(MemoryAdapter(), 'database', { providers: [sinkProvider(world.sink, { from: undefined })] }), { trustProxy: true });
		const victim = address('victim');
		const { status, mail } = await requestLinkWithHeaders(app(), victim, headers);
		expect(status).toBe(302);
		expect(mail, 'a mail to the victim').toBeDefined();
		const raw = JSON.stringify(mail);
		expect(raw).not.toContain('attacker.example');
		const links = mail?.links.filter((link) => link.includes('/auth/callback/')) ?? [];
		expect(links.length).toBeGreaterThan(0);
		for (const link of links) expect(new URL(link).origin).toBe(app().origin);
		expect(mail?.subject).toContain(new URL(app().origin).host);
		expect(mail?.envelope.from).toBe(`no-reply@${new URL(app().origin).hostname}`);
	});
});

test('SvelteKit: with no AUTH_URL, the URL adapter-node was configured with (ORIGIN) is used, not the headers', async () => {
	delete process.env.AUTH_URL;
	const app = world.apps.sveltekit;
	app.use(attackConfig(MemoryAdapter(), 'database', { providers: [sinkProvider(world.sink, { from: undefined })] }));
	for (const headers of POISON) {
		const victim = address('victim');
		const { status, mail } = await requestLinkWithHeaders(app, victim, headers);
		expect(status).toBe(302);
		expect(JSON.stringify(mail)).not.toContain('attacker.example');
		for (const link of mail?.links ?? []) expect(new URL(link).origin).toBe(app.origin);
	}
});

describe('start-up in production', () => {
	const emailConfig = (overrides = {}) => attackConfig(MemoryAdapter(), 'database', { providers: [sinkProvider(world.sink)], trustHost: undefined, ...overrides });

	test('email sign-in without AUTH_URL refuses to start on a platform that only implies a trusted host', () => {
		delete process.env.AUTH_URL;
		process.env.NODE_ENV = 'production';
		process.env.VERCEL = '1';
		expect(() => ExpressAuth(emailConfig())).toThrow(/AUTH_URL/);
		expect(() => resolveConfig(emailConfig(), { NODE_ENV: 'production', CF_PAGES: '1' })).toThrow(/email/i);
	});

	test('it starts with AUTH_URL, or with trustHost set explicitly', () => {
		expect(() => resolveConfig(emailConfig(), { NODE_ENV: 'production', AUTH_URL: 'https://app.example.com' })).not.toThrow();
		expect(() => resolveConfig(emailConfig({ trustHost: true }), { NODE_ENV: 'production' })).not.toThrow();
		expect(() => resolveConfig(emailConfig(), { NODE_ENV: 'production', AUTH_TRUST_HOST: 'true' })).not.toThrow();
	});
});
