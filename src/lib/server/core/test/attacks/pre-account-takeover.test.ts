// Attacks: account linking after the linking policy (linking-policy.ts). Each test failed before its fix.
//
// Pre-account takeover through the credentials provider under database sessions. The attacker signs
// in (or up) with credentials whose user carries the victim's address; kitgate itself stores that
// user (`ensureStoredUser`: createUser with the address, emailVerified null) and links NO account
// to it. The policy treats an unverified holder without OAuth/passkey accounts as "a user the app
// stored (an invitation)", so when the victim later signs in with an email link for their own
// address, the link joins the attacker's user. The victim now works inside an account the attacker
// still opens with a password.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Credentials from '../../../providers/credentials.js';
import Email from '../../../providers/email.js';
import type { AuthConfig } from '../../types.js';
import { TEST_SECRET } from '../client.js';
import { Browser, INTEGRATIONS } from '../integrations.js';
import { attackWorld } from './flows.js';

const world = attackWorld();

function setup() {
	const adapter = MemoryAdapter();
	const links: string[] = [];
	const config: AuthConfig = {
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		session: { strategy: 'database' },
		rateLimit: false,
		logger: { error: () => {}, warn: () => {}, debug: () => {} },
		callbacks: { session: ({ session, user }) => ({ ...session, user: { ...session.user, id: user?.id } }) },
		providers: [
			Email({ sendVerificationRequest: ({ url }) => void links.push(url) }),
			// the app's sign-in (or sign-up) with a password: it returns its user, with the address the user typed
			Credentials({
				credentials: { username: {}, email: {}, password: { type: 'password' } },
				authorize: ({ username, email, password }) => (password === 'correct horse' ? { id: `cred-${String(username)}`, name: String(username), email: String(email) } : null)
			})
		]
	};
	return { adapter, links, config };
}

describe.each(INTEGRATIONS)('%s', (integration) => {
	test('an email link for my own address never joins a user someone else created with it through credentials', async () => {
		const app = world.apps[integration];
		const { adapter, links, config } = setup();
		app.use(config);

		// 1. the attacker signs up with a password, typing the victim's address
		const attacker = new Browser();
		let csrfToken = await attacker.csrfToken(app.origin);
		await attacker.request(`${app.origin}/auth/callback/credentials`, {
			form: { csrfToken, username: 'mallory', email: 'victim@example.com', password: 'correct horse' }
		});
		const stored = await adapter.getUserByEmail('victim@example.com');
		console.log(`[${integration}] user stored by the credentials sign-in: ${JSON.stringify(stored)}`);

		// 2. the victim signs in with an email link to their own address
		const victim = new Browser();
		csrfToken = await victim.csrfToken(app.origin);
		await victim.request(`${app.origin}/auth/signin/email`, { form: { csrfToken, email: 'victim@example.com' } });
		const link = new URL(links.at(-1)!);
		await victim.request(`${app.origin}/auth/callback/email`, {
			form: { csrfToken, token: link.searchParams.get('token')!, email: 'victim@example.com', callbackUrl: '/' }
		});
		const victimSession = (await victim.session(app.origin)) as { user?: { id?: string } } | null;

		// 3. the attacker signs in with the password again
		const again = new Browser();
		csrfToken = await again.csrfToken(app.origin);
		await again.request(`${app.origin}/auth/callback/credentials`, {
			form: { csrfToken, username: 'mallory', email: 'victim@example.com', password: 'correct horse' }
		});
		const attackerSession = (await again.session(app.origin)) as { user?: { id?: string } } | null;
		console.log(`[${integration}] victim's user after the email link: ${victimSession?.user?.id}; attacker's user: ${attackerSession?.user?.id}`);

		expect(victimSession?.user?.id, 'the victim is signed in').toBeDefined();
		expect(victimSession?.user?.id, 'the victim must not land in the account the attacker opens with a password').not.toBe(attackerSession?.user?.id);
	});
});
