// UserButton on an impersonated session: the menu says who is signed in as whom, leaves out the
// account link (changes are refused while impersonating), and its sign-out button is named for what
// it does there — stopping the impersonation. Hostile names stay text.

import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import type { Session } from '../server/core/types.js';
import UserButton from './UserButton.svelte';

const user = { name: 'Ada', email: 'ada@example.com', image: null };
const admin = { id: 'admin-1', name: 'Grace <b>Admin</b>', email: 'grace@example.com' };
const impersonated: Session = { user, expires: '2100-01-01T00:00:00.000Z', impersonation: { admin, expires: '2100-01-01T00:00:00.000Z' } };

describe('UserButton while impersonating', () => {
	test('shows "Signed in as <user> by <admin>" and a Stop button, no account link', () => {
		const body = render(UserButton, { props: { session: impersonated, open: true, accountHref: '/auth/account' } }).body;
		expect(body).toContain('Signed in as Ada by Grace &lt;b>Admin&lt;/b>');
		expect(body).not.toContain('<b>Admin');
		expect(body).toContain('Stop impersonating');
		expect(body).not.toContain('href="/auth/account"');
	});

	test('in French', async () => {
		const { fr } = await import('../messages/fr.js');
		const body = render(UserButton, { props: { session: impersonated, open: true, messages: fr } }).body;
		expect(body).toContain('Connecté en tant que Ada par Grace');
		expect(body).toContain('Arrêter l’usurpation');
	});

	test('a session that is not impersonated shows neither', () => {
		const plain: Session = { user, expires: impersonated.expires };
		const body = render(UserButton, { props: { session: plain, open: true, accountHref: '/auth/account' } }).body;
		expect(body).not.toContain('Signed in as');
		expect(body).not.toContain('Stop impersonating');
		expect(body).toContain('href="/auth/account"');
	});
});
