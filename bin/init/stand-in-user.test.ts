// The stand-in user `ada` of the users file kitgate init writes (its JavaScript version, run with
// kitgate's own password hashing): who signs in with which DEMO_USER_PASSWORD, and who does not.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { appFiles } from './templates.js';

const folder = mkdtempSync(join(tmpdir(), 'kitgate-users-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const passwords = fileURLToPath(new URL('../../src/lib/server/core/passwords/password-hashing.ts', import.meta.url));
let modules = 0;

type CheckPassword = (username: unknown, password: unknown) => Promise<{ id: string } | null>;

/** The written users file's checkPassword, with `env` as the app's private environment. */
async function usersWith(env: Record<string, string>): Promise<CheckPassword> {
	const name = `users-${modules++}`;
	writeFileSync(join(folder, `${name}-env.js`), `export const env = ${JSON.stringify(env)};\n`);
	const text = appFiles({ ts: false })['src/lib/server/users.js']
		.replace("'$env/dynamic/private'", `'./${name}-env.js'`)
		.replace("from 'kitgate'", `from '${passwords.replace(/\\/g, '/')}'`);
	writeFileSync(join(folder, `${name}.js`), text);
	return ((await import(/* @vite-ignore */ join(folder, `${name}.js`))) as { checkPassword: CheckPassword }).checkPassword;
}

const RANDOM = 'Zq3v-9xYb_T2mWc8LrPk0sHfJd4nGa6eVu1oQiRtXyE';

describe('the stand-in user', () => {
	it('signs in as ada with the password in .env, and with nothing else', async () => {
		const checkPassword = await usersWith({ DEMO_USER_PASSWORD: RANDOM });
		expect(await checkPassword('ada', RANDOM)).toMatchObject({ id: 'ada' });
		expect(await checkPassword('ada', `${RANDOM} `)).toBeNull();
		expect(await checkPassword('ada', RANDOM.slice(0, -1))).toBeNull();
		expect(await checkPassword('Ada', RANDOM)).toBeNull();
		expect(await checkPassword('bob', RANDOM)).toBeNull();
		expect(await checkPassword('ada', undefined)).toBeNull();
		expect(await checkPassword(['ada'], RANDOM)).toBeNull();
	});

	it('without DEMO_USER_PASSWORD, or with it empty, nobody signs in (not even with an empty password)', async () => {
		for (const env of [{}, { DEMO_USER_PASSWORD: '' }]) {
			const checkPassword = await usersWith(env);
			for (const password of ['', 'undefined', undefined]) expect(await checkPassword('ada', password)).toBeNull();
		}
	});

	it('a DEMO_USER_PASSWORD of only spaces, or a short one set by hand, turns ada off rather than on', async () => {
		for (const weak of ['   ', '\t', 'password', 'ada', ' '.repeat(20), 'fifteen-chars-x']) {
			const checkPassword = await usersWith({ DEMO_USER_PASSWORD: weak });
			expect(await checkPassword('ada', weak), JSON.stringify(weak)).toBeNull();
		}
	});

	it('a very long password is checked, not refused with an error', async () => {
		const checkPassword = await usersWith({ DEMO_USER_PASSWORD: RANDOM });
		expect(await checkPassword('ada', 'x'.repeat(1_000_000))).toBeNull();
	});
});
