// Email-change links as an attacker uses them, over HTTP through both integrations, on memory,
// SQLite, PostgreSQL and the Auth.js table presets, under both session strategies: a sign-in link
// asked for an "address" shaped like a change link's identifier, a change link spent on the
// sign-in route, and change links that outlive a later change of the address or a credential.

import { beforeAll, describe, expect, test } from 'vitest';
import { everyAdapter } from '../../../adapters/test/every-adapter.js';
import { credentialChanged } from '../../account/credential-change.js';
import type { Adapter, AuthConfig } from '../../types.js';
import { confirmationForm, sinkProvider } from '../email-fixtures.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { address, attackConfig, attackWorld, errorOf, requestLink, sessionOf, signInByEmail, STRATEGIES } from './flows.js';

const world = attackWorld({ sink: true });

const adapters = everyAdapter('email-change-links', { authjsTables: 'all' });

/** The `normalizeIdentifier` of Auth.js's email docs, kept by apps moving from Auth.js: it checks no grammar. */
function authjsDocsNormalizer(identifier: string): string {
	const [local, domain = ''] = identifier.toLowerCase().trim().split('@');
	return `${local}@${domain.split(',')[0]}`;
}

function linkConfig(adapter: Adapter, strategy: 'jwt' | 'database'): AuthConfig {
	return attackConfig(adapter, strategy, { providers: [sinkProvider(world.sink, { normalizeIdentifier: authjsDocsNormalizer })] });
}

async function post(browser: Browser, app: AppServer, operation: string, fields: Record<string, string>): Promise<Response> {
	const csrfToken = await browser.csrfToken(app.origin);
	return browser.request(`${app.origin}/auth/account/${operation}`, { form: { callbackUrl: '/settings', ...fields, csrfToken } });
}

function query(response: Response): URLSearchParams {
	const location = response.headers.get('location');
	return location ? new URL(location, 'http://x').searchParams : new URLSearchParams();
}

/** Opens a link in `browser` and presses the page's button; the answer of that POST. */
async function confirmIn(browser: Browser, link: string): Promise<Response> {
	const page = await browser.request(link);
	if (page.status !== 200) return page;
	const form = confirmationForm(await page.text());
	return browser.request(form.action, { form: form.fields });
}

/** Every link of the newest mail to `to` that contains `path`. */
function linksTo(to: string, path: string): string[] {
	return world.sink
		.messages()
		.filter((m) => m.envelope.to.includes(to))
		.flatMap((m) => m.links)
		.filter((link) => link.includes(path));
}

describe.each(INTEGRATIONS)('%s', (integration) => {
	describe.each(adapters)('%s adapter', (_adapterName, makeAdapter) => {
		describe.each(STRATEGIES)('%s sessions', (strategy) => {
			let adapter: Required<Adapter>;
			const app = () => world.apps[integration];
			beforeAll(() => {
				adapter = makeAdapter();
			});

			async function signedIn(name: string) {
				const email = address(name);
				const browser = new Browser();
				await signInByEmail(browser, app(), world.sink, email);
				return { browser, email, user: (await adapter.getUserByEmail(email))! };
			}

			async function requestChange(browser: Browser, to: string): Promise<string> {
				world.sink.clear();
				expect(query(await post(browser, app(), 'change-email', { email: to })).get('account')).toBe('email-change-requested');
				const [link] = linksTo(to, '/auth/account/confirm-email');
				expect(link, `a change link to ${to}`).toBeDefined();
				return link!;
			}

			/** Ada signed in on the link config, with a change link to a first new address, then one to a second. */
			async function adaWithTwoChangeLinks() {
				app().use(linkConfig(adapter, strategy));
				const ada = await signedIn('ada');
				const firstLink = await requestChange(ada.browser, address('first'));
				const second = address('second');
				const secondLink = await requestChange(ada.browser, second);
				return { ada, second, firstLink, secondLink };
			}

			test('a sign-in link asked for an address shaped like a change identifier is refused and never changes an address', async () => {
				app().use(linkConfig(adapter, strategy));
				const victim = await signedIn('victim');
				const attackerAddress = address('attacker', 'evil.test');
				const shaped = `kitgate:email-change:${victim.user.id}:${attackerAddress}`;
				world.sink.clear();
				const attacker = new Browser();
				const asked = await requestLink(attacker, app(), shaped);
				// the attacker may get a sign-in token for that "address"; sent to the victim's confirm page, it must do nothing
				const mailed = world.sink.messages().flatMap((m) => m.links).find((link) => link.includes('/auth/callback/email'));
				if (mailed) {
					const token = new URL(mailed).searchParams.get('token')!;
					const forged = `${app().origin}/auth/account/confirm-email?token=${token}&email=${encodeURIComponent(attackerAddress)}&callbackUrl=%2F`;
					await confirmIn(victim.browser, forged);
				}
				expect((await adapter.getUser(victim.user.id))?.email).toBe(victim.email);
				expect(await adapter.getUserByEmail(attackerAddress)).toBeNull();
				expect(mailed, 'no mail goes to an identifier that is not an address').toBeUndefined();
				expect(errorOf(asked)).toBe('EmailSignin');
			});

			test('a change link posted to the email sign-in callback signs nobody in and stays usable by its owner', async () => {
				app().use(linkConfig(adapter, strategy));
				const ada = await signedIn('ada');
				const newEmail = address('ada-new');
				const link = new URL(await requestChange(ada.browser, newEmail));
				const token = link.searchParams.get('token')!;
				const thief = new Browser();
				const csrfToken = await thief.csrfToken(app().origin);
				for (const email of [`kitgate:email-change:${ada.user.id}:${newEmail}`, newEmail]) {
					const spent = await thief.request(`${app().origin}/auth/callback/email`, { form: { csrfToken, token, email, callbackUrl: '/' } });
					expect(spent.status).toBeGreaterThanOrEqual(300);
					expect(await sessionOf(thief, app())).toBeNull();
				}
				expect(await adapter.getUserByEmail(`kitgate:email-change:${ada.user.id}:${newEmail}`)).toBeNull();
				expect(query(await confirmIn(ada.browser, link.href)).get('account')).toBe('email-changed');
				expect((await adapter.getUser(ada.user.id))?.email).toBe(newEmail);
			});

			test('a change link ends when a later change is confirmed', async () => {
				const { ada, second, firstLink, secondLink } = await adaWithTwoChangeLinks();
				expect(query(await confirmIn(ada.browser, secondLink)).get('account')).toBe('email-changed');
				expect(query(await confirmIn(ada.browser, firstLink)).get('accountError')).toBe('Verification');
				expect((await adapter.getUser(ada.user.id))?.email).toBe(second);
			});

			test('asking for a new change link ends the one before; the new one works', async () => {
				const { ada, second, firstLink, secondLink } = await adaWithTwoChangeLinks();
				expect(query(await confirmIn(ada.browser, firstLink)).get('accountError')).toBe('Verification');
				expect((await adapter.getUser(ada.user.id))?.email).toBe(ada.email);
				expect(query(await confirmIn(ada.browser, secondLink)).get('account')).toBe('email-changed');
				expect((await adapter.getUser(ada.user.id))?.email).toBe(second);
			});

			test('a change link ends when the address is changed another way', async () => {
				app().use(linkConfig(adapter, strategy));
				const ada = await signedIn('ada');
				const link = await requestChange(ada.browser, address('asked'));
				const bySupport = address('by-support');
				await adapter.updateUser({ id: ada.user.id, email: bySupport });
				expect(query(await confirmIn(ada.browser, link)).get('accountError')).toBe('Verification');
				expect((await adapter.getUser(ada.user.id))?.email).toBe(bySupport);
			});

			test('a change link ends on a credential change, even one that keeps the sessions', async () => {
				const config = linkConfig(adapter, strategy);
				app().use(config);
				const ada = await signedIn('ada');
				const link = await requestChange(ada.browser, address('asked'));
				await credentialChanged(ada.user.id, config, { request: app().origin, endSessions: false });
				expect(query(await confirmIn(ada.browser, link)).get('accountError')).toBe('Verification');
				expect((await adapter.getUser(ada.user.id))?.email).toBe(ada.email);
			});
		});
	});
});
