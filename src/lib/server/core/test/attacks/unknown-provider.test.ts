// An unknown provider id on the sign-in and callback routes (and in SvelteKit's sign-in action)
// ends on the error page with the stable code InvalidProvider, or a 404 for a client that does
// not ask for a page — the same on both integrations, never the sign-in page with 200.

import { beforeAll, describe, expect, test } from 'vitest';
import Credentials from '../../../providers/credentials.js';
import { Browser, INTEGRATIONS } from '../integrations.js';
import { attackConfig, attackWorld } from './flows.js';

const world = attackWorld();

const HTML = { accept: 'text/html,application/xhtml+xml' };

describe.each(INTEGRATIONS)('%s', (integration) => {
	const app = () => world.apps[integration];
	beforeAll(() => {
		app().use(attackConfig(undefined, 'jwt', { providers: [Credentials({ credentials: { username: {} }, authorize: () => null })] }));
	});

	test.each(['signin', 'callback'])('GET /auth/%s/nope in a browser: the error page with InvalidProvider (404)', async (route) => {
		const browser = new Browser();
		const answer = await browser.request(`${app().origin}/auth/${route}/nope`, { headers: HTML });
		expect(answer.status).toBe(302);
		const location = new URL(answer.headers.get('location') as string);
		expect(location.pathname).toBe('/auth/error');
		expect(location.searchParams.get('error')).toBe('InvalidProvider');
		const page = await browser.request(location, { headers: HTML });
		expect(page.status).toBe(404);
		const html = await page.text();
		expect(html).toContain('InvalidProvider');
		// no way back to a sign-in that cannot work, and no link without a target
		expect(html).not.toMatch(/href=""/);
	});

	test.each(['signin', 'callback'])('GET /auth/%s/nope from a script: 404 { error: "InvalidProvider" }', async (route) => {
		const answer = await new Browser().request(`${app().origin}/auth/${route}/nope`, { headers: { accept: 'application/json' } });
		expect(answer.status).toBe(404);
		expect(await answer.json()).toEqual({ error: 'InvalidProvider' });
	});

	test('POST /auth/signin/nope with a valid CSRF token: the error page', async () => {
		const browser = new Browser();
		const csrfToken = await browser.csrfToken(app().origin);
		const answer = await browser.request(`${app().origin}/auth/signin/nope`, { form: { csrfToken }, headers: HTML });
		expect(new URL(answer.headers.get('location') as string).searchParams.get('error')).toBe('InvalidProvider');
	});
});

test('SvelteKit sign-in action with an unknown provider: 303 to the error page', async () => {
	const app = world.apps.sveltekit;
	const answer = await new Browser().request(`${app.origin}/signin`, { form: { providerId: 'nope' }, headers: HTML });
	expect(answer.status).toBe(303);
	expect(new URL(answer.headers.get('location') as string, app.origin).searchParams.get('error')).toBe('InvalidProvider');
});
