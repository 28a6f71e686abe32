// What admin changes do to the second sign-in step (`Auth()` on memory and SQLite, both session
// strategies): a ban voids a second step already pending (the right code no longer opens a
// session), and after a second-factor reset the user signs in with the password alone.

import { describe, expect, test } from 'vitest';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../test/stored-adapters.js';
import { adaWithSecondFactor, twoFactorWorld } from '../test/two-factor-fixture.js';
import type { Adapter } from '../types.js';
import { adminApi } from './admin-api.js';

const adapters = memoryAndSqliteAdapters('admin-second-factor').filter(([, make]) => typeof (make() as Adapter).listUsers === 'function');

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		function world() {
			const w = twoFactorWorld(makeAdapter(), strategy);
			w.config.admin = {};
			return w;
		}

		test('a ban voids a pending second step: the right code opens no session', async () => {
			const w = world();
			const { secret } = await adaWithSecondFactor(w);
			const pending = w.browser();
			expect((await pending.signInWithPassword()).headers.get('location')).toBe('http://localhost:3000/auth/second-factor');
			await adminApi(w.config, { system: true }).ban(await w.userId(), { reason: 'stolen account' });
			const step = await pending.secondStep(w.code(secret));
			expect(step.status).toBe(302);
			expect(new URL(step.headers.get('location')!).pathname).toBe('/auth/signin');
			expect(await pending.session()).toBeNull();
		});

		test('after a reset the user signs in with the password alone, and was told by mail', async () => {
			const w = world();
			const { setup } = await adaWithSecondFactor(w);
			await adminApi(w.config, { system: true, request: 'http://localhost:3000/' }).resetTwoFactor(await w.userId());
			// the reset ended her sessions
			expect(await setup.session()).toBeNull();
			expect(w.mails.at(-1)).toMatchObject({ kind: 'security-notice', change: 'two-factor-removed', identifier: 'ada@example.com' });
			const back = w.browser();
			expect((await back.signInWithPassword()).headers.get('location')).toBe('http://localhost:3000/dashboard');
			expect((await back.session())?.user?.email).toBe('ada@example.com');
		});
	});
});
