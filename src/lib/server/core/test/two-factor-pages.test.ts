// What a browser sees of the second factor, through `Auth()` on the memory adapter under both
// session strategies: a form post of two-factor-start, -confirm and -recovery-codes comes back as
// the account page in that step (HTML, no-store, the key and codes never in a URL), a wrong first
// code shows the same enrolment again, scripts and non-browser forms keep their JSON, and the
// second step's page is the TwoFactorChallenge form, or a redirect to `pages.secondFactor`.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { totpCode, totpStep } from '../two-factor/totp.js';
import { accountWorld } from './account-fixture.js';
import { SESSION_STRATEGIES } from './stored-adapters.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** The value of the hidden input `name` in a page. */
const hidden = (html: string, name: string) => new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html)?.[1];
/** The key an enrolment page shows. */
const secretOf = (html: string) => /data-secret="([A-Z2-7]+)"/.exec(html)?.[1];
const recoveryCodesOf = (html: string) => [...html.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map(([, code]) => code);

describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
	function world(overrides = {}) {
		const w = accountWorld(MemoryAdapter(), strategy, overrides);
		const ada = w.browser();
		/** Posts a change as a browser's form from /settings. */
		const post = async (operation: string, fields: Record<string, string> = {}, accept = BROWSER_ACCEPT) =>
			ada.request(`/auth/account/${operation}`, { form: { callbackUrl: '/settings', ...fields, csrfToken: await ada.client.csrfToken() }, headers: { accept } });
		const code = (secret: string, steps = 0) => totpCode(secret, totpStep(w.clock.now) + steps);
		return { ...w, ada, post, code };
	}

	test('a browser enrols without JavaScript: the start and confirm posts answer the account page in each step', async () => {
		const w = world();
		await w.ada.signInByEmail('ada@example.com');

		const started = await w.post('two-factor-start');
		expect(started.status).toBe(200);
		expect(started.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(started.headers.get('cache-control')).toBe('no-store');
		expect(started.headers.get('location')).toBeNull();
		const enrolPage = await started.text();
		const secret = secretOf(enrolPage)!;
		const pending = hidden(enrolPage, 'pending')!;
		expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
		expect(enrolPage).toContain('role="img" aria-label="QR code of your authenticator key"');
		expect(enrolPage).toContain('action="/auth/account/two-factor-confirm"');
		// the step stands alone, and its forms come back to the page the post came from
		expect(enrolPage).not.toContain('Connected accounts');
		expect(hidden(enrolPage, 'callbackUrl')).toBe('http://localhost:3000/settings');

		// a typo: the same enrolment again, with the alert; nothing stored
		const wrong = await w.post('two-factor-confirm', { pending, code: w.code(secret, 5) });
		expect(wrong.status).toBe(200);
		const again = await wrong.text();
		expect(again).toMatch(/role="alert">\s*That code is not right/);
		expect(hidden(again, 'pending')).toBe(pending);
		expect(secretOf(again)).toBe(secret);
		expect(await w.adapter.getTwoFactor((await w.userOf('ada@example.com')).id)).toBeNull();

		const confirmed = await w.post('two-factor-confirm', { pending, code: w.code(secret) });
		expect(confirmed.status).toBe(200);
		const codesPage = await confirmed.text();
		expect(recoveryCodesOf(codesPage)).toHaveLength(10);
		expect(codesPage).toMatch(/role="status">\s*Two-step verification is on\./);
		expect(codesPage).toContain('Save your recovery codes now');
		expect(codesPage).toContain('href="http://localhost:3000/settings">I have saved my recovery codes</a>');

		// new codes, from the form of the enabled section, with a current code
		w.clock.now += 30_000;
		const renewed = await w.post('two-factor-recovery-codes', { code: w.code(secret) });
		expect(renewed.status).toBe(200);
		const renewedPage = await renewed.text();
		expect(recoveryCodesOf(renewedPage)).toHaveLength(10);
		expect(recoveryCodesOf(renewedPage)).not.toEqual(recoveryCodesOf(codesPage));
		expect(renewedPage).toContain('New recovery codes were made.');

		// removal answers as every other change: back to the page with the result
		w.clock.now += 30_000;
		const removed = await w.post('two-factor-remove', { code: w.code(secret) });
		expect(removed.status).toBe(302);
		expect(removed.headers.get('location')).toBe('http://localhost:3000/settings?account=two-factor-removed');
	});

	test('a refused change goes back with its code, as the other changes do; scripts and non-browser forms keep JSON', async () => {
		const w = world();
		await w.ada.signInByEmail('ada@example.com');
		const notEnabled = await w.post('two-factor-remove', { code: '123456' });
		expect(notEnabled.headers.get('location')).toBe('http://localhost:3000/settings?accountError=TwoFactorNotEnabled');
		const expired = await w.post('two-factor-confirm', { pending: 'forged', code: '123456' });
		expect(expired.headers.get('location')).toBe('http://localhost:3000/settings?accountError=InvalidRequest');

		const script = await w.ada.changeJson('two-factor-start');
		expect(script.headers.get('content-type')).toBe('application/json');
		expect(await script.json()).toMatchObject({ result: 'two-factor-started', secret: expect.any(String), pending: expect.any(String) });
		const plainForm = await w.post('two-factor-start', {}, '*/*');
		expect(plainForm.headers.get('content-type')).toBe('application/json');
	});

	test('the second step is the TwoFactorChallenge page, or a redirect to pages.secondFactor keeping the error', async () => {
		for (const pages of [{}, { secondFactor: '/login/code' }]) {
			const w = world({ pages });
			await w.ada.signInByEmail('ada@example.com');
			const started = (await (await w.ada.changeJson('two-factor-start')).json()) as { secret: string; pending: string };
			await w.ada.changeJson('two-factor-confirm', { pending: started.pending, code: w.code(started.secret) });
			w.clock.now += 1000;
			const tablet = w.browser();
			const csrfToken = await tablet.client.csrfToken();
			await tablet.request('/auth/signin/email', { form: { csrfToken, email: 'ada@example.com', callbackUrl: '/' } });
			const link = w.links.filter((l) => l.to === 'ada@example.com').at(-1)!;
			const confirmPage = await (await tablet.request(link.url)).text();
			const action = /action="([^"]+)"/.exec(confirmPage)![1];
			const fields = Object.fromEntries([...confirmPage.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, n, v]) => [n, v.replaceAll('&amp;', '&')]));
			const gated = await tablet.request(action.replaceAll('&amp;', '&'), { form: fields });
			expect(gated.headers.get('location')).toBe('http://localhost:3000/auth/second-factor');
			const wrong = await tablet.request('/auth/second-factor', { form: { csrfToken, code: '000000' } });
			expect(wrong.headers.get('location')).toBe('http://localhost:3000/auth/second-factor?error=InvalidSecondFactor');
			const shown = await tablet.request('/auth/second-factor?error=InvalidSecondFactor');
			if ('secondFactor' in pages) {
				expect(shown.status).toBe(302);
				expect(shown.headers.get('location')).toBe('http://localhost:3000/login/code?error=InvalidSecondFactor');
			} else {
				expect(shown.status).toBe(200);
				expect(shown.headers.get('content-security-policy')).toContain("script-src 'none'");
				const html = await shown.text();
				expect(html).toContain('<title>Two-step verification</title>');
				expect(html).toMatch(/role="alert">That code is not right/);
				expect(html).toContain('autocomplete="one-time-code"');
				expect(hidden(html, 'csrfToken')).toBe(csrfToken);
			}
		}
	});
});
