// The account components rendered on the server (as SvelteKit, a prerender and the built-in
// account page do): plain forms posting to the account routes with the CSRF token and the page to
// come back to, labelled fields, notices announced, texts in English and French, dates that do not
// depend on the server's time zone, and each state of the overview.

import type { Component } from 'svelte';
import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import { resolveMessages } from '../../messages/index.js';
import { enAccountUi } from '../../messages/en-account-ui.js';
import { buttons, inputs, withoutMarkers } from '../test/html.js';
import { emptyOverview, fullOverview, jwtOverview, lastWayOverview, restrictedOverview, staleOverview } from '../test/account-overviews.js';
import WithAccountMessages from '../test/WithAccountMessages.svelte';
import AccountSettings from './AccountSettings.svelte';
import ActiveSessions from './ActiveSessions.svelte';
import ChangeEmail from './ChangeEmail.svelte';
import ConnectedAccounts from './ConnectedAccounts.svelte';
import DeleteAccount from './DeleteAccount.svelte';
import PasskeyList from './PasskeyList.svelte';
import { accountAction, accountNotice, accountTexts, deviceLabel, formatTime, passkeyLabel, withAccountParam } from './account-view.js';

type AnyComponent = Component<Record<string, unknown>>;
const show = (component: unknown, props: Record<string, unknown>) => withoutMarkers(render(component as AnyComponent, { props }).body);
const base = { overview: fullOverview, callbackUrl: '/settings' };

/** The forms of some HTML: where each posts and its inputs. */
function forms(html: string): { action: string; fields: Record<string, string>[] }[] {
	return [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map(([, action, inner]) => ({ action, fields: inputs(inner) }));
}

describe('every account component', () => {
	const all: [string, unknown][] = [
		['ConnectedAccounts', ConnectedAccounts],
		['PasskeyList', PasskeyList],
		['ActiveSessions', ActiveSessions],
		['ChangeEmail', ChangeEmail],
		['DeleteAccount', DeleteAccount],
		['AccountSettings', AccountSettings]
	];

	test.each(all)('%s: every form posts to an account route with the CSRF token and the page to come back to', (_name, component) => {
		const found = forms(show(component, base));
		expect(found.length).toBeGreaterThan(0);
		for (const { action, fields } of found) {
			expect(action).toMatch(/^\/auth\/account\/(unlink|link|rename-passkey|remove-passkey|end-session|end-other-sessions|change-email|delete|two-factor-start|two-factor-confirm|two-factor-recovery-codes|two-factor-remove)$/);
			expect(fields).toContainEqual({ type: 'hidden', name: 'csrfToken', value: 'csrf-token-of-this-browser' });
			expect(fields).toContainEqual({ type: 'hidden', name: 'callbackUrl', value: '/settings' });
		}
	});

	test.each(all)('%s: a section with an h2 heading, no link or script, and the basePath prop moves every form', (_name, component) => {
		const html = show(component, base);
		expect(html).toMatch(/<h2 id="[^"]+-title">/);
		expect(html).not.toContain('<script');
		const moved = forms(show(component, { ...base, basePath: '/app/auth/' }));
		for (const { action } of moved) expect(action.startsWith('/app/auth/account/')).toBe(true);
	});

	test.each(all)('%s: shows the result and the error it is given, announced', (_name, component) => {
		expect(show(component, { ...base, result: 'passkey-renamed' })).toMatch(/<p class="kg-notice kitgate-account-notice" role="status">\s*Passkey renamed\.\s*<\/p>/);
		expect(show(component, { ...base, error: 'LastSignInMethod' })).toMatch(/role="alert">\s*This is your last way to sign in\./);
	});
});

describe('ConnectedAccounts', () => {
	test('an account that can go has a Disconnect form naming it; the email account has none', () => {
		const html = show(ConnectedAccounts, base);
		const unlink = forms(html).filter((form) => form.action === '/auth/account/unlink');
		expect(unlink).toHaveLength(1);
		expect(unlink[0].fields).toContainEqual({ type: 'hidden', name: 'provider', value: 'github' });
		expect(unlink[0].fields).toContainEqual({ type: 'hidden', name: 'providerAccountId', value: '583231' });
		expect(buttons(html).find((b) => b.content === 'Disconnect')?.attributes).toContain('aria-label="Disconnect GitHub"');
		expect(html).toContain('Email link');
		expect(html).not.toContain('Your only way to sign in');
	});

	test('one button per provider to connect, through the link route', () => {
		const links = forms(show(ConnectedAccounts, base)).filter((form) => form.action === '/auth/account/link');
		expect(links.map((form) => form.fields.find((f) => f.name === 'provider')?.value)).toEqual(['github', 'google']);
		expect(show(ConnectedAccounts, base)).toContain('Connect Google');
	});

	test('the last way in cannot be disconnected, and says why', () => {
		const html = show(ConnectedAccounts, { ...base, overview: lastWayOverview });
		expect(forms(html).some((form) => form.action === '/auth/account/unlink')).toBe(false);
		expect(html).toContain('Your only way to sign in: add another before you disconnect it.');
	});

	test('nothing connected: says so; a stale sign-in: warns that a new sign-in comes first', () => {
		expect(show(ConnectedAccounts, { ...base, overview: emptyOverview })).toContain('No account of a sign-in provider is connected.');
		expect(show(ConnectedAccounts, base)).not.toContain('kitgate-account-fresh');
		expect(show(ConnectedAccounts, { ...base, overview: staleOverview })).toContain('you will be asked to sign in again first');
	});

	test('two accounts at one provider are told apart by their id', () => {
		const twice = { ...fullOverview, accounts: [fullOverview.accounts[0], { ...fullOverview.accounts[0], providerAccountId: '99' }] };
		const html = show(ConnectedAccounts, { ...base, overview: twice });
		expect(html).toContain('Sign-in provider · 583231');
		expect(html).toContain('Sign-in provider · 99');
	});
});

describe('PasskeyList', () => {
	test('each passkey: its name (the user’s, else its make, else the end of its id), make and dates in UTC', () => {
		const html = show(PasskeyList, base);
		expect(html).toContain('data-credential-id="Zm9vYmFyLXN5bmNlZC0xMjM0NTY"');
		expect(html).toMatch(/kitgate-passkey-name">Work laptop</);
		expect(html).toMatch(/kitgate-passkey-name">YubiKey 5 Series</);
		expect(html).toContain('iCloud Keychain · Synced across devices');
		expect(html).toContain('Added May 12, 2026, 12:00 PM UTC · Last used Jun 1, 2026, 11:58 AM UTC');
		expect(html).toContain('Not used yet');
	});

	test('rename: a labelled name field in a disclosure; remove: a form whose button names the passkey', () => {
		const html = show(PasskeyList, base);
		const rename = forms(html).filter((form) => form.action === '/auth/account/rename-passkey');
		expect(rename).toHaveLength(2);
		expect(rename[0].fields).toContainEqual({ name: 'name', type: 'text', value: 'Work laptop', maxlength: '64', autocomplete: 'off' });
		expect(rename[1].fields).toContainEqual({ name: 'name', type: 'text', value: '', maxlength: '64', autocomplete: 'off' });
		expect(html).toMatch(/<label class="kg-field"><span>New name<\/span> <input name="name"/);
		expect(html).toContain('<summary aria-label="Rename Work laptop">Rename</summary>');
		const remove = forms(html).filter((form) => form.action === '/auth/account/remove-passkey');
		expect(remove.map((form) => form.fields.find((f) => f.name === 'credentialID')?.value)).toEqual(['Zm9vYmFyLXN5bmNlZC0xMjM0NTY', 'YmF6cXV4LWtleS05ODc2NTQ']);
		expect(html).toContain('aria-label="Remove: YubiKey 5 Series"');
	});

	test('"Add a passkey" waits for JavaScript, and carries what the page script needs', () => {
		const html = show(PasskeyList, base);
		const add = buttons(html).find((b) => b.content === 'Add a passkey')!;
		expect(add.attributes).toContain('disabled');
		expect(add.attributes).toContain('data-options-url="/auth/webauthn-options/passkey"');
		expect(add.attributes).toContain('data-action="/auth/callback/passkey"');
		expect(add.attributes).toContain('data-csrf-token="csrf-token-of-this-browser"');
		expect(add.attributes).toContain('data-callback-url="/settings"');
		expect(html).toContain('<noscript><p class="kg-hint">Passkeys need JavaScript.');
		expect(show(PasskeyList, { ...base, overview: restrictedOverview })).not.toContain('Add a passkey');
	});

	test('no passkeys: says so; the last passkey on a stale sign-in: warns that a new sign-in comes first', () => {
		expect(show(PasskeyList, { ...base, overview: emptyOverview })).toContain('data-testid="passkey-empty"');
		expect(show(PasskeyList, { ...base, overview: staleOverview })).toContain('kitgate-account-fresh');
		expect(show(PasskeyList, base)).not.toContain('kitgate-account-fresh');
	});

	test('a passkey error code gets the passkey text', () => {
		expect(show(PasskeyList, { ...base, error: 'WebAuthnVerificationError' })).toContain('Your passkey could not be verified.');
	});
});

describe('ActiveSessions', () => {
	test('database sessions: every device, this one marked; the others each have a sign-out form by id', () => {
		const html = show(ActiveSessions, base);
		expect(html).toContain('Firefox on Linux');
		expect(html).toContain('Safari on iOS');
		expect(html).toContain('Unknown browser on an unknown system');
		expect(html).toMatch(/data-current="true"[\s\S]*?<span class="kg-badge">This device<\/span>/);
		const ends = forms(html).filter((form) => form.action === '/auth/account/end-session');
		expect(ends.map((form) => form.fields.find((f) => f.name === 'sessionId')?.value)).toEqual(['Pq7wE1rT5yU9iO3pA6sD2f', 'Zx4cV8bN2mL6kJ0hG3fD9s']);
		expect(html).toContain('aria-label="Sign out Safari on iOS, signed in May 31, 2026, 10:00 AM UTC"');
		expect(forms(html).filter((form) => form.action === '/auth/account/end-other-sessions')).toHaveLength(1);
	});

	test('only this device: says so, and offers nothing to end', () => {
		const html = show(ActiveSessions, { ...base, overview: emptyOverview });
		expect(html).toContain('You are signed in on this device only.');
		expect(forms(html)).toEqual([]);
	});

	test('JWT sessions: this device only, and "Sign out everywhere else" for the rest', () => {
		const html = show(ActiveSessions, { ...base, overview: jwtOverview });
		expect(html).toContain('Other browsers where you are signed in are not listed.');
		expect(forms(html).map((form) => form.action)).toEqual(['/auth/account/end-other-sessions']);
	});
});

describe('ChangeEmail and DeleteAccount', () => {
	test('ChangeEmail: the address and whether it is confirmed, a labelled required email field', () => {
		const html = show(ChangeEmail, base);
		expect(html).toContain('Your address is ada@example.com.');
		expect(html).toContain('<span class="kg-badge">Confirmed</span>');
		expect(html).toMatch(/<label class="kg-field"><span>New email address<\/span> <input name="email" type="email" required="" autocomplete="email"\/>/);
		expect(show(ChangeEmail, { ...base, overview: emptyOverview })).toContain('Not confirmed');
		const off = show(ChangeEmail, { ...base, overview: restrictedOverview });
		expect(off).toContain('Your account has no email address yet.');
		expect(off).toContain('Changing the email address is not available here.');
		expect(forms(off)).toEqual([]);
	});

	test('DeleteAccount: a required box to tick and the button; off when deletion is off', () => {
		const html = show(DeleteAccount, base);
		expect(inputs(html)).toContainEqual({ type: 'checkbox', name: 'confirm', value: 'yes', required: '' });
		expect(buttons(html).find((b) => b.content === 'Delete my account')?.attributes).toContain('kg-danger');
		expect(show(DeleteAccount, { ...base, overview: staleOverview })).toContain('kitgate-account-fresh');
		expect(forms(show(DeleteAccount, { ...base, overview: restrictedOverview }))).toEqual([]);
	});

	test('DeleteAccount: returnTo, when not the page after deletion, is posted for a refusal or a new sign-in to come back to', () => {
		expect(inputs(show(DeleteAccount, { ...base, callbackUrl: '/', returnTo: '/settings' }))).toContainEqual({ type: 'hidden', name: 'returnTo', value: '/settings' });
		expect(inputs(show(DeleteAccount, { ...base, returnTo: '/settings' })).some((input) => input.name === 'returnTo')).toBe(false);
	});
});

describe('AccountSettings', () => {
	test('composes every section, with the user and one notice; deletion comes back to its own page', () => {
		const html = show(AccountSettings, { ...base, result: 'email-change-requested', deleteCallbackUrl: '/' });
		expect(html).toContain('Signed in as Ada Lovelace (ada@example.com)');
		for (const title of ['Connected accounts', 'Passkeys', 'Where you are signed in', 'Email address', 'Delete your account']) {
			expect(html).toContain(`>${title}</h2>`);
		}
		expect(html.match(/role="status"/g)).toHaveLength(1);
		const deletion = forms(html).find((form) => form.action === '/auth/account/delete')!;
		expect(deletion.fields).toContainEqual({ type: 'hidden', name: 'callbackUrl', value: '/' });
		expect(new Set(html.match(/id="[^"]+"/g)).size).toBe(html.match(/id="[^"]+"/g)!.length);
	});

	test('leaves out passkeys, email change and deletion when they are off', () => {
		const html = show(AccountSettings, { ...base, overview: restrictedOverview });
		expect(html).not.toContain('>Passkeys</h2>');
		expect(html).not.toContain('>Email address</h2>');
		expect(html).not.toContain('>Delete your account</h2>');
	});

	test('French from the messages prop, dates in French; a layout’s setMessages reaches every section', () => {
		const html = show(AccountSettings, { ...base, messages: resolveMessages('fr') });
		expect(html).toContain('Comptes associés');
		expect(html).toContain('Se déconnecter partout ailleurs');
		expect(html).toContain('Ajoutée le 12 mai 2026');
		const inherited = withoutMarkers(render(WithAccountMessages as unknown as AnyComponent, { props: { table: resolveMessages('fr'), overview: fullOverview } }).body);
		expect(inherited).toContain('Supprimer mon compte');
		expect(inherited).toContain('Clés d’accès');
	});

	test('hostile values stay text', () => {
		const XSS = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
		const hostile = {
			...fullOverview,
			user: { ...fullOverview.user, name: XSS },
			accounts: [{ ...fullOverview.accounts[0], providerName: XSS }],
			passkeys: [{ ...fullOverview.passkeys[0], name: XSS }],
			sessions: [{ ...fullOverview.sessions[1], browser: XSS }]
		};
		const html = show(AccountSettings, { ...base, overview: hostile, callbackUrl: XSS, error: XSS });
		expect(html).not.toContain('<script>');
		expect(html).not.toContain('<img');
		expect(html).toContain('Something went wrong. Please try again.');
	});
});

describe('account-view', () => {
	test('formatTime: UTC by default, a given zone, French, and UTC for an unknown zone', () => {
		const noon = '2026-06-01T12:00:00.000Z';
		expect(formatTime(noon, accountTexts)).toBe('Jun 1, 2026, 12:00 PM UTC');
		expect(formatTime(noon, accountTexts, 'Europe/Paris')).toBe('Jun 1, 2026, 2:00 PM GMT+2');
		expect(formatTime(noon, resolveMessages('fr'))).toBe('1 juin 2026, 12:00 UTC');
		expect(formatTime(noon, accountTexts, 'Not/AZone')).toBe('Jun 1, 2026, 12:00 PM UTC');
		expect(formatTime(null, accountTexts)).toBeNull();
		expect(formatTime('not a date', accountTexts)).toBeNull();
	});

	test('notices: a result, an error, a passkey error; unknown results say nothing and unknown errors the generic text', () => {
		expect(accountNotice('unlinked', null, accountTexts)).toEqual({ text: 'The account was disconnected.', alert: false });
		expect(accountNotice(null, 'RateLimited', accountTexts)?.alert).toBe(true);
		expect(accountNotice(null, 'WebAuthnCancelled', accountTexts)?.text).toBe('The passkey prompt was closed. Nothing changed.');
		expect(accountNotice('nonsense', null, accountTexts)).toBeNull();
		expect(accountNotice(null, '__proto__', accountTexts)?.text).toBe('Something went wrong. Please try again.');
		expect(accountNotice('passkey-added', 'MissingCSRF', accountTexts)?.alert).toBe(true);
	});

	test('every result code of the routes, and every failure they answer a form with, has a text', () => {
		const results = ['unlinked', 'linked', 'passkey-renamed', 'passkey-removed', 'session-ended', 'other-sessions-ended', 'email-change-requested', 'email-changed', 'account-deleted', 'passkey-added'];
		for (const result of results) expect(Object.hasOwn(enAccountUi, `account.result.${result}`), result).toBe(true);
		for (const code of ['MissingCSRF', 'InvalidRequest', 'LastSignInMethod', 'RateLimited', 'Verification', 'EmailSignin']) {
			expect(Object.hasOwn(enAccountUi, `account.error.${code}`), code).toBe(true);
		}
	});

	test('names, routes and query', () => {
		expect(passkeyLabel({ name: null, authenticatorName: null, credentialID: 'abcdefghijkl' }, accountTexts)).toBe('Passkey …ghijkl');
		expect(deviceLabel({ browser: 'Chrome', os: null }, accountTexts)).toBe('Chrome on an unknown system');
		expect(accountAction('/auth/', 'delete')).toBe('/auth/account/delete');
		expect(withAccountParam('/settings?accountError=X&tab=1', 'account', 'linked', 'https://app.example/x')).toBe('https://app.example/settings?tab=1&account=linked');
	});
});
