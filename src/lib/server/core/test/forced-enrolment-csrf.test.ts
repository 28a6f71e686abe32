// The forced enrolment page (`twoFactor.required`) in a browser that has no CSRF cookie yet (an
// app's own sign-in form, e.g. a SvelteKit form action, leaves none): the page's form must carry
// the token of the CSRF cookie the same answer sets, so its first submit is not refused as
// MissingCSRF. Found driving the demo in Chromium (e2e/admin.spec.ts).

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { enrolmentOf, policyWorld } from './two-factor-fixture.js';

describe.each(['jwt', 'database'] as const)('%s sessions', (strategy) => {
	test('required: the first page of the enrolment, without a CSRF cookie, posts a token that matches the cookie it set', async () => {
		const w = policyWorld(MemoryAdapter(), strategy, { required: true });
		const ada = await w.signedIn();
		expect(ada.pendingCookie()).toBeDefined();
		ada.client.jar.delete('kitgate.csrf-token');

		const page = await ada.request('/auth/second-factor');
		expect(page.status).toBe(200);
		const html = await page.text();
		const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)?.[1];
		expect(csrfToken, 'the form carries a CSRF token').toBeDefined();
		expect(ada.client.jar.get('kitgate.csrf-token')?.split('.')[0]).toBe(csrfToken);

		const { secret, pending } = enrolmentOf(html);
		const done = await ada.request('/auth/second-factor', { form: { csrfToken: csrfToken!, pending, code: w.code(secret) } });
		expect(done.status).toBe(200);
		expect(await done.text()).toContain('Save your recovery codes now');
		expect((await ada.session())?.user?.email).toBe('ada@example.com');
	});
});
