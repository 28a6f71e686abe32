// A credential change ends the user's other sessions unless they ask to keep them, and the user is
// told by email (a `security-notice` mail; the old address for an address change): removing a
// passkey, changing the address, and the app's own password change through `credentialChanged`.
// Both session strategies on the memory adapter and a SQLite file.

import { describe, expect, test } from 'vitest';
import { renderAccountEmail } from '../../providers/email-message.js';
import { credentialChanged, keepsOtherSessions } from '../account/credential-change.js';
import { accountWorld, outcomeOf, UA_SAFARI } from './account-fixture.js';
import { confirmationForm } from './email-fixtures.js';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from './stored-adapters.js';

const adapters = memoryAndSqliteAdapters('credential-change');

test('keepOtherSessions: only an explicit yes keeps them (pure)', () => {
	expect(keepsOtherSessions({})).toBe(false);
	expect(keepsOtherSessions({ keepOtherSessions: 'yes' })).toBe(true);
	expect(keepsOtherSessions({ keepOtherSessions: 'on' })).toBe(true);
	expect(keepsOtherSessions({ keepOtherSessions: true })).toBe(true);
	expect(keepsOtherSessions({ keepOtherSessions: 'no' })).toBe(false);
	expect(keepsOtherSessions({ keepOtherSessions: ['yes'] as never })).toBe(false);
});

test('the notice mail names the change and links only to the site', () => {
	const mail = renderAccountEmail({ kind: 'security-notice', change: 'passkey-removed', url: 'https://app.example/', newEmail: 'ada@example.com', theme: {} });
	expect(mail.subject).toBe('A security change on your app.example account');
	expect(mail.text).toContain('A passkey was removed from your account on app.example.');
	expect(mail.html).toContain('https://app.example/');
	const french = renderAccountEmail({ kind: 'security-notice', change: 'email-changed', url: 'https://app.example/', newEmail: 'neu@example.com', theme: {}, locale: 'fr' });
	expect(french.text).toContain('neu@example.com');
	expect(french.subject).toContain('sécurité');
});

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		const world = () => accountWorld(makeAdapter(), strategy);

		async function twoDevices(w: ReturnType<typeof world>) {
			const { laptop, phone } = await w.laptopAndPhone();
			return { laptop, phone };
		}

		test('removing a passkey ends the other sessions and mails a notice; this browser goes on', async () => {
			const w = world();
			const { laptop, phone } = await twoDevices(w);
			const credentialID = await laptop.addPasskey();
			const mailsBefore = w.mails.length;
			expect(outcomeOf(await laptop.change('remove-passkey', { credentialID })).account).toBe('passkey-removed');
			expect(await phone.session()).toBeNull();
			expect((await laptop.session())?.user?.email).toBe('ada@example.com');
			expect(w.mails.slice(mailsBefore).map((m) => [m.kind, m.change, m.identifier])).toEqual([['security-notice', 'passkey-removed', 'ada@example.com']]);
			expect(w.mails.at(-1)!.url).toBe('http://localhost:3000');
		});

		test('a sign-in in the same second as the change (after it) is not caught by its revocation', async () => {
			const w = world();
			const { laptop } = await twoDevices(w);
			const credentialID = await laptop.addPasskey();
			expect(outcomeOf(await laptop.change('remove-passkey', { credentialID })).account).toBe('passkey-removed');
			// no clock tick: the revocation took effect as of the next whole second
			const tablet = await w.signedIn('ada@example.com', UA_SAFARI);
			expect((await tablet.session())?.user?.email).toBe('ada@example.com');
			expect((await laptop.session())?.user?.email).toBe('ada@example.com');
		});

		test('keepOtherSessions=yes keeps them, the notice is sent all the same', async () => {
			const w = world();
			const { laptop, phone } = await twoDevices(w);
			const credentialID = await laptop.addPasskey();
			expect(outcomeOf(await laptop.change('remove-passkey', { credentialID, keepOtherSessions: 'yes' })).account).toBe('passkey-removed');
			expect((await phone.session())?.user?.email).toBe('ada@example.com');
			expect(w.mails.at(-1)).toMatchObject({ kind: 'security-notice', change: 'passkey-removed' });
		});

		test('a confirmed address change ends the other sessions and tells the old address', async () => {
			const w = world();
			const { laptop, phone } = await twoDevices(w);
			await laptop.change('change-email', { email: 'ada.new@example.com' });
			const link = w.mails.find((m) => m.kind === 'confirm-email-change')!.url;
			const form = confirmationForm(await (await laptop.request(link)).text());
			expect(outcomeOf(await laptop.request(form.action, { form: form.fields })).account).toBe('email-changed');
			expect(await phone.session()).toBeNull();
			expect((await laptop.session())?.user?.email).toBe('ada.new@example.com');
			expect(w.mails.at(-1)).toMatchObject({ kind: 'security-notice', change: 'email-changed', identifier: 'ada@example.com' });
		});

		test('the confirmation page offers to keep the other sessions; ticked, they go on', async () => {
			const w = world();
			const { laptop, phone } = await twoDevices(w);
			await laptop.change('change-email', { email: 'ada.new@example.com' });
			const link = w.mails.find((m) => m.kind === 'confirm-email-change')!.url;
			const html = await (await laptop.request(link)).text();
			expect(html).toMatch(/<input type="checkbox" name="keepOtherSessions" value="yes"/);
			expect(html).toContain('Keep my other devices signed in');
			const form = confirmationForm(html);
			expect(outcomeOf(await laptop.request(form.action, { form: { ...form.fields, keepOtherSessions: 'yes' } })).account).toBe('email-changed');
			expect((await phone.session())?.user).toBeTruthy();
			expect((await laptop.session())?.user?.email).toBe('ada.new@example.com');
		});

		test('credentialChanged (the app changed a password): every session ends and the user is told', async () => {
			const w = world();
			const { laptop, phone } = await twoDevices(w);
			const user = await w.userOf('ada@example.com');
			w.clock.now += 2000;
			await credentialChanged(user.id, w.config, { request: 'http://localhost:3000/settings/password' });
			expect(await laptop.session()).toBeNull();
			expect(await phone.session()).toBeNull();
			expect(w.mails.at(-1)).toMatchObject({ kind: 'security-notice', change: 'password-changed', identifier: 'ada@example.com', url: 'http://localhost:3000' });
		});
	});
});

test('credentialChanged needs a user id and an adapter', async () => {
	const w = accountWorld(memoryAndSqliteAdapters('credential-change-args')[0]![1](), 'jwt');
	await expect(credentialChanged('', w.config, { request: 'http://localhost:3000' })).rejects.toThrow(/id of the user/);
	await expect(credentialChanged('u1', { ...w.config, adapter: undefined, account: false }, { request: 'http://localhost:3000' })).rejects.toThrow(/adapter/);
});
