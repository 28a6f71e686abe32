// The two-factor components rendered on the server (as SvelteKit, a prerender and the built-in
// pages do): TwoFactorSetup in each step (off, enrolment started, recovery codes shown once, on
// with N codes left, a stale sign-in) as plain forms to the account routes, the QR code drawn from
// numbers only, and TwoFactorChallenge's one field; texts in English and French.

import type { Component } from 'svelte';
import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import { resolveMessages } from '../../messages/index.js';
import { inputs, withoutMarkers } from '../test/html.js';
import { fullOverview, restrictedOverview } from '../test/account-overviews.js';
import { enabledOverview, enrolment, oneCodeLeftOverview, recoveryCodes, staleEnabledOverview } from '../test/two-factor-fixtures.js';
import AccountSettings from '../account/AccountSettings.svelte';
import TwoFactorChallenge from './TwoFactorChallenge.svelte';
import TwoFactorSetup from './TwoFactorSetup.svelte';
import { challengeErrorText, countText, groupedSecret, qrDrawing } from './two-factor-view.js';
import { enTwoFactor } from '../../messages/en-two-factor.js';

type AnyComponent = Component<Record<string, unknown>>;
const show = (component: unknown, props: Record<string, unknown>) => withoutMarkers(render(component as AnyComponent, { props }).body);
const base = { overview: fullOverview, callbackUrl: '/settings' };

/** The forms of some HTML: where each posts and its inputs. */
function forms(html: string): { action: string; fields: Record<string, string>[] }[] {
	return [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map(([, action, inner]) => ({ action, fields: inputs(inner) }));
}

describe('TwoFactorSetup', () => {
	test('off: one form that starts an enrolment, with the CSRF token and the page to come back to', () => {
		const html = show(TwoFactorSetup, base);
		expect(html).toMatch(/<h2 id="[^"]+-title">Two-step verification<\/h2>/);
		expect(html).toContain('Two-step verification is off.');
		const found = forms(html);
		expect(found.map((form) => form.action)).toEqual(['/auth/account/two-factor-start']);
		expect(found[0].fields).toEqual([
			{ type: 'hidden', name: 'csrfToken', value: 'csrf-token-of-this-browser' },
			{ type: 'hidden', name: 'callbackUrl', value: '/settings' }
		]);
		expect(html).not.toContain('<script');
		expect(html).not.toContain('kitgate-account-fresh');
	});

	test('enrolment started: the QR code drawn from its numbers, the key as text, and the confirm form with the pending value', () => {
		const html = show(TwoFactorSetup, { ...base, enrolment });
		const drawn = qrDrawing(enrolment.qrCodeSvg)!;
		expect(html).toContain(`<svg class="kitgate-qr-code`);
		expect(html).toContain(`role="img" aria-label="QR code of your authenticator key" viewBox="0 0 ${drawn.size} ${drawn.size}"`);
		expect(html).toContain(`d="${drawn.path}"`);
		expect(html).toContain('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
		const confirm = forms(html);
		expect(confirm.map((form) => form.action)).toEqual(['/auth/account/two-factor-confirm']);
		expect(confirm[0].fields).toContainEqual({ type: 'hidden', name: 'pending', value: enrolment.pending });
		const code = confirm[0].fields.find((field) => field.name === 'code')!;
		expect(code).toMatchObject({ autocomplete: 'one-time-code', inputmode: 'numeric', required: '' });
		expect(html).toMatch(/<label class="kg-field"><span>6-digit code from the app<\/span> <input name="code"/);
		expect(html).toContain('<a class="kg-link" href="/settings">Cancel</a>');
	});

	test('a QR code in any other shape is not drawn (no markup from a prop reaches the page)', () => {
		const hostile = { ...enrolment, qrCodeSvg: '<svg onload="alert(1)"><script>alert(2)</script></svg>' };
		const html = show(TwoFactorSetup, { ...base, enrolment: hostile });
		expect(html).not.toContain('<svg');
		expect(html).not.toContain('<script');
		expect(html).not.toContain('onload');
		// the key as text still lets the user enrol
		expect(html).toContain('JBSW Y3DP');
	});

	test('recovery codes: shown once, in a list, with the "save these now" text and a way on', () => {
		const html = show(TwoFactorSetup, { ...base, overview: enabledOverview, recoveryCodes });
		expect(html).toContain('Save your recovery codes now');
		expect(html).toContain('they are shown only this once');
		expect(html.match(/<li><code>[a-z0-9-]+<\/code><\/li>/g)).toHaveLength(10);
		expect(html).toContain('<a class="kg-button kitgate-two-factor-done" href="/settings">I have saved my recovery codes</a>');
		expect(forms(html)).toEqual([]);
	});

	test('on: since when and how many codes are left; new codes and turning it off each ask for a code', () => {
		const html = show(TwoFactorSetup, { ...base, overview: enabledOverview });
		expect(html).toContain('Two-step verification is on since May 20, 2026, 9:30 AM UTC.');
		expect(html).toContain('You have 7 recovery codes left.');
		const found = forms(html);
		expect(found.map((form) => form.action)).toEqual(['/auth/account/two-factor-recovery-codes', '/auth/account/two-factor-remove']);
		for (const { fields } of found) {
			expect(fields).toContainEqual({ name: 'code', type: 'text', autocomplete: 'one-time-code', autocapitalize: 'off', spellcheck: 'false', maxlength: '64', required: '' });
			expect(fields).toContainEqual({ type: 'hidden', name: 'csrfToken', value: 'csrf-token-of-this-browser' });
		}
		expect(html).toContain('aria-label="Turn off two-step verification"');
		expect(show(TwoFactorSetup, { ...base, overview: oneCodeLeftOverview })).toContain('You have 1 recovery code left.');
	});

	test('a stale sign-in: says a new sign-in comes first, as the other account sections do', () => {
		expect(show(TwoFactorSetup, { ...base, overview: staleEnabledOverview })).toContain('you will be asked to sign in again first');
		expect(show(TwoFactorSetup, { ...base, overview: { ...staleEnabledOverview, twoFactor: fullOverview.twoFactor } })).toContain('kitgate-account-fresh');
	});

	test('an adapter without second factors: says it is not available, no form', () => {
		const html = show(TwoFactorSetup, { ...base, overview: restrictedOverview });
		expect(html).toContain('Two-step verification is not available here.');
		expect(forms(html)).toEqual([]);
	});

	test('the result and the refusal of its changes, announced', () => {
		expect(show(TwoFactorSetup, { ...base, result: 'two-factor-removed' })).toMatch(/role="status">\s*Two-step verification is off\.\s*</);
		expect(show(TwoFactorSetup, { ...base, overview: enabledOverview, error: 'InvalidSecondFactor' })).toMatch(/role="alert">\s*That code is not right/);
		expect(show(TwoFactorSetup, { ...base, error: 'TwoFactorAlreadyEnabled' })).toContain('Two-step verification is already on.');
	});

	test('French, and the basePath prop moves every form', () => {
		const html = show(TwoFactorSetup, { ...base, overview: enabledOverview, messages: resolveMessages('fr') });
		expect(html).toContain('Vérification en deux étapes');
		expect(html).toContain('Il vous reste 7 codes de récupération.');
		expect(html).toContain('activée depuis le 20 mai 2026');
		for (const { action } of forms(show(TwoFactorSetup, { ...base, basePath: '/app/auth/' }))) expect(action).toBe('/app/auth/account/two-factor-start');
	});
});

describe('AccountSettings with the second factor', () => {
	test('the two-factor section sits among the others when the adapter stores second factors, and not otherwise', () => {
		expect(show(AccountSettings, base)).toContain('>Two-step verification</h2>');
		expect(show(AccountSettings, { ...base, overview: restrictedOverview })).not.toContain('>Two-step verification</h2>');
	});

	test('an enrolment or recovery codes stand alone: no other section competes with the step', () => {
		for (const step of [{ twoFactorEnrolment: enrolment }, { recoveryCodes, overview: enabledOverview }]) {
			const html = show(AccountSettings, { ...base, ...step });
			expect(html.match(/<h2 /g)).toHaveLength(1);
			expect(html).not.toContain('Connected accounts');
		}
	});
});

describe('TwoFactorChallenge', () => {
	test('one field for a code or a recovery code, posting to the second step with the CSRF token', () => {
		const html = show(TwoFactorChallenge, { csrfToken: 'csrf-1', signInUrl: '/auth/signin?callbackUrl=%2Fdashboard' });
		const found = forms(html);
		expect(found.map((form) => form.action)).toEqual(['/auth/second-factor']);
		expect(found[0].fields).toHaveLength(2);
		expect(found[0].fields[0]).toEqual({ type: 'hidden', name: 'csrfToken', value: 'csrf-1' });
		expect(found[0].fields[1]).toMatchObject({ name: 'code', type: 'text', autocomplete: 'one-time-code', required: '', maxlength: '64' });
		expect(html).toMatch(/<label for="([^"]+)-code">Verification code<\/label> <input id="\1-code"/);
		expect(html).toContain('Lost your device? Enter one of your recovery codes instead.');
		expect(html).toContain('href="/auth/signin?callbackUrl=%2Fdashboard">Sign in another way</a>');
		expect(html).not.toContain('role="alert"');
		expect(html).not.toContain('<script');
	});

	test('a refused code and too many tries are announced; basePath and action move the form', () => {
		expect(show(TwoFactorChallenge, { csrfToken: 'c', error: 'InvalidSecondFactor' })).toMatch(/role="alert">That code is not right/);
		expect(show(TwoFactorChallenge, { csrfToken: 'c', error: 'RateLimited' })).toMatch(/role="alert">Too many codes were tried/);
		expect(show(TwoFactorChallenge, { csrfToken: 'c', error: '<b>x</b>' })).toMatch(/role="alert">That did not work/);
		expect(forms(show(TwoFactorChallenge, { csrfToken: 'c', basePath: '/app/auth/' }))[0].action).toBe('/app/auth/second-factor');
		expect(forms(show(TwoFactorChallenge, { csrfToken: 'c', action: '/login/second-step' }))[0].action).toBe('/login/second-step');
	});

	test('French', () => {
		const html = show(TwoFactorChallenge, { csrfToken: 'c', messages: resolveMessages('fr'), error: 'InvalidSecondFactor' });
		expect(html).toContain('Code de vérification');
		expect(html).toContain('Ce code n’est pas le bon');
	});
});

describe('two-factor-view', () => {
	test('qrDrawing reads only the one shape the engine draws', () => {
		expect(qrDrawing('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 25 25"><rect fill="white" width="25" height="25"/><path fill="black" d="M4,4h1v1h-1z"/></svg>')).toEqual({ size: 25, path: 'M4,4h1v1h-1z' });
		expect(qrDrawing('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 25 24"><rect fill="white" width="25" height="25"/><path fill="black" d="M4,4"/></svg>')).toBeNull();
		expect(qrDrawing('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 25 25"><rect fill="white" width="25" height="25"/><path fill="black" d="M4,4" onclick="x"/></svg>')).toBeNull();
		expect(qrDrawing(undefined)).toBeNull();
	});

	test('groupedSecret, countText and challengeErrorText', () => {
		expect(groupedSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
		expect(countText(0, enTwoFactor, 'twoFactor.codesLeft')).toBe('You have no recovery codes left: make new ones.');
		expect(countText(1, enTwoFactor, 'secondFactor.recoveryUsed')).toBe('You have 1 recovery code left. Each code works once.');
		expect(countText(9, enTwoFactor, 'secondFactor.recoveryUsed')).toBe('You have 9 recovery codes left. Each code works once.');
		expect(challengeErrorText(null, enTwoFactor)).toBeNull();
		expect(challengeErrorText('Nope', enTwoFactor)).toBe('That did not work. Please try again.');
	});
});
