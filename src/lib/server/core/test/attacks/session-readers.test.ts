// Attacks: the one session read (readSession, core/session-check.ts) behind GET and POST
// {basePath}/session, Express's getSession and SvelteKit's locals.auth(). Each attack goes to all
// four readers on both integrations, with JWT and database sessions.
//
// HOLDS: tampered, truncated, re-ordered, gapped, oversized, foreign-secret and non-ASCII session
// cookies (plain and chunked) read as no session, never a 5xx, and the only cookies set are
// removals; a session callback that throws is 503 { error: "Configuration" } on the session route
// and no session on pages, with no cookie at all (not the re-issued token either); an update with
// hostile `data` under the default callbacks changes nobody's identity and pollutes no prototype.

import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import Credentials from '../../../providers/credentials.js';
import type { Adapter, AuthConfig } from '../../types.js';
import { TEST_SECRET } from '../client.js';
import { Browser, INTEGRATIONS, type AppServer } from '../integrations.js';
import { attackConfig, attackWorld, STRATEGIES, type Strategy } from './flows.js';

const world = attackWorld();

const SESSION = 'kitgate.session-token';

function config(strategy: Strategy, adapter: Adapter, overrides: Partial<AuthConfig> = {}): AuthConfig {
	const base = attackConfig(adapter, strategy, {
		session: { strategy, updateAge: 0 },
		providers: [
			Credentials({
				minFailureMs: 0,
				credentials: { username: {} },
				authorize: ({ username }) => ({ id: `u-${String(username)}`, name: String(username), email: `${String(username)}@example.com` })
			})
		]
	});
	return {
		...base,
		...overrides,
		callbacks: {
			...base.callbacks,
			// user "big" gets a token that needs two cookies (chunks)
			jwt: ({ token, user }) => (user?.name === 'big' ? { ...token, pad: 'p'.repeat(6000) } : token),
			...overrides.callbacks
		}
	};
}

/** Signs `username` in through the route; returns the browser and its session cookies (name → value). */
async function signIn(app: AppServer, username: string): Promise<{ browser: Browser; cookies: Map<string, string> }> {
	const browser = new Browser();
	const csrfToken = await browser.csrfToken(app.origin);
	const answer = await browser.request(`${app.origin}/auth/callback/credentials`, { form: { csrfToken, username } });
	expect(answer.status).toBe(302);
	expect((await browser.session(app.origin))?.user?.email).toBe(`${username}@example.com`);
	const jar = browser.jar.get(new URL(app.origin).host) ?? new Map<string, string>();
	return { browser, cookies: new Map([...jar].filter(([name]) => name.startsWith(SESSION))) };
}

interface Read {
	reader: string;
	status: number;
	session: unknown;
	setCookies: string[];
}

/** The four readers, each sent `cookie` (plus a CSRF pair for the update). */
async function readAll(app: AppServer, cookie: string): Promise<Read[]> {
	const csrfBrowser = new Browser();
	const csrfToken = await csrfBrowser.csrfToken(app.origin);
	const csrfCookie = `kitgate.csrf-token=${csrfBrowser.cookie(app.origin, 'kitgate.csrf-token')}`;
	const headers = { cookie: [cookie, csrfCookie].filter(Boolean).join('; ') };
	const reads: Read[] = [];
	const get = await fetch(`${app.origin}/auth/session`, { headers });
	reads.push({ reader: 'GET /session', status: get.status, session: await get.json(), setCookies: get.headers.getSetCookie() });
	const post = await fetch(`${app.origin}/auth/session`, {
		method: 'POST',
		headers: { ...headers, origin: app.origin, 'content-type': 'application/json' },
		body: JSON.stringify({ csrfToken, data: { name: 'updated' } })
	});
	reads.push({ reader: 'POST /session', status: post.status, session: await post.json(), setCookies: post.headers.getSetCookie() });
	const page = await fetch(`${app.origin}/`, { headers });
	const pageBody = (await page.json()) as { session: unknown };
	reads.push({ reader: `${app.integration} page`, status: page.status, session: pageBody.session, setCookies: page.headers.getSetCookie() });
	return reads;
}

const isRemoval = (line: string) => /^[^=]+=;/.test(line) && /max-age=0/i.test(line);

describe.each(INTEGRATIONS)('%s', (integration) => {
	const app = (): AppServer => world.apps[integration];

	describe.each(STRATEGIES)('%s sessions', (strategy) => {
		test('tampered, re-ordered, gapped, foreign and malformed session cookies: no session, no 5xx, nothing set but removals', async () => {
			const adapter = MemoryAdapter();
			app().use(config(strategy, adapter));
			const { cookies: small } = await signIn(app(), 'ada');
			const token = small.get(SESSION) as string;
			const forged: Record<string, string> = {
				'one character changed': `${SESSION}=${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`,
				truncated: `${SESSION}=${token.slice(0, -5)}`,
				'non-ASCII': `${SESSION}=${encodeURIComponent(`${token.slice(0, 10)}é`)}`,
				'a NUL byte': `${SESSION}=%00${token}`,
				'600 characters': `${SESSION}=${'a'.repeat(600)}`,
				empty: `${SESSION}=`,
				'a lone chunk 1': `${SESSION}.1=${token}`,
				'eleven chunks': Array.from({ length: 11 }, (_, i) => `${SESSION}.${i}=${token.slice(i * 4, i * 4 + 4)}`).join('; ')
			};
			// a session issued under another secret (another deployment, or a rotated-out secret)
			const other = world.apps[integration === 'express' ? 'sveltekit' : 'express'];
			other.use({ ...config(strategy, MemoryAdapter()), secret: `${TEST_SECRET}-another-deployment` });
			forged['another secret'] = `${SESSION}=${(await signIn(other, 'ada')).cookies.get(SESSION)}`;
			if (strategy === 'jwt') {
				const { cookies: jar } = await signIn(app(), 'big');
				const chunks = Array.from({ length: jar.size }, (_, i) => jar.get(`${SESSION}.${i}`) as string);
				expect(chunks.length, 'the "big" session is chunked').toBeGreaterThanOrEqual(2);
				expect(chunks.every(Boolean)).toBe(true);
				const header = (values: (string | undefined)[]) =>
					values.map((value, i) => (value === undefined ? '' : `${SESSION}.${i}=${value}`)).filter(Boolean).join('; ');
				forged['chunks swapped'] = header([chunks[1], chunks[0], ...chunks.slice(2)]);
				forged['chunk gap'] = header([chunks[0], undefined, ...chunks.slice(2), chunks[1]]);
				forged['last chunk missing'] = header(chunks.slice(0, -1));
				forged['a chunk too many'] = header([...chunks, chunks[0]]);
				forged['a chunk from another session'] = header([token, ...chunks.slice(1)]);
				forged['a plain cookie beside the chunks'] = `${header(chunks)}; ${SESSION}=${token.slice(0, -5)}`;
				// the control: the untouched chunks do read as a session
				const intact = await readAll(app(), header(chunks));
				expect((intact[0].session as { user?: { name?: string } } | null)?.user?.name).toBe('big');
			}
			for (const [label, cookie] of Object.entries(forged)) {
				for (const read of await readAll(app(), cookie)) {
					const what = `${label} → ${read.reader}`;
					expect(read.status, what).toBeLessThan(500);
					expect(read.session, what).toBeNull();
					expect(read.setCookies.filter((line) => line.startsWith(SESSION) && !isRemoval(line)), what).toEqual([]);
				}
			}
		});

		test('a session callback that throws: 503 { error: "Configuration" } on the session route, no session on pages, no cookie at all', async () => {
			const adapter = MemoryAdapter();
			let broken = false;
			const boom = () => {
				throw new Error('the profile service is down');
			};
			app().use(
				config(strategy, adapter, {
					callbacks: { session: ({ session }) => (broken ? boom() : session) }
				})
			);
			const { cookies } = await signIn(app(), 'ada');
			const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
			broken = true;
			// updateAge 0: every read would re-issue the session; none may reach the browser
			for (const read of await readAll(app(), cookie)) {
				if (read.reader.endsWith('page')) {
					expect(read.status, read.reader).toBe(200);
					expect(read.session, read.reader).toBeNull();
				} else {
					expect(read.status, read.reader).toBe(503);
					expect(read.session, read.reader).toEqual({ error: 'Configuration' });
				}
				expect(read.setCookies.filter((line) => !line.startsWith('kitgate.csrf-token=')), read.reader).toEqual([]);
			}
			broken = false;
			expect((await readAll(app(), cookie))[0].session).toMatchObject({ user: { email: 'ada@example.com' } });
		});

		test('an update with hostile data, default jwt callback: nobody\'s identity changes, no prototype is polluted, no 5xx', async () => {
			app().use(config(strategy, MemoryAdapter(), { callbacks: { jwt: undefined } }));
			const { browser } = await signIn(app(), 'ada');
			const hostile = [
				'{"sub":"u-mallory","email":"mallory@example.com","name":"mallory"}',
				'{"user":{"id":"u-mallory","email":"mallory@example.com"}}',
				'{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
				'"a string"',
				'[1,2,3]',
				'null',
				`{"pad":"${'x'.repeat(60_000)}"}`
			];
			for (const data of hostile) {
				const csrfToken = await browser.csrfToken(app().origin);
				const answer = await browser.request(`${app().origin}/auth/session`, { json: JSON.parse(`{"csrfToken":"${csrfToken}","data":${data}}`) });
				expect(answer.status, data.slice(0, 40)).toBe(200);
				const session = (await answer.json()) as { user?: { id?: string; email?: string } };
				expect(session.user, data.slice(0, 40)).toMatchObject({ id: 'u-ada', email: 'ada@example.com' });
			}
			expect(({} as Record<string, unknown>).polluted).toBeUndefined();
			expect(await browser.session(app().origin)).toMatchObject({ user: { id: 'u-ada', email: 'ada@example.com' } });
		});
	});
});
