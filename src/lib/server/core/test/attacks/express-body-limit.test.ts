// Attack 10: a body far over MAX_BODY_BYTES (50 MB) must be refused without being read: on the
// declared Content-Length before a byte is read, and for a chunked body as soon as the limit is
// passed. The Express server runs in a child process of its own, whose memory is measured; the
// SvelteKit app (adapter-node's own BODY_SIZE_LIMIT) must refuse the same posts with a 4xx.

import type { ChildProcess } from 'node:child_process';
import { request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Credentials from '../../../providers/credentials.js';
import { MAX_BODY_BYTES } from '../../request/body.js';
import { childProcessBundle, type ChildProcessBundle } from '../child-process-bundle.js';
import { TEST_SECRET } from '../client.js';
import { Browser } from '../integrations.js';
import { attackWorld } from './flows.js';

const HUGE = 50 * 1024 * 1024;
const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');
const FORM = 'application/x-www-form-urlencoded';

/** What the client saw of one huge post. */
interface HugePostAnswer {
	status: number;
	headers: IncomingHttpHeaders;
	body: string;
	/** Body bytes the client had handed to its socket when the answer arrived. */
	sentBeforeAnswer: number;
	/** The client's port: the server keeps per-connection figures by it. */
	port: number;
}

/**
 * Posts `total` bytes (a form field `a=aaaa…`) in 64 KB writes that respect back-pressure, and
 * stops sending once the answer arrives, as RFC 9112 asks of a client that sees an early answer.
 */
function postHuge(url: string, options: { total: number; chunked: boolean; headers?: Record<string, string> }): Promise<HugePostAnswer> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string> = { 'content-type': FORM, ...options.headers };
		if (!options.chunked) headers['content-length'] = String(options.total);
		const req = request(url, { method: 'POST', headers, agent: false });
		let sent = 0;
		let answered = false;
		const pump = () => {
			while (!answered && sent < options.total) {
				const size = Math.min(CHUNK.byteLength, options.total - sent);
				sent += size;
				if (!req.write(size === CHUNK.byteLength ? CHUNK : CHUNK.subarray(0, size))) return void req.once('drain', pump);
			}
			if (!answered) req.end();
		};
		req.on('response', (res) => {
			answered = true;
			const sentBeforeAnswer = sent;
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => {
				const body = Buffer.concat(chunks).toString('utf8');
				resolve({ status: res.statusCode ?? 0, headers: res.headers, body, sentBeforeAnswer, port: res.socket.localPort ?? 0 });
				req.destroy();
			});
			res.on('error', reject);
		});
		req.on('error', (error) => {
			if (!answered) reject(new Error(`no answer before the connection failed (${sent} bytes sent): ${error.message}`));
		});
		req.setTimeout(30_000, () => req.destroy(new Error('timed out')));
		req.flushHeaders();
		pump();
	});
}

describe('Express in a child process', () => {
	let child: ChildProcess | undefined;
	let origin: string;
	let bundle: ChildProcessBundle | undefined;

	beforeAll(async () => {
		bundle = await childProcessBundle(new URL('./express-body-limit-server.ts', import.meta.url), 'express-body-limit');
		const started = await bundle.start({ execArgv: ['--expose-gc'], env: { ...process.env, AUTH_SECRET: TEST_SECRET } });
		child = started.child;
		origin = `http://127.0.0.1:${(started.ready as { port: number }).port}`;
		// warm up every path the measured requests take
		await signIn();
		await postHuge(`${origin}/auth/callback/credentials`, { total: 2 * MB, chunked: true });
		await postHuge(`${origin}/auth/callback/credentials`, { total: 2 * MB, chunked: false });
	});
	afterAll(() => {
		child?.kill();
		bundle?.remove();
	});

	async function signIn(): Promise<Response> {
		const browser = new Browser();
		const csrfToken = await browser.csrfToken(origin);
		const response = await browser.request(`${origin}/auth/callback/credentials`, { form: { csrfToken, username: 'ada' } });
		expect(response.status).toBe(302);
		expect(browser.cookie(origin, 'kitgate.session-token')).toBeTruthy();
		return response;
	}

	/** Peak growth while a request ran, in bytes: of RSS, and of what the process held (heap + Buffers). */
	interface Measured {
		rss: number;
		held: number;
		/** Bytes the server read from the request's connection, once closed. */
		bytesRead: number;
	}

	/** Sends one huge post on a connection of its own and measures the server meanwhile. */
	async function measured(post: () => Promise<HugePostAnswer>): Promise<Measured & { answer: HugePostAnswer }> {
		await fetch(`${origin}/memory`).then((response) => response.arrayBuffer());
		const answer = await post();
		// the connection closes once the server is done with it (at most its 2 s linger)
		for (let attempt = 0; ; attempt++) {
			const peak = (await (await fetch(`${origin}/memory/peak?port=${answer.port}`)).json()) as { rss: number; held: number; bytesRead: number | null };
			if (peak.bytesRead !== null) return { rss: peak.rss, held: peak.held, bytesRead: peak.bytesRead, answer };
			if (attempt === 250) throw new Error(`the connection from port ${answer.port} did not close`);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	}

	const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

	test.each([
		['a declared Content-Length of 50 MB', false],
		['a chunked body of 50 MB', true]
	])('%s is answered 413 PayloadTooLarge without reading it; memory stays flat', async (_name, chunked) => {
		const { rss, held, bytesRead, answer } = await measured(() => postHuge(`${origin}/auth/callback/credentials`, { total: HUGE, chunked }));
		console.info(
			`express, ${chunked ? 'chunked' : 'Content-Length'}: peak growth RSS ${mb(rss)}, heap + Buffers ${mb(held)}; ` +
				`server read ${mb(bytesRead)}; client sent ${mb(answer.sentBeforeAnswer)} before the answer`
		);
		expect(answer.status).toBe(413);
		expect(answer.headers['content-type']).toMatch(/^application\/json/);
		expect(JSON.parse(answer.body)).toEqual({ error: 'PayloadTooLarge' });
		expect(answer.headers.connection).toBe('close');
		expect(answer.headers['set-cookie']).toBeUndefined();
		// answered long before the client could send it all, from what the server read off the wire
		expect(answer.sentBeforeAnswer).toBeLessThan(HUGE);
		// the limit, then at most 1 MB drained unstored while the client reads the answer
		expect(bytesRead).toBeLessThan(3 * MB);
		expect(rss).toBeLessThan(15 * MB);
		expect(held).toBeLessThan(15 * MB);
		// the server still answers
		await signIn();
	});

	test.each([
		['Content-Length', false],
		['chunked', true]
	])('fetch (undici), a client that keeps sending after the answer, reads the 413 too (%s)', async (_name, chunked) => {
		let sent = 0;
		// pulled on demand: the client never holds the 50 MB either
		const stream = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (sent >= HUGE) return controller.close();
				sent += CHUNK.byteLength;
				controller.enqueue(new Uint8Array(CHUNK));
			}
		});
		const headers: Record<string, string> = { 'content-type': FORM };
		if (!chunked) headers['content-length'] = String(HUGE);
		const response = await fetch(`${origin}/auth/callback/credentials`, { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit);
		expect(response.status).toBe(413);
		expect(await response.json()).toEqual({ error: 'PayloadTooLarge' });
		expect(sent).toBeLessThan(HUGE);
	});

	test('control: the same measurement sees an app that buffers the 50 MB', async () => {
		const { rss, held, answer } = await measured(() => postHuge(`${origin}/buffering`, { total: HUGE, chunked: true }));
		console.info(`control (buffering route): peak growth RSS ${mb(rss)}, heap + Buffers ${mb(held)}`);
		expect(JSON.parse(answer.body)).toEqual({ bytes: HUGE });
		// RSS may reuse memory freed earlier in the process; what it holds may not (sampled every 2 ms)
		expect(held).toBeGreaterThan(30 * MB);
	});

	test('a body just over the limit is refused the same way; one at the limit is read', async () => {
		const over = await postHuge(`${origin}/auth/callback/credentials`, { total: MAX_BODY_BYTES + 1, chunked: true });
		expect(over.status).toBe(413);
		expect(JSON.parse(over.body)).toEqual({ error: 'PayloadTooLarge' });
		const declared = await postHuge(`${origin}/auth/callback/credentials`, { total: MAX_BODY_BYTES + 1, chunked: false });
		expect(declared.status).toBe(413);
		// a body of exactly the limit reaches the engine (no CSRF token in it: the sign-in page says so)
		const atLimit = await postHuge(`${origin}/auth/callback/credentials`, { total: MAX_BODY_BYTES, chunked: false });
		expect(atLimit.status).toBe(302);
		expect(atLimit.headers.location).toContain('error=MissingCSRF');
	});
});

describe('SvelteKit (adapter-node)', () => {
	const world = attackWorld();
	beforeAll(async () => {
		world.apps.sveltekit.use({
			secret: TEST_SECRET,
			trustHost: true,
			logger: { error: () => {}, warn: () => {}, debug: () => {} },
			providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: '1', email: `${username}@example.com` }) })]
		});
	});

	test.each([
		['a declared Content-Length of 50 MB', false],
		['a chunked body of 50 MB', true]
	])('%s is refused as PayloadTooLarge, as on Express: the page route redirects to its error page (413), the JSON route answers 413', async (_name, chunked) => {
		const app = world.apps.sveltekit;
		const page = await postHuge(`${app.origin}/auth/callback/credentials`, { total: HUGE, chunked, headers: { origin: app.origin } });
		const json = await postHuge(`${app.origin}/auth/session`, { total: HUGE, chunked, headers: { origin: app.origin, 'content-type': 'application/json' } });
		console.info(`sveltekit, ${chunked ? 'chunked' : 'Content-Length'}: callback ${page.status} ${page.headers.location}; session route ${json.status} ${json.body}`);
		for (const answer of [page, json]) {
			expect(answer.sentBeforeAnswer).toBeLessThan(HUGE);
			expect((answer.headers['set-cookie'] ?? []).filter((line) => /session-token=[^;]/.test(line))).toEqual([]);
		}
		expect(page.status).toBe(302);
		const errorPage = new URL(page.headers.location as string, app.origin);
		expect(`${errorPage.pathname}${errorPage.search}`).toBe('/auth/error?error=PayloadTooLarge');
		expect((await fetch(errorPage)).status).toBe(413);
		expect(json.status).toBe(413);
		expect(JSON.parse(json.body)).toEqual({ error: 'PayloadTooLarge' });
		// and the app still signs in
		const browser = new Browser();
		const csrfToken = await browser.csrfToken(app.origin);
		await browser.request(`${app.origin}/auth/callback/credentials`, { form: { csrfToken, username: 'ada' } });
		expect((await browser.session(app.origin))?.user?.email).toBe('ada@example.com');
	});
});
