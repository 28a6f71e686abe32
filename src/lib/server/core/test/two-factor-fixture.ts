// The world of the second-factor tests: the account fixture's providers plus a password sign-in
// for stored users, and helpers for the second step and an enrolment from the account routes.

import { expect } from 'vitest';
import Credentials from '../../providers/credentials.js';
import { totpCode, totpStep } from '../two-factor/totp.js';
import type { Adapter, AdapterUser } from '../types.js';
import { accountWorld, signInShortcuts } from './account-fixture.js';

export const PASSWORD = 'correct horse battery staple';

/** A world with the account fixture's providers plus a password sign-in for ada@example.com. */
export function twoFactorWorld(adapter: Adapter, strategy: 'jwt' | 'database') {
	const world = accountWorld(adapter, strategy);
	const store = adapter as Required<Adapter>;
	world.config.providers = [
		...world.config.providers,
		Credentials({
			credentials: { email: {}, password: { type: 'password' } },
			authorize: async (fields) => {
				if (fields.password !== PASSWORD) return null;
				const user = await store.getUserByEmail(String(fields.email));
				return user ? { id: user.id, email: user.email } : null;
			}
		})
	];
	world.config.events = { ...world.config.events, twoFactor: (message) => void world.events.push(['twoFactor', message as unknown as Record<string, unknown>]) };

	function browser(userAgent?: string) {
		const b = world.browser(userAgent);
		/** Posts the password form; answers the redirect. */
		async function signInWithPassword(email = 'ada@example.com'): Promise<Response> {
			const csrfToken = await b.client.csrfToken();
			return b.request('/auth/callback/credentials', { form: { csrfToken, email, password: PASSWORD, callbackUrl: '/dashboard' } });
		}
		/** Posts the second step's form. */
		async function secondStep(code: string, csrfToken?: string): Promise<Response> {
			return b.request('/auth/second-factor', { form: { csrfToken: csrfToken ?? (await b.client.csrfToken()), code } });
		}
		/** Posts the second step as JSON (a script caller): 200, 401 or 429 instead of a redirect. */
		async function secondStepJson(code: string): Promise<Response> {
			return b.request('/auth/second-factor', { json: { csrfToken: await b.client.csrfToken(), code } });
		}
		/** Enrols TOTP for the signed-in user; answers the secret and the recovery codes. */
		async function enrol(): Promise<{ secret: string; recoveryCodes: string[] }> {
			const started = await b.changeJson('two-factor-start');
			expect(started.status, 'two-factor-start').toBe(200);
			const { secret, pending } = (await started.json()) as { secret: string; pending: string };
			const confirmed = await b.changeJson('two-factor-confirm', { pending, code: totpCode(secret, totpStep(world.clock.now)) });
			expect(confirmed.status, 'two-factor-confirm').toBe(200);
			const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
			// JWT sessions issued up to the enrolment's second are revoked (other sessions end): sign-ins come after it
			world.clock.now += 1000;
			return { secret, recoveryCodes };
		}
		const pendingCookie = () => [...b.client.jar.keys()].find((name) => name.startsWith('kitgate.second-factor'));
		const sessionCookie = () => [...b.client.jar.keys()].find((name) => name.startsWith('kitgate.session-token'));
		return { ...b, signInWithPassword, secondStep, secondStepJson, enrol, pendingCookie, sessionCookie };
	}
	/** The current TOTP code of `secret`, `steps` time steps from now. */
	const code = (secret: string, steps = 0) => totpCode(secret, totpStep(world.clock.now) + steps);
	const userId = async () => ((await store.getUserByEmail('ada@example.com')) as AdapterUser).id;
	return { ...world, browser, ...signInShortcuts(browser), code, userId };
}

/** A second-factor world whose config has `twoFactor` (required, trusted browsers) set before its first request. */
export function policyWorld(adapter: Adapter, strategy: 'jwt' | 'database', twoFactor: { required?: boolean; trustBrowserDays?: number }) {
	const world = twoFactorWorld(adapter, strategy);
	world.config.twoFactor = twoFactor;
	return world;
}

type TwoFactorWorld = ReturnType<typeof twoFactorWorld>;
type TwoFactorBrowser = ReturnType<TwoFactorWorld['browser']>;

/** The key and the sealed value an enrolment page shows. */
export function enrolmentOf(html: string): { secret: string; pending: string } {
	const secret = /data-secret="([A-Z2-7]+)"/.exec(html)?.[1];
	const pending = /name="pending" value="([^"]+)"/.exec(html)?.[1];
	expect(secret, 'the key on the page').toBeDefined();
	expect(pending, 'the sealed value on the page').toBeDefined();
	return { secret: secret!, pending: pending! };
}

/** Ada with a second factor, set up from the account page in a browser of her own, `ago` ms ago (a minute unless told; the clock moves on by it). */
export async function adaWithSecondFactor(w: TwoFactorWorld, ago = 60_000) {
	const setup = await w.signedIn();
	const enrolled = await setup.enrol();
	w.clock.now += ago;
	return { setup, ...enrolled };
}

/** A password sign-in and its second step with "Trust this browser" ticked. */
export async function signInTrusting(w: TwoFactorWorld, b: TwoFactorBrowser, secret: string): Promise<Response> {
	const first = await b.signInWithPassword();
	expect(first.headers.get('location')).toBe('http://localhost:3000/auth/second-factor');
	const done = await b.request('/auth/second-factor', { form: { csrfToken: await b.client.csrfToken(), code: w.code(secret), trustBrowser: 'yes' } });
	expect(done.headers.get('location')).toBe('http://localhost:3000/dashboard');
	return done;
}

/** Signs the browser out and in again with the password: where the sign-in goes. */
export async function signInAgain(b: TwoFactorBrowser): Promise<string | null> {
	await b.signOut();
	return (await b.signInWithPassword()).headers.get('location');
}

/**
 * Ada with a second factor, back a day after she ticked "Trust this browser" in `ada`: signed in
 * again there with the password alone (the second step skipped, as trust allows). With both steps
 * just now a sensitive change would go through; this skipped one does not count.
 */
export async function adaBackOnATrustedBrowser(w: TwoFactorWorld) {
	const enrolled = await adaWithSecondFactor(w);
	const ada = w.browser();
	await signInTrusting(w, ada, enrolled.secret);
	w.clock.now += 24 * 60 * 60 * 1000;
	expect(await signInAgain(ada)).toBe('http://localhost:3000/dashboard');
	return { ...enrolled, ada };
}
