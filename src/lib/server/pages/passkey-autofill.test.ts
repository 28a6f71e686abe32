// Passkey autofill on the built-in sign-in page: the fields that name the user carry the
// `webauthn` token when a passkey provider is listed, the page ships the script under its CSP
// hash, and the script, run in a stand-in browser (node:vm with a recorded fetch,
// navigator.credentials and location), starts autofill only where it can be offered, runs one
// WebAuthn request at a time, and shows nothing for a failed or aborted autofill request.

import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { resolveMessages } from './messages.js';
import { PASSKEY_SCRIPT } from './passkey-script.js';
import { pageSecurityHeaders, renderPage } from './render.js';
import type { PageProvider, SignInPageProps } from './types.js';

const passkey: PageProvider = { id: 'passkey', name: 'Passkey', type: 'webauthn', action: '/auth/callback/passkey', optionsUrl: '/auth/webauthn-options/passkey' };
const email: PageProvider = { id: 'email', name: 'Email', type: 'email', action: '/auth/signin/email' };
const credentials: PageProvider = {
	id: 'credentials',
	name: 'Password',
	type: 'credentials',
	action: '/auth/callback/credentials',
	credentials: { username: { label: 'Username', autocomplete: 'username' }, password: { label: 'Password', type: 'password', autocomplete: 'current-password' } }
};

function signInPage(providers: PageProvider[]): { html: string; props: SignInPageProps } {
	const props: SignInPageProps = { theme: {}, messages: resolveMessages('en'), lang: 'en', providers, csrfToken: 'tok', callbackUrl: '/after' };
	return { html: renderPage('signin', props), props };
}

/** name → autocomplete of each input with an autocomplete. */
function autocompletes(html: string): Record<string, string> {
	return Object.fromEntries(
		[...html.matchAll(/<input[^>]*>/g)].flatMap(([tag]) => {
			const name = /name="([^"]*)"/.exec(tag)?.[1];
			const value = /autocomplete="([^"]*)"/.exec(tag)?.[1];
			return name && value ? [[name, value]] : [];
		})
	);
}

describe('the sign-in page', () => {
	test('with a passkey provider, the email and username fields offer passkeys; the password field stays as it is', () => {
		const { html } = signInPage([email, credentials, passkey]);
		expect(autocompletes(html)).toEqual({ email: 'email webauthn', username: 'username webauthn', password: 'current-password' });
	});

	test('without one, the fields keep their own tokens and no script runs', () => {
		const { html } = signInPage([email, credentials]);
		expect(autocompletes(html)).toEqual({ email: 'email', username: 'username', password: 'current-password' });
		expect(html).not.toContain('<script');
	});

	test('the page ships the autofill script, and the CSP allows it by its hash', () => {
		const { html, props } = signInPage([credentials, passkey]);
		const script = /<script type="module">([\s\S]*?)<\/script>/.exec(html)?.[1];
		expect(script).toBe(PASSKEY_SCRIPT);
		expect(script).toContain("mediation: 'conditional'");
		const hash = `'sha256-${createHash('sha256').update(script!).digest('base64')}'`;
		expect(pageSecurityHeaders('signin', props)['content-security-policy'].split('; ')[0]).toBe(`script-src ${hash}`);
	});
});

interface PendingGet {
	options: { mediation?: string; publicKey: { challenge: string }; signal?: AbortSignal };
	resolve: (credential: unknown) => void;
	reject: (error: Error) => void;
	settled: boolean;
}

interface PageOptions {
	/** An input whose autocomplete ends in `webauthn` is on the page (default true). */
	field?: boolean;
	/** What `PublicKeyCredential.isConditionalMediationAvailable` answers; `absent`: the browser has no such method. */
	conditional?: boolean | 'absent';
	/** What the callback answers. */
	callback?: { ok: boolean; body: Record<string, unknown> };
}

const credential = (id: string) => ({ toJSON: () => ({ id, response: { clientDataJSON: 'e30' } }) });
const domError = (name: string) => Object.assign(new Error(name), { name });
/** Lets the script's pending promises run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Runs the script on a sign-in page with one passkey form; returns what it did and handles to act. */
function page(options: PageOptions = {}) {
	const { field = true, conditional = true, callback = { ok: true, body: { url: 'http://localhost/after' } } } = options;
	const requests: { url: string; body?: Record<string, unknown> }[] = [];
	const gets: PendingGet[] = [];
	const navigations: string[] = [];
	let challenges = 0;
	let click: () => Promise<void> = async () => undefined;
	const button = {
		disabled: true,
		addEventListener: (_type: string, listener: () => Promise<void>) => void (click = listener)
	};
	const hint = { textContent: '', hidden: true };
	const form = {
		action: '/auth/callback/passkey',
		dataset: { optionsUrl: '/auth/webauthn-options/passkey', unsupported: 'No passkeys here.' },
		elements: { csrfToken: { value: 'csrf-token' }, callbackUrl: { value: '/after' } },
		querySelector: (selector: string) => (selector === 'button' ? button : hint)
	};
	const PublicKeyCredential = {
		parseRequestOptionsFromJSON: (json: { challenge: string }) => ({ challenge: json.challenge }),
		prototype: { toJSON: () => ({}) },
		...(conditional === 'absent' ? {} : { isConditionalMediationAvailable: async () => conditional })
	};
	const context = {
		PublicKeyCredential,
		URL,
		AbortController,
		document: {
			querySelectorAll: (selector: string) => (selector === 'form[data-kitgate-passkey]' ? [form] : []),
			querySelector: (selector: string) => (selector === 'input[autocomplete$="webauthn"]' && field ? {} : null)
		},
		navigator: {
			credentials: {
				get: (request: PendingGet['options']) =>
					new Promise((resolve, reject) => {
						const pending: PendingGet = { options: request, resolve, reject, settled: false };
						const end = (then: () => void) => {
							pending.settled = true;
							then();
						};
						pending.resolve = (value) => end(() => resolve(value));
						pending.reject = (error) => end(() => reject(error));
						request.signal?.addEventListener('abort', () => pending.reject(domError('AbortError')));
						gets.push(pending);
					})
			}
		},
		fetch: async (url: string, init: { body?: string } = {}) => {
			requests.push({ url, body: init.body ? JSON.parse(init.body) : undefined });
			if (url.startsWith('/auth/webauthn-options/')) {
				const options = { challenge: `challenge-${++challenges}` };
				return { ok: true, json: async () => ({ action: 'authenticate', options }) };
			}
			return { ok: callback.ok, json: async () => callback.body };
		},
		location: { href: 'http://localhost/auth/signin', assign: (url: string) => void navigations.push(url) }
	};
	runInNewContext(PASSKEY_SCRIPT, { ...context, window: context });
	const pendingGets = () => gets.filter((get) => !get.settled);
	return { requests, gets, pendingGets, navigations, button, hint, click: () => click() };
}

describe('passkey autofill on the built-in sign-in page', () => {
	test('starts a conditional request with autofill options; a passkey picked there signs in as the button does', async () => {
		const browser = page();
		await settle();
		expect(browser.requests.map((r) => r.url)).toEqual(['/auth/webauthn-options/passkey?action=authenticate&mediation=conditional']);
		expect(browser.gets).toHaveLength(1);
		expect(browser.gets[0].options).toMatchObject({ mediation: 'conditional', publicKey: { challenge: 'challenge-1' } });
		expect(browser.gets[0].options.signal).toBeInstanceOf(AbortSignal);
		expect(browser.button.disabled).toBe(false);

		browser.gets[0].resolve(credential('picked'));
		await settle();
		expect(browser.requests[1]).toEqual({
			url: '/auth/callback/passkey',
			body: { action: 'authenticate', data: { id: 'picked', response: { clientDataJSON: 'e30' } }, csrfToken: 'csrf-token', callbackUrl: '/after' }
		});
		expect(browser.navigations).toEqual(['http://localhost/after']);
		expect(browser.button.disabled).toBe(true);
	});

	test('the button aborts the autofill request before its own: never two pending, and autofill comes back when its prompt is closed', async () => {
		const browser = page();
		await settle();
		const autofillRequest = browser.gets[0];
		const clicked = browser.click();
		await settle();
		expect(autofillRequest.options.signal?.aborted).toBe(true);
		expect(autofillRequest.settled).toBe(true);
		expect(browser.gets).toHaveLength(2);
		expect(browser.gets[1].options.mediation).toBeUndefined();
		expect(browser.gets[1].options.publicKey.challenge).toBe('challenge-2');
		expect(browser.pendingGets()).toHaveLength(1);
		expect(browser.requests.map((r) => r.url).at(-1)).toBe('/auth/webauthn-options/passkey?action=authenticate');

		browser.gets[1].reject(domError('NotAllowedError'));
		await clicked;
		await settle();
		expect(browser.button.disabled).toBe(false);
		expect(browser.pendingGets()).toHaveLength(1);
		expect(browser.pendingGets()[0].options).toMatchObject({ mediation: 'conditional', publicKey: { challenge: 'challenge-3' } });
		expect(browser.navigations).toEqual([]);
	});

	test('the button signs in after stopping autofill', async () => {
		const browser = page();
		await settle();
		const clicked = browser.click();
		await settle();
		browser.gets[1].resolve(credential('from-button'));
		await clicked;
		expect(browser.requests.at(-1)?.body?.data).toEqual({ id: 'from-button', response: { clientDataJSON: 'e30' } });
		expect(browser.navigations).toEqual(['http://localhost/after']);
		expect(browser.pendingGets()).toHaveLength(0);
	});

	test('a click just after a passkey was picked in autofill starts nothing more', async () => {
		const browser = page({ callback: { ok: true, body: { url: 'http://localhost/after' } } });
		await settle();
		browser.gets[0].resolve(credential('picked'));
		await browser.click();
		await settle();
		expect(browser.gets).toHaveLength(1);
		expect(browser.requests.filter((r) => r.url.includes('webauthn-options'))).toHaveLength(1);
		expect(browser.navigations).toEqual(['http://localhost/after']);
	});

	test('a failed autofill request shows nothing and is not started again', async () => {
		const browser = page();
		await settle();
		browser.gets[0].reject(domError('NotAllowedError'));
		await settle();
		expect(browser.navigations).toEqual([]);
		expect(browser.hint.hidden).toBe(true);
		expect(browser.gets).toHaveLength(1);
		expect(browser.button.disabled).toBe(false);
	});

	test('a picked passkey the server refuses shows nothing either; the button is back', async () => {
		const browser = page({ callback: { ok: false, body: { error: 'WebAuthnVerificationError' } } });
		await settle();
		browser.gets[0].resolve(credential('removed'));
		await settle();
		expect(browser.navigations).toEqual([]);
		expect(browser.button.disabled).toBe(false);
		expect(browser.gets).toHaveLength(1);
		// the button says why
		const clicked = browser.click();
		await settle();
		browser.gets[1].resolve(credential('removed'));
		await clicked;
		expect(browser.navigations).toEqual(['http://localhost/auth/signin?error=WebAuthnVerificationError']);
	});

	test('nothing starts without a field to offer passkeys in, or without conditional mediation; the button works', async () => {
		for (const options of [{ field: false }, { conditional: false }, { conditional: 'absent' as const }]) {
			const browser = page(options);
			await settle();
			expect(browser.requests).toEqual([]);
			expect(browser.gets).toEqual([]);
			const clicked = browser.click();
			await settle();
			expect(browser.gets).toHaveLength(1);
			expect(browser.gets[0].options.mediation).toBeUndefined();
			browser.gets[0].reject(domError('NotAllowedError'));
			await clicked;
			await settle();
			expect(browser.gets).toHaveLength(1);
		}
	});
});
