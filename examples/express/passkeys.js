// The Express demo's account page: the signed-in user's passkeys, rendered on the server, with
// buttons run by `kitgate/client` in the browser. No bundler: the client and its one dependency,
// @simplewebauthn/browser, are served as ES modules and joined by an import map.

import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';

/** Folder of the ES module a bare specifier resolves to; undefined when it is not installed. */
function moduleFolder(specifier) {
	try {
		return dirname(fileURLToPath(import.meta.resolve(specifier)));
	} catch {
		return undefined;
	}
}

const escape = (value) =>
	String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** One passkey as a list item; the same markup the browser script renders. */
function passkeyItem(passkey) {
	const name = `Passkey …${passkey.credentialID.slice(-6)}`;
	return `<li data-credential-id="${escape(passkey.credentialID)}"><span>${escape(name)}</span> · <span>${passkey.credentialDeviceType === 'multiDevice' ? 'Synced across devices' : 'This device only'}</span> · <span>${passkey.credentialBackedUp ? 'Backed up' : 'Not backed up'}</span> <button type="button" data-remove="${escape(passkey.credentialID)}" aria-label="Remove: ${escape(name)}" disabled>Remove</button></li>`;
}

// runs in the browser: enables the buttons and keeps the list in step with the server
const browserScript = `
import { listPasskeys, registerPasskey, removePasskey } from '/vendor/kitgate/client/index.js';
const list = document.getElementById('passkeys');
const empty = document.getElementById('passkey-empty');
const add = document.getElementById('add-passkey');
const message = document.getElementById('passkey-message');
const template = document.getElementById('passkey-item');
const errors = {
	WebAuthnUnsupported: 'This browser cannot use passkeys.',
	WebAuthnCancelled: 'The passkey prompt was closed. Nothing changed.',
	WebAuthnVerificationError: 'Your passkey could not be verified. Please try again.'
};
function say(text, isError) {
	message.textContent = text;
	message.setAttribute('role', isError ? 'alert' : 'status');
}
function render(passkeys) {
	list.replaceChildren(...passkeys.map((passkey) => {
		const item = template.content.firstElementChild.cloneNode(true);
		const name = 'Passkey …' + passkey.credentialID.slice(-6);
		item.dataset.credentialId = passkey.credentialID;
		item.querySelector('[data-name]').textContent = name;
		item.querySelector('[data-device]').textContent = passkey.credentialDeviceType === 'multiDevice' ? 'Synced across devices' : 'This device only';
		item.querySelector('[data-backup]').textContent = passkey.credentialBackedUp ? 'Backed up' : 'Not backed up';
		const remove = item.querySelector('button');
		remove.dataset.remove = passkey.credentialID;
		remove.setAttribute('aria-label', 'Remove: ' + name);
		remove.disabled = false;
		return item;
	}));
	empty.hidden = passkeys.length > 0;
}
add.addEventListener('click', async () => {
	add.disabled = true;
	say('', false);
	const result = await registerPasskey();
	if (result.ok) {
		render(await listPasskeys());
		say('Passkey added.', false);
	} else {
		say(errors[result.error] ?? 'Something went wrong with the passkey. Please try again.', true);
	}
	add.disabled = false;
});
list.addEventListener('click', async (event) => {
	const id = event.target.closest('button[data-remove]')?.dataset.remove;
	if (!id) return;
	render(await removePasskey(id));
	say('Passkey removed.', false);
});
for (const button of document.querySelectorAll('button[data-remove]')) button.disabled = false;
add.disabled = false;
`;

/**
 * Adds `/account` and the static modules its script needs.
 *
 * @param {import('express').Express} app
 * @param {{ config: import('kitgate').AuthConfig, page: (title: string, locals: Record<string, unknown>, body: string) => string }} options
 */
export function passkeyPages(app, { config, page }) {
	const client = moduleFolder('kitgate/client');
	const browser = moduleFolder('@simplewebauthn/browser');
	if (client) app.use('/vendor/kitgate/client', express.static(client));
	if (browser) app.use('/vendor/simplewebauthn-browser', express.static(browser));

	app.get('/account', async (req, res) => {
		const session = res.locals.session;
		if (!session?.user) return res.redirect(`/auth/signin?callbackUrl=${encodeURIComponent(req.originalUrl)}`);
		const adapter = config.adapter;
		const passkeysOn = Boolean(adapter && client && browser && config.providers.some((p) => p.type === 'webauthn'));
		const intro = `<h1>Account</h1><p data-testid="account-user">${escape(session.user.name)} (${escape(session.user.email)})</p><h2>Passkeys</h2>`;
		if (!passkeysOn) return res.send(page('Account', res.locals, `${intro}<p>Passkeys are off in this demo (they need the SQLite adapter and @simplewebauthn/browser).</p>`));
		const user = await adapter.getUserByEmail(session.user.email);
		const passkeys = user ? await adapter.listAuthenticatorsByUserId(user.id) : [];
		const body = `${intro}<p>A passkey lets you sign in with this device's screen lock or a security key, without a password.</p>
<ul id="passkeys">${passkeys.map(passkeyItem).join('')}</ul>
<p id="passkey-empty" data-testid="passkey-empty"${passkeys.length ? ' hidden' : ''}>You have no passkeys yet.</p>
<button type="button" id="add-passkey" disabled>Add a passkey</button>
<p id="passkey-message" role="status"></p>
<noscript><p>Passkeys need JavaScript. Turn it on in your browser to use them.</p></noscript>
<template id="passkey-item"><li><span data-name></span> · <span data-device></span> · <span data-backup></span> <button type="button" disabled>Remove</button></li></template>
<script type="importmap">${JSON.stringify({ imports: { '@simplewebauthn/browser': '/vendor/simplewebauthn-browser/index.js' } })}</script>
<script type="module">${browserScript}</script>`;
		res.send(page('Account', res.locals, body));
	});
}
