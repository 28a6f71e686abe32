// The components of when the second factor is asked for, rendered on the server: the challenge's
// "Trust this browser" box (only with trustDays), TwoFactorEnrolment (the forced set-up: key, first
// code posted to the second step, then the recovery codes and the way on), and the unticked
// "Keep my other devices signed in" box of TwoFactorSetup's changes; English and French.

import type { Component } from 'svelte';
import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import { resolveMessages } from '../../messages/index.js';
import { inputs, withoutMarkers } from '../test/html.js';
import { enabledOverview, enrolment, recoveryCodes } from '../test/two-factor-fixtures.js';
import TwoFactorChallenge from './TwoFactorChallenge.svelte';
import TwoFactorEnrolment from './TwoFactorEnrolment.svelte';
import TwoFactorSetup from './TwoFactorSetup.svelte';

type AnyComponent = Component<Record<string, unknown>>;
const show = (component: unknown, props: Record<string, unknown>) => withoutMarkers(render(component as AnyComponent, { props }).body);

/** The forms of some HTML: where each posts and its inputs. */
function forms(html: string): { action: string; fields: Record<string, string>[] }[] {
	return [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map(([, action, inner]) => ({ action, fields: inputs(inner) }));
}

describe('TwoFactorChallenge: trust this browser', () => {
	test('no box without trustDays, or with 0', () => {
		for (const trustDays of [undefined, 0]) {
			const html = show(TwoFactorChallenge, { csrfToken: 't', trustDays });
			expect(html).not.toContain('trustBrowser');
		}
	});

	test('with trustDays, an unticked box posting trustBrowser=yes, its days in the label, and a hint it points to', () => {
		const html = show(TwoFactorChallenge, { csrfToken: 't', trustDays: 30 });
		const box = forms(html)[0].fields.find((field) => field.name === 'trustBrowser');
		expect(box).toMatchObject({ type: 'checkbox', value: 'yes' });
		expect(box).not.toHaveProperty('checked');
		expect(html).toContain('Trust this browser for 30 days');
		expect(html).toMatch(new RegExp(`id="${box!['aria-describedby']}">You will not be asked for a code here`));
		expect(show(TwoFactorChallenge, { csrfToken: 't', trustDays: 1 })).toContain('Trust this browser for 1 day<');
		expect(show(TwoFactorChallenge, { csrfToken: 't', trustDays: 30, messages: resolveMessages('fr') })).toContain('Faire confiance à ce navigateur pendant 30 jours');
	});
});

describe('TwoFactorEnrolment', () => {
	const props = { csrfToken: 'csrf-1', action: '/auth/second-factor', signInUrl: '/auth/signin' };

	test('the key (QR code and text) and one form posting the first code, the sealed value and the CSRF token to the second step', () => {
		const html = show(TwoFactorEnrolment, { ...props, enrolment });
		expect(html).toContain('This site asks everyone to use two-step verification.');
		expect(html).toContain('<svg class="kitgate-qr-code');
		expect(html).toContain('JBSW Y3DP EHPK 3PXP');
		const found = forms(html);
		expect(found.map((form) => form.action)).toEqual(['/auth/second-factor']);
		expect(found[0].fields).toContainEqual({ type: 'hidden', name: 'csrfToken', value: 'csrf-1' });
		expect(found[0].fields).toContainEqual({ type: 'hidden', name: 'pending', value: enrolment.pending });
		expect(found[0].fields.find((field) => field.name === 'code')).toMatchObject({ autocomplete: 'one-time-code', inputmode: 'numeric', required: '' });
		expect(html).toContain('<a class="kg-link" href="/auth/signin">Sign in another way</a>');
		expect(html).not.toContain('role="alert"');
		expect(html).not.toContain('<script');
	});

	test('after a refused code: the alert, the field marked invalid', () => {
		const html = show(TwoFactorEnrolment, { ...props, enrolment, error: 'InvalidSecondFactor' });
		expect(html).toContain('role="alert"');
		expect(forms(html)[0].fields.find((field) => field.name === 'code')).toMatchObject({ 'aria-invalid': 'true' });
		expect(show(TwoFactorEnrolment, { ...props, enrolment, error: 'RateLimited' })).toContain('Too many codes were tried.');
	});

	test('confirmed: the recovery codes once, and a link on to where the sign-in was going; no form', () => {
		const html = show(TwoFactorEnrolment, { ...props, enrolment, recoveryCodes, continueUrl: '/dashboard' });
		for (const code of recoveryCodes) expect(html).toContain(`<li><code>${code}</code></li>`);
		expect(html).toContain('href="/dashboard"');
		expect(html).toContain('Save your recovery codes now');
		expect(forms(html)).toEqual([]);
		expect(html).not.toContain('data-secret');
	});

	test('in French', () => {
		const html = show(TwoFactorEnrolment, { ...props, enrolment, messages: resolveMessages('fr') });
		expect(html).toContain('Ce site demande à chacun d’utiliser la vérification en deux étapes.');
		expect(html).toContain('Activer la vérification en deux étapes');
	});
});

describe('TwoFactorSetup: keep my other devices signed in', () => {
	test('the confirm, new-codes and remove forms each carry an unticked keepOtherSessions=yes box; the start form none', () => {
		const boxes = (html: string) =>
			forms(html).map((form) => ({ action: form.action, box: form.fields.find((field) => field.name === 'keepOtherSessions') }));
		const enrolling = boxes(show(TwoFactorSetup, { overview: enabledOverview, callbackUrl: '/settings', enrolment: undefined }));
		expect(enrolling.map(({ action }) => action)).toEqual(['/auth/account/two-factor-recovery-codes', '/auth/account/two-factor-remove']);
		const started = boxes(show(TwoFactorSetup, { overview: { ...enabledOverview, twoFactor: { enabled: false, enabledAt: null, recoveryCodesLeft: 0 } }, callbackUrl: '/settings', enrolment }));
		for (const { action, box } of [...enrolling, ...started]) {
			expect(box, action).toMatchObject({ type: 'checkbox', value: 'yes' });
			expect(box, action).not.toHaveProperty('checked');
		}
		expect(started.map(({ action }) => action)).toEqual(['/auth/account/two-factor-confirm']);
		expect(show(TwoFactorSetup, { overview: enabledOverview, callbackUrl: '/settings' })).toContain('Keep my other devices signed in');
		expect(show(TwoFactorSetup, { overview: enabledOverview, callbackUrl: '/settings', messages: resolveMessages('fr') })).toContain('Garder mes autres appareils connectés');
	});
});
