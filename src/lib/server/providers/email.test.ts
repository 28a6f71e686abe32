// `Email()`: defaults, the SMTP or custom-sender choice, and start-up errors that say what to fix.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import { resolveConfig } from '../core/config/resolve-config.js';
import { InvalidConfiguration } from '../core/errors.js';
import type { EmailConfig } from '../core/types.js';
import Email, { normalizeEmailIdentifier } from './email.js';

describe('Email()', () => {
	test('defaults: id and name, 24-hour links, random hex tokens, the strict address normaliser', async () => {
		const provider = Email({ server: 'smtp://127.0.0.1:2525', from: 'no-reply@example.com' });
		expect(provider).toMatchObject({ id: 'email', name: 'Email', type: 'email', maxAge: 86400, from: 'no-reply@example.com' });
		expect(provider.server).toBe('smtp://127.0.0.1:2525');
		const tokens = [await provider.generateVerificationToken!(), await provider.generateVerificationToken!()];
		expect(tokens[0]).toMatch(/^[0-9a-f]{64}$/);
		expect(tokens[0]).not.toBe(tokens[1]);
		expect(provider.normalizeIdentifier).toBe(normalizeEmailIdentifier);
	});

	test('options override the defaults, but not the type', () => {
		const provider = Email({ server: { host: 'smtp.example.com', port: 587 }, id: 'magic', name: 'Magic link', maxAge: 600, type: 'oidc' } as never);
		expect(provider).toMatchObject({ id: 'magic', name: 'Magic link', maxAge: 600, type: 'email' });
	});

	test('without `server` or a sender it fails when the config is resolved (not while an app is built) and says what to pass', () => {
		const resolve = (provider: EmailConfig, env: Record<string, string> = {}) =>
			resolveConfig({ secret: 'x'.repeat(32), trustHost: true, adapter: MemoryAdapter(), providers: [provider] }, env);
		expect(() => Email()).not.toThrow();
		expect(() => resolve(Email())).toThrow(InvalidConfiguration);
		expect(() => resolve(Email())).toThrow(/needs `server`: an SMTP URL.*AUTH_EMAIL_SERVER/);
		expect(() => resolve(Email({ server: 42 as never }))).toThrow(/must be an SMTP URL or an options object/);
		// AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM (AUTH_<ID>_… for another id) give the server and the sender
		const fromEnv = resolve(Email(), { AUTH_EMAIL_SERVER: 'smtp://127.0.0.1:2525', AUTH_EMAIL_FROM: 'Example <no-reply@example.com>' });
		expect(fromEnv.providers[0]).toMatchObject({ server: 'smtp://127.0.0.1:2525', from: 'Example <no-reply@example.com>' });
	});

	test('a custom sender needs no server and is used as given', () => {
		const send = async () => {};
		const provider = Email({ sendVerificationRequest: send });
		expect(provider.sendVerificationRequest).toBe(send);
		expect(provider.server).toBeUndefined();
	});
});
