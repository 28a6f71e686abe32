// `session.user.id` is absent by default (the interface: only name, email and image reach the
// client), so the getting-started guides show the two-line `session` callback that adds it, beside
// an API route that finds the user's data by it. Their callback, taken from the guide as written,
// runs in the engine under both session strategies. (The guides are also followed word by word in
// real apps: e2e-apps/.)

import { describe, expect, test } from 'vitest';
import { codeBlocks } from '../../e2e-apps/guide.js';
import { MemoryAdapter } from './server/adapters/memory.js';
import { TEST_SECRET, testClient } from './server/core/test/client.js';
import type { AuthConfig, CallbacksOptions, Session } from './server/core/types.js';
import Credentials from './server/providers/credentials.js';

const guides = [
	{ guide: 'docs/getting-started-sveltekit.md', config: 'src/auth.ts', api: 'src/routes/api/notes/+server.ts' },
	{ guide: 'docs/getting-started-express.md', config: 'server.js', api: 'server.js' }
];

const ADA = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };

/** The guide's `session` callback, as written in its config file (one line, plain JavaScript). */
function sessionCallback(guide: string, file: string): CallbacksOptions['session'] {
	const block = codeBlocks(guide).find((candidate) => candidate.file === file);
	expect(block, `${guide} writes ${file}`).toBeDefined();
	const line = /^\s*session: (\(\{.*\}\) => .*)$/m.exec(block!.code)?.[1];
	expect(line, `${guide}: a one-line session callback in ${file}`).toBeDefined();
	return new Function(`return (${line});`)() as CallbacksOptions['session'];
}

/** The session after a password sign-in as Ada, with `session` as the config's callback. */
async function sessionOf(session: CallbacksOptions['session'], overrides: Partial<AuthConfig>): Promise<Session> {
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		rateLimit: false,
		providers: [Credentials({ minFailureMs: 0, authorize: () => ADA })],
		callbacks: { session },
		logger: { warn: () => {}, error: () => {}, debug: () => {} },
		...overrides
	};
	const client = testClient(config);
	await client.request('/auth/callback/credentials', { form: { csrfToken: await client.csrfToken(), username: 'ada', password: 'x' } });
	return (await (await client.request('/auth/session')).json()) as Session;
}

describe.each(guides)('$guide', ({ guide, config, api }) => {
	test('its session callback adds session.user.id: the JWT’s sub, or the stored user’s id', async () => {
		const callback = sessionCallback(guide, config);
		const jwt = await sessionOf(callback, {});
		expect(jwt.user).toMatchObject({ id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' });
		const adapter = MemoryAdapter();
		const database = await sessionOf(callback, { adapter });
		const stored = await adapter.getUserByEmail('ada@example.com');
		expect(stored).not.toBeNull();
		expect(database.user).toMatchObject({ id: stored!.id, name: 'Ada Lovelace', email: 'ada@example.com' });
	});

	test('an API route finds the signed-in user’s data by session.user.id, and refuses without it', () => {
		const block = codeBlocks(guide).filter((candidate) => candidate.file === api).at(-1);
		expect(block?.code).toMatch(/if \(!session\?\.user\.id\)[^\n]*401/);
		expect(block?.code).toMatch(/notes\.get\(session\.user\.id\)/);
	});
});
