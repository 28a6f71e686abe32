import { describe, expect, test } from 'vitest';
import Credentials from '../../../providers/credentials.js';
import { TEST_SECRET } from '../client.js';
import { Browser, INTEGRATIONS } from '../integrations.js';
import { attackWorld } from './flows.js';

const world = attackWorld();

describe.each(INTEGRATIONS)('%s', (integration) => {
	test('credentials sign-in over HTTP', async () => {
		const app = world.apps[integration];
		app.use({
			secret: TEST_SECRET,
			trustHost: true,
			providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: '1', email: `${username}@example.com` }) })]
		});
		const browser = new Browser();
		const csrfToken = await browser.csrfToken(app.origin);
		const response = await browser.request(`${app.origin}/auth/callback/credentials`, { form: { csrfToken, username: 'ada' } });
		expect(response.status).toBe(302);
		expect((await browser.session(app.origin))?.user?.email).toBe('ada@example.com');
	});
});
