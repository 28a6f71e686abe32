// Attacks: login CSRF and logout CSRF through SvelteKit's `signIn` / `signOut` form
// actions. Since 24091fe the actions call signInFromForm / signOutFromForm with `csrfChecked: true`:
// the engine asks for no CSRF token and relies entirely on SvelteKit's origin check of form posts.
//
// HOLDS in a production build with SvelteKit's defaults (the harness app): every post a cross-site
// page can make (no Origin, a foreign Origin, multipart, SvelteKit's binary form type) is refused
// with 403 before the action runs, and non-form bodies (JSON) are refused with 415.
//
// BROKE (fixed: a post not shown to be same-origin now needs kitgate's token) when that check did not run: SvelteKit skips it under
// `vite dev`, for origins in `kit.csrf.trustedOrigins` (`['*']` is the documented replacement of
// the deprecated `checkOrigin: false`), and when `checkOrigin` is off. Apps end up there, e.g., to
// let an identity provider that answers with `response_mode=form_post` (Apple, providers.md) post
// to `/auth/callback/*`, which SvelteKit refuses with 403 otherwise. Then any page the victim
// opens signs the victim's browser into the attacker's account (login CSRF: what the victim then
// saves or types lands in the attacker's account) or signs the victim out. Those tests call the
// real actions with the RequestEvent SvelteKit hands them once its check is off (the harness app
// cannot be rebuilt with another svelte.config.js), a same-origin control first.

import type { RequestEvent } from '@sveltejs/kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Email from '../../../providers/email.js';
import { SvelteKitAuth } from '../../../sveltekit/index.js';
import type { AuthConfig } from '../../types.js';
import { Browser, startApp, type AppServer } from '../integrations.js';
import { attackConfig, rightPasswordCredentials } from './flows.js';

const EVIL = 'https://evil.example';
const mail: string[] = [];

function config(): AuthConfig {
	return attackConfig(MemoryAdapter(), 'jwt', {
		providers: [
			rightPasswordCredentials(),
			Email({ sendVerificationRequest: ({ identifier }) => void mail.push(identifier) })
		]
	});
}

let app: AppServer;
beforeAll(async () => {
	app = await startApp('sveltekit');
});
afterAll(() => app?.close());

const sessionCookie = (line: string) => /^kitgate\.session-token(\.\d+)?=/.test(line);

describe('SvelteKit\'s origin check in front of the actions (production build, default settings)', () => {
	test('cross-site posts of every form type, and posts without an Origin, never reach the actions', async () => {
		app.use(config());
		mail.length = 0;
		const login = { providerId: 'credentials', username: 'mallory', password: 'right' };
		const urlencoded = new URLSearchParams(login).toString();
		const multipart = new FormData();
		for (const [name, value] of Object.entries(login)) multipart.append(name, value);
		const attempts: { label: string; origin?: string; type?: string; body: BodyInit }[] = [
			{ label: 'no Origin header', type: 'application/x-www-form-urlencoded', body: urlencoded },
			{ label: 'foreign Origin, urlencoded', origin: EVIL, type: 'application/x-www-form-urlencoded', body: urlencoded },
			{ label: 'foreign Origin, multipart', origin: EVIL, body: multipart },
			{ label: 'foreign Origin, text/plain', origin: EVIL, type: 'text/plain', body: urlencoded },
			{ label: 'foreign Origin, SvelteKit\'s binary form type', origin: EVIL, type: 'application/x-sveltekit-formdata', body: urlencoded },
			{ label: 'foreign Origin, upper-case type', origin: EVIL, type: 'APPLICATION/X-WWW-FORM-URLENCODED; charset=utf-8', body: urlencoded },
			{ label: 'sibling-looking Origin', origin: `${app.origin}.evil.example`, type: 'application/x-www-form-urlencoded', body: urlencoded }
		];
		for (const path of ['/signin', '/signout']) {
			for (const attempt of attempts) {
				const headers: Record<string, string> = { accept: 'text/html', 'sec-fetch-site': 'cross-site' };
				if (attempt.origin) headers.origin = attempt.origin;
				if (attempt.type) headers['content-type'] = attempt.type;
				const answer = await fetch(`${app.origin}${path}`, { method: 'POST', redirect: 'manual', headers, body: attempt.body });
				expect(answer.status, `${path}: ${attempt.label}`).toBe(403);
				expect(answer.headers.getSetCookie(), `${path}: ${attempt.label}`).toEqual([]);
			}
		}
		// the email provider through the action: no link is sent for a cross-site post either
		const email = await new Browser().request(`${app.origin}/signin`, { form: { providerId: 'email', email: 'mallory@evil.example' }, origin: EVIL });
		expect(email.status).toBe(403);
		expect(mail).toEqual([]);
	});

	test('a JSON body (the script callers of the failure table) is refused by the action itself with 415, same-site or not', async () => {
		app.use(config());
		for (const origin of [undefined, EVIL]) {
			const browser = new Browser();
			const answer = await browser.request(`${app.origin}/signin`, {
				json: { providerId: 'credentials', username: 'mallory', password: 'right' },
				origin,
				headers: { accept: 'application/json' }
			});
			expect(answer.status).toBe(415);
			expect(answer.headers.getSetCookie().filter(sessionCookie)).toEqual([]);
			expect(await browser.session(app.origin)).toBeNull();
		}
	});

	test('a same-origin text/plain post is read as no form at all: the sign-in page, no session', async () => {
		app.use(config());
		const answer = await fetch(`${app.origin}/signin`, {
			method: 'POST',
			redirect: 'manual',
			headers: { origin: app.origin, 'content-type': 'text/plain', accept: 'text/html' },
			body: 'providerId=credentials&username=mallory&password=right'
		});
		expect(answer.status).toBe(303);
		expect(new URL(answer.headers.get('location') as string).pathname).toBe('/auth/signin');
		expect(answer.headers.getSetCookie().filter(sessionCookie)).toEqual([]);
	});
});

/** The RequestEvent SvelteKit hands an action (the parts kitgate reads); cookies set are recorded. */
function actionEvent(origin: string, path: string, fields: Record<string, string>, headers: Record<string, string>, cookie?: string) {
	const request = new Request(`${origin}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), ...headers },
		body: new URLSearchParams(fields)
	});
	const set: { name: string; value: string }[] = [];
	const event = {
		request,
		url: new URL(request.url),
		locals: {},
		getClientAddress: () => '203.0.113.9',
		cookies: { set: (name: string, value: string) => void set.push({ name, value }) }
	} as unknown as RequestEvent;
	return { event, set };
}

/** Runs an action; returns what it threw (SvelteKit's redirect or error). */
async function act(action: (event: RequestEvent) => unknown, event: RequestEvent): Promise<unknown> {
	try {
		await action(event);
	} catch (thrown) {
		return thrown;
	}
	return undefined;
}

describe('when SvelteKit\'s origin check did not run (vite dev, trustedOrigins, checkOrigin: false)', () => {
	const APP = 'https://app.example';
	const sameSite = { origin: APP, 'sec-fetch-site': 'same-origin' };
	const crossSite = { origin: EVIL, 'sec-fetch-site': 'cross-site' };
	const mallory = { providerId: 'credentials', username: 'mallory', password: 'right' };

	test('login CSRF: a cross-site post to the signIn action starts no session', async () => {
		const { signIn } = SvelteKitAuth({ ...config(), basePath: '/auth' });
		// control: the same post from the app's own page signs in
		const own = actionEvent(APP, '/signin', mallory, sameSite);
		expect(await act(signIn, own.event)).toMatchObject({ status: 303, location: `${APP}/` });
		expect(own.set.filter((c) => c.name.endsWith('kitgate.session-token') && c.value)).toHaveLength(1);

		// the attacker's page posts the attacker's own credentials from the victim's browser
		const forged = actionEvent(APP, '/signin', mallory, crossSite);
		await act(signIn, forged.event);
		expect(
			forged.set.filter((c) => c.name.endsWith('kitgate.session-token') && c.value),
			'a cross-site post (Origin and Sec-Fetch-Site say so) signed the victim\'s browser into the attacker\'s account'
		).toEqual([]);
	});

	test('logout CSRF: a cross-site post to the signOut action leaves the session alone', async () => {
		const { signIn, signOut } = SvelteKitAuth({ ...config(), basePath: '/auth' });
		const own = actionEvent(APP, '/signin', { providerId: 'credentials', username: 'ada', password: 'right' }, sameSite);
		await act(signIn, own.event);
		const session = own.set.find((c) => c.name.endsWith('kitgate.session-token') && c.value);
		expect(session).toBeDefined();
		const cookie = `${session!.name}=${session!.value}`;

		// control: the app's own sign-out form clears the session cookie
		const mine = actionEvent(APP, '/signout', {}, sameSite, cookie);
		await act(signOut, mine.event);
		expect(mine.set.filter((c) => c.name === session!.name && c.value === '')).toHaveLength(1);

		const forged = actionEvent(APP, '/signout', { callbackUrl: '/' }, crossSite, cookie);
		await act(signOut, forged.event);
		expect(
			forged.set.filter((c) => c.name === session!.name && c.value === ''),
			'a cross-site post signed the victim out'
		).toEqual([]);
	});
});
