// Takes the pictures of docs/account.md, docs/two-factor.md and docs/components.md (Admin) from the
// Storybook build (deterministic: the stories' views have fixed dates, UTC): the built-in account
// page light and dark, AccountSettings after a stale sign-in and with a refused removal, the admin
// pages. Run `npm run build-storybook` first, then `node scripts/docs-screenshots.js`; the PNGs go
// to docs/images/.

import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = fileURLToPath(new URL('..', import.meta.url));
const staticDir = join(root, 'storybook-static');
const outDir = join(root, 'docs/images');

/** Story id (Storybook's), globals, and the file it becomes. */
const shots = [
	{ id: 'pages-account--light', file: 'account-page-light.png' },
	{ id: 'pages-account--dark', file: 'account-page-dark.png' },
	{ id: 'components-accountsettings--needs-recent-sign-in', file: 'account-settings-recent-sign-in.png' },
	{ id: 'components-accountsettings--dark-with-error', globals: 'theme:dark', file: 'account-settings-error-dark.png' },
	// docs/two-factor.md
	{ id: 'pages-account--two-factor-enrolment', file: 'two-factor-enrolment.png' },
	{ id: 'pages-account--two-factor-recovery-codes', file: 'two-factor-recovery-codes.png' },
	{ id: 'components-twofactorsetup--enabled-seven-codes-left', file: 'two-factor-enabled.png' },
	{ id: 'pages-second-factor--light', file: 'second-factor-page.png' },
	{ id: 'pages-second-factor--recovery-code-used-dark', file: 'recovery-code-used-dark.png' },
	// docs/components.md, Admin
	{ id: 'pages-admin--users-light', file: 'admin-users-page.png' },
	{ id: 'pages-admin--user-dark', file: 'admin-user-page-dark.png' }
];

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2' };

if (!existsSync(join(staticDir, 'iframe.html'))) throw new Error('No Storybook build: run `npm run build-storybook` first.');
const server = createServer((request, response) => {
	const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
	const file = join(staticDir, path.endsWith('/') ? `${path}index.html` : path);
	if (!file.startsWith(staticDir) || !existsSync(file) || !statSync(file).isFile()) {
		response.writeHead(404).end();
		return;
	}
	response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
	createReadStream(file).pipe(response);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;

const browser = await chromium.launch({ executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined, args: ['--no-sandbox', '--disable-gpu'] });
try {
	mkdirSync(outDir, { recursive: true });
	const page = await browser.newPage({ viewport: { width: 720, height: 900 } });
	for (const shot of shots) {
		const query = new URLSearchParams({ id: shot.id, viewMode: 'story', ...(shot.globals ? { globals: shot.globals } : {}) });
		await page.goto(`http://127.0.0.1:${port}/iframe.html?${query}`);
		await page.locator('#storybook-root').first().waitFor();
		await page.waitForLoadState('networkidle');
		await page.screenshot({ path: join(outDir, shot.file), fullPage: true, animations: 'disabled', caret: 'hide' });
		console.log(`docs/images/${shot.file}`);
	}
} finally {
	await browser.close();
	server.close();
}
