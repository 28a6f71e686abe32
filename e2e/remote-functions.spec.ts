// kitgate in SvelteKit remote functions, on the SvelteKit demo (src/routes/remote): a query and a
// command answer 401 without a session, a form sends the visitor to sign in, the remote sign-in
// and sign-out forms work with and without JavaScript, protect() guards a path prefix, and a
// forged cross-site post to the remote sign-in form signs nobody in.

import { expect, test, type Page } from '@playwright/test';
import { apps, DEMO } from './apps.js';

const ORIGIN = apps[0].origin;

async function signInWithRemoteForm(page: Page, password = DEMO.password) {
	const form = page.getByTestId('remote-signin');
	await form.getByLabel('Username').fill(DEMO.username);
	await form.getByLabel('Password').fill(password);
	await form.getByRole('button', { name: 'Sign in (remote form)' }).click();
}

async function hasSessionCookie(page: Page): Promise<boolean> {
	return (await page.context().cookies()).some((cookie) => cookie.name === 'kitgate.session-token');
}

test.describe('with JavaScript', () => {
	test('without a session, the query and the command answer 401 with the code SessionRequired', async ({ page }) => {
		await page.goto(`${ORIGIN}/remote`);
		await expect(page.getByTestId('remote-who')).toHaveText('Not signed in');
		await page.getByRole('button', { name: 'Ask my name (query)' }).click();
		await expect(page.getByTestId('remote-answer')).toHaveText('401 SessionRequired');
		await page.getByRole('button', { name: 'Like (command)' }).click();
		await expect(page.getByTestId('remote-answer')).toHaveText('401 SessionRequired');
	});

	test('without a session, the form redirects to the sign-in page, with a callbackUrl back to the page', async ({ page }) => {
		await page.goto(`${ORIGIN}/remote`);
		await page.getByLabel('Note').fill('hello');
		await page.getByRole('button', { name: 'Save note (form)' }).click();
		await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=/);
		expect(new URL(page.url()).searchParams.get('callbackUrl')).toBe(`${ORIGIN}/remote`);
	});

	test('sign in and out with the remote forms; the query and the command then answer', async ({ page }) => {
		await page.goto(`${ORIGIN}/remote`);
		await signInWithRemoteForm(page);
		await expect(page.getByTestId('remote-who')).toHaveText(`Signed in as ${DEMO.name}`);
		expect(await hasSessionCookie(page)).toBe(true);
		await page.getByRole('button', { name: 'Ask my name (query)' }).click();
		await expect(page.getByTestId('remote-answer')).toHaveText(`ok: "${DEMO.name}"`);
		await page.getByRole('button', { name: 'Like (command)' }).click();
		await expect(page.getByTestId('remote-answer')).toHaveText(/^ok: \d+$/);
		await page.getByLabel('Note').fill('hello');
		await page.getByRole('button', { name: 'Save note (form)' }).click();
		await expect(page.getByTestId('remote-note')).toHaveText(`Saved “hello” for ${DEMO.name}`);
		await page.getByRole('button', { name: 'Sign out (remote form)' }).click();
		await expect(page.getByTestId('remote-who')).toHaveText('Not signed in');
		expect(await hasSessionCookie(page)).toBe(false);
	});

	test('a wrong password is the form’s result, shown in place, and gives no session', async ({ page }) => {
		await page.goto(`${ORIGIN}/remote`);
		await signInWithRemoteForm(page, 'not-the-password');
		await expect(page.getByTestId('remote-signin-error')).toHaveText('Sign in failed (credentials).');
		expect(await hasSessionCookie(page)).toBe(false);
	});

	test('the guarded prefix sends anonymous visitors to sign in and lets them in after', async ({ page }) => {
		await page.goto(`${ORIGIN}/remote/private`);
		await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=/);
		expect(new URL(page.url()).searchParams.get('callbackUrl')).toBe(`${ORIGIN}/remote/private`);
		await page.goto(`${ORIGIN}/remote`);
		await signInWithRemoteForm(page);
		await expect(page.getByTestId('remote-who')).toHaveText(`Signed in as ${DEMO.name}`);
		await page.goto(`${ORIGIN}/remote/private`);
		await expect(page.getByTestId('remote-private-user')).toHaveText(DEMO.name);
	});
});

test.describe('without JavaScript', () => {
	test.use({ javaScriptEnabled: false });

	test('sign in and out with the remote forms', async ({ page }) => {
		await page.goto(`${ORIGIN}/remote`);
		await signInWithRemoteForm(page);
		await expect(page).toHaveURL(`${ORIGIN}/remote`);
		await expect(page.getByTestId('remote-who')).toHaveText(`Signed in as ${DEMO.name}`);
		await page.getByLabel('Note').fill('plain');
		await page.getByRole('button', { name: 'Save note (form)' }).click();
		await expect(page.getByTestId('remote-note')).toHaveText(`Saved “plain” for ${DEMO.name}`);
		await page.getByRole('button', { name: 'Sign out (remote form)' }).click();
		await expect(page.getByTestId('remote-who')).toHaveText('Not signed in');
		expect(await hasSessionCookie(page)).toBe(false);
	});

	test('a wrong password is shown in place', async ({ page }) => {
		await page.goto(`${ORIGIN}/remote`);
		await signInWithRemoteForm(page, 'not-the-password');
		await expect(page.getByTestId('remote-signin-error')).toHaveText('Sign in failed (credentials).');
		expect(await hasSessionCookie(page)).toBe(false);
	});

	test('without a session, the form redirects to the sign-in page', async ({ page }) => {
		await page.goto(`${ORIGIN}/remote`);
		await page.getByLabel('Note').fill('hello');
		await page.getByRole('button', { name: 'Save note (form)' }).click();
		await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=/);
		expect(new URL(page.url()).searchParams.get('callbackUrl')).toBe(`${ORIGIN}/remote`);
	});

	test('the guarded prefix redirects', async ({ page }) => {
		await page.goto(`${ORIGIN}/remote/private/`);
		await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=/);
	});
});

test.describe('over HTTP', () => {
	for (const path of ['/remote/private', '/remote/%70rivate', '//remote/private', '/REMOTE/Private', '/remote/x/../private']) {
		test(`${path}: a page request gets 303 to sign in, a JSON request 401`, async ({ request }) => {
			const page = await request.get(`${ORIGIN}${path}`, { headers: { accept: 'text/html' }, maxRedirects: 0 });
			expect(page.status()).toBe(303);
			expect(page.headers().location).toMatch(/^\/auth\/signin\?callbackUrl=/);
			const json = await request.get(`${ORIGIN}${path}`, { headers: { accept: 'application/json' }, maxRedirects: 0 });
			expect(json.status()).toBe(401);
			expect(await json.json()).toMatchObject({ code: 'SessionRequired' });
		});
	}

	// SvelteKit splits the path on its raw "/" and decodes each segment after: these reach /remote/private/[note]
	for (const path of ['/remote/private/x%2f..%2f..%2f..%2fremote', '/remote/private/x%2F..%2F..%2F', '/remote/private/x%5C..%5C..%5C..%5Cremote']) {
		test(`${path}: an encoded slash and dots inside a segment do not climb out of the guarded prefix`, async ({ request }) => {
			const page = await request.get(`${ORIGIN}${path}`, { headers: { accept: 'text/html' }, maxRedirects: 0 });
			expect(page.status()).toBe(303);
			expect(page.headers().location).toMatch(/^\/auth\/signin\?callbackUrl=/);
			const data = await request.get(`${ORIGIN}${path}/__data.json`, { maxRedirects: 0 });
			expect(await data.text()).not.toContain('"note"');
		});
	}

	test('a page under the guarded prefix with a parameter shows to a signed-in user', async ({ page }) => {
		await page.goto(`${ORIGIN}/remote`);
		await signInWithRemoteForm(page);
		await expect(page.getByTestId('remote-who')).toHaveText(`Signed in as ${DEMO.name}`);
		await page.goto(`${ORIGIN}/remote/private/hello`);
		await expect(page.getByTestId('remote-private-note')).toHaveText(`hello for ${DEMO.name}`);
	});

	test('an enhanced remote sign-in whose data has a cycle (devalue can encode one) is 400 InvalidRequest, not a 500', async ({ page, request }) => {
		await page.goto(`${ORIGIN}/remote`);
		const action = (await page.getByTestId('remote-signin').getAttribute('action')) as string;
		const id = decodeURIComponent(action.slice('?/remote='.length));
		// SvelteKit's binary form format: version 0, header length (u32), file table length (u16), devalue of [data, meta]; data.self is data
		const header = Buffer.from(`[[1,2],{"providerId":3,"username":4,"password":5,"self":1},{},"credentials","${DEMO.username}","${DEMO.password}"]`);
		const prefix = Buffer.alloc(7);
		prefix.writeUInt32LE(header.length, 1);
		const response = await request.post(`${ORIGIN}/_app/remote/${id}`, {
			data: Buffer.concat([prefix, header]),
			headers: { origin: ORIGIN, 'content-type': 'application/x-sveltekit-formdata' },
			maxRedirects: 0
		});
		expect(await response.json()).toEqual({ type: 'error', status: 400, error: { message: 'Invalid request', code: 'InvalidRequest' } });
		expect(response.headers()['set-cookie'] ?? '').not.toContain('kitgate.session-token');
	});

	test("a trailing slash: SvelteKit's 308 to the path without it, which is guarded", async ({ request }) => {
		const slash = await request.get(`${ORIGIN}/remote/private/`, { headers: { accept: 'text/html' }, maxRedirects: 0 });
		expect(slash.status()).toBe(308);
		expect(slash.headers().location).toBe('/remote/private');
	});

	test('/remote/privateer and /remote are not guarded', async ({ request }) => {
		expect((await request.get(`${ORIGIN}/remote`, { headers: { accept: 'text/html' }, maxRedirects: 0 })).status()).toBe(200);
		expect((await request.get(`${ORIGIN}/remote/privateer`, { headers: { accept: 'text/html' }, maxRedirects: 0 })).status()).toBe(404);
	});

	test('a forged cross-site post to the remote sign-in form is refused and signs nobody in', async ({ page, request }) => {
		await page.goto(`${ORIGIN}/remote`);
		const action = (await page.getByTestId('remote-signin').getAttribute('action')) as string;
		expect(action).toMatch(/^\?\/remote=/);
		const id = decodeURIComponent(action.slice('?/remote='.length));
		const fields = { providerId: 'credentials', username: DEMO.username, password: DEMO.password, callbackUrl: `${ORIGIN}/remote` };
		// the form's own action (no JavaScript) and SvelteKit's remote endpoint (JavaScript), from another site
		for (const url of [`${ORIGIN}/remote${action}`, `${ORIGIN}/_app/remote/${id}`]) {
			const forged = await request.post(url, { form: fields, headers: { origin: 'https://evil.example', accept: 'text/html' }, maxRedirects: 0 });
			expect(forged.status(), url).toBe(403);
			expect(forged.headers()['set-cookie'] ?? '', url).not.toContain('kitgate.session-token');
		}
		// the same post from the site itself signs in: the refusal above is the cross-site check
		const genuine = await request.post(`${ORIGIN}/remote${action}`, { form: fields, headers: { origin: ORIGIN, accept: 'text/html' }, maxRedirects: 0 });
		expect(genuine.status()).toBe(303);
		expect(genuine.headers()['set-cookie']).toContain('kitgate.session-token');
	});
});
