// The SvelteKit demo built with `paths.base = "/app"`: kitgate's routes, forms and redirects all
// stay under the base path.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CREDENTIALS_BUTTON, DEMO } from './apps.js';

const PORT = 4182;
const origin = `http://localhost:${PORT}`;
let server: ChildProcess;
let dir: string;

test.beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'kitgate-base-'));
	server = spawn('node', ['build-base'], {
		env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', ORIGIN: origin, KITGATE_DB_FILE: join(dir, 'demo.sqlite') },
		stdio: ['ignore', 'pipe', 'inherit']
	});
	await new Promise<void>((resolve, reject) => {
		server.stdout!.on('data', (chunk) => String(chunk).includes('Listening') && resolve());
		server.on('exit', (code) => reject(new Error(`demo exited with ${code}`)));
		setTimeout(() => reject(new Error('demo did not start in 20 s')), 20_000);
	});
});

test.afterAll(async () => {
	await new Promise<void>((resolve) => {
		server.on('exit', () => resolve());
		server.kill('SIGTERM');
	});
	rmSync(dir, { recursive: true, force: true });
});

test('sign-in, protected page and sign-out stay under /app', async ({ page }) => {
	await page.goto(`${origin}/app/protected`);
	await expect(page).toHaveURL(`${origin}/app/signin?callbackUrl=%2Fapp%2Fprotected`);
	await page.getByLabel('Username').fill(DEMO.username);
	await page.getByLabel('Password').fill(DEMO.password);
	await page.getByRole('button', { name: CREDENTIALS_BUTTON }).click();
	await expect(page).toHaveURL(`${origin}/app/protected`);
	await expect(page.getByTestId('protected-user')).toContainText(DEMO.name);
	await page.getByRole('button', { name: 'Sign out' }).click();
	await expect(page).toHaveURL(`${origin}/app/`);
	await expect(page.getByTestId('anonymous')).toBeVisible();
});

test("kitgate's own routes and pages live under /app/auth", async ({ request }) => {
	const providers = (await (await request.get(`${origin}/app/auth/providers`)).json()) as Record<string, { callbackUrl: string }>;
	expect(providers.credentials.callbackUrl).toBe(`${origin}/app/auth/callback/credentials`);
	const page = await (await request.get(`${origin}/app/auth/signin`)).text();
	expect(page).toContain(`action="${origin}/app/auth/callback/credentials"`);
	expect((await request.get(`${origin}/auth/providers`)).status()).toBe(404);
});
