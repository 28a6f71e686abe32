// The invitation mail as renderAccountEmail writes it: who invited, to what and as what, the link,
// the expiry date, in English and French, and names that cannot inject a header or markup.
import { describe, expect, test } from 'vitest';
import { renderAccountEmail, type AccountEmailInput } from './email-message.js';

const URL_WITH_TOKEN = 'https://app.example.com/auth/organizations/invitation?token=inv-1.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
const EXPIRES = new Date(Date.UTC(2026, 5, 8, 12, 0));

function input(invitation: AccountEmailInput['invitation'], overrides: Partial<AccountEmailInput> = {}): AccountEmailInput {
	return { kind: 'organization-invitation', url: URL_WITH_TOKEN, newEmail: 'bo@example.com', expires: EXPIRES, theme: {}, invitation, ...overrides };
}

describe('the invitation mail', () => {
	test('names the organization in the subject and says who invited, which role, and when the link expires', () => {
		const mail = renderAccountEmail(input({ organizationName: 'Acme', role: 'admin', inviterName: 'Ada' }));
		expect(mail.subject).toBe('Ada invited you to join Acme on app.example.com');
		expect(mail.text).toContain('Ada invited you to join Acme on app.example.com as admin.');
		expect(mail.text).toContain(URL_WITH_TOKEN);
		expect(mail.text).toContain('This invitation expires on June 8, 2026 at 12:00 PM UTC.');
		expect(mail.html).toContain('Accept the invitation');
		expect(mail.html).toContain(URL_WITH_TOKEN.replace('&', '&amp;'));
	});

	test('a server script\'s invitation names no inviter', () => {
		const mail = renderAccountEmail(input({ organizationName: 'Acme', role: 'member', inviterName: null }));
		expect(mail.subject).toBe('You are invited to join Acme on app.example.com');
		expect(mail.text).toContain('You were invited to join Acme on app.example.com as member.');
	});

	test('is written in French with locale fr', () => {
		const mail = renderAccountEmail(input({ organizationName: 'Acme', role: 'member', inviterName: 'Ada' }, { locale: 'fr' }));
		expect(mail.subject).toBe('Ada vous invite à rejoindre Acme sur app.example.com');
		expect(mail.text).toContain('Cette invitation expire le 8 juin 2026');
		expect(mail.html).toContain('lang="fr"');
	});

	test('an organization or inviter name with line breaks cannot add a header line to the subject', () => {
		const mail = renderAccountEmail(input({ organizationName: 'Acme\r\nBcc: victim@example.com', role: 'member', inviterName: 'Eve\nX-Evil: 1\u2028' }));
		expect(mail.subject).not.toMatch(/[\r\n\u2028\u2029]/);
		expect(mail.subject).toBe('Eve X-Evil: 1 invited you to join Acme Bcc: victim@example.com on app.example.com');
		expect(mail.text.split('\n').some((line) => line.startsWith('Bcc:'))).toBe(false);
	});

	test('an organization named <script> is text in the HTML part, not markup', () => {
		const mail = renderAccountEmail(input({ organizationName: '<script>alert(1)</script>', role: 'member', inviterName: '<img src=x onerror=alert(1)>' }));
		expect(mail.html).not.toContain('<script>alert(1)');
		expect(mail.html).not.toContain('<img src=x');
		expect(mail.html).toContain('&lt;script>alert(1)&lt;/script>');
	});
});
