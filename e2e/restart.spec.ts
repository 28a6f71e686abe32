// Database sessions on SQLite: a session made by the SvelteKit demo survives a server restart.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CREDENTIALS_BUTTON, DEMO } from './apps.js';

const PORT = 4181;
const origin = `http://localhost:${PORT}`;

/** Starts the built demo on its own port and SQLite file; resolves once it listens. */
function startDemo(dbFile: string): Promise<ChildProcess> {
	const child = spawn('node', ['build'], {
		env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', ORIGIN: origin, KITGATE_DB_FILE: dbFile },
		stdio: ['ignore', 'pipe', 'inherit']
	});
	return new Promise((resolve, reject) => {
		child.stdout!.on('data', (chunk) => String(chunk).includes('Listening') && resolve(child));
		child.on('exit', (code) => reject(new Error(`demo exited with ${code}`)));
		setTimeout(() => reject(new Error('demo did not start in 20 s')), 20_000);
	});
}

function stop(child: ChildProcess): Promise<void> {
	return new Promise((resolve) => {
		child.on('exit', () => resolve());
		child.kill('SIGTERM');
	});
}

test('a database session on SQLite survives a server restart', async ({ page }) => {
	const dir = mkdtempSync(join(tmpdir(), 'kitgate-restart-'));
	const dbFile = join(dir, 'demo.sqlite');
	let server = await startDemo(dbFile);
	try {
		await page.goto(`${origin}/protected`);
		await page.getByLabel('Username').fill(DEMO.username);
		await page.getByLabel('Password').fill(DEMO.password);
		await page.getByRole('button', { name: CREDENTIALS_BUTTON }).click();
		await expect(page.getByTestId('protected-user')).toContainText(DEMO.name);
		const token = (await page.context().cookies()).find((c) => c.name === 'kitgate.session-token')?.value;
		// a database session: the cookie holds an opaque token, not a JWT
		expect(token).toMatch(/^[0-9a-f]{64}$/);

		await stop(server);
		server = await startDemo(dbFile);
		await page.goto(`${origin}/protected`);
		await expect(page.getByTestId('protected-user')).toContainText(DEMO.name);
	} finally {
		await stop(server);
		rmSync(dir, { recursive: true, force: true });
	}
});
