// checkPassword's opt-in breach check against a local imitation of the Pwned Passwords range API
// on 127.0.0.1 (integration project: it listens on a socket). No request leaves the machine.

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { checkPassword } from '../passwords/password-policy.js';

/** Passwords the imitation knows as breached, with their counts. */
const BREACHED: Record<string, number> = { 'correct horse battery staple': 371, 'zebra-Piano-7-quietly': 2 };
/** Listed only as padding (count 0): not breached. */
const PADDED_ONLY = 'a padded-only passphrase 93';
const FRESH = 'a passphrase nobody has used 5531';

const sha1 = (value: string) => createHash('sha1').update(value, 'utf8').digest('hex').toUpperCase();

type Mode = 'range' | 'status-503' | 'hang' | 'html' | 'redirect';
let mode: Mode = 'range';
let requests: { url: string; headers: IncomingMessage['headers'] }[] = [];
let server: Server;
let base: string;

/** The imitation: GET /range/<5 hex> answers every known suffix under that prefix plus padding lines. */
function answer(prefix: string): string {
	const lines = Object.entries(BREACHED)
		.map(([password, count]) => [sha1(password), count] as const)
		.concat([[sha1(PADDED_ONLY), 0]])
		.filter(([hash]) => hash.startsWith(prefix))
		.map(([hash, count]) => `${hash.slice(5)}:${count}`);
	// other suffixes under the prefix, and padding, as the real service sends
	for (let i = 0; i < 40; i++) lines.push(`${sha1(`${prefix}-${i}`).slice(5)}:${i % 3 === 0 ? 0 : i}`);
	return lines.join('\r\n');
}

beforeAll(async () => {
	server = createServer((request, response) => {
		requests.push({ url: request.url ?? '', headers: request.headers });
		const prefix = /^\/range\/([0-9A-F]{5})$/.exec(request.url ?? '')?.[1];
		if (mode === 'hang') return; // never answers
		if (mode === 'status-503') return void response.writeHead(503).end('busy');
		if (mode === 'html') return void response.writeHead(200, { 'content-type': 'text/html' }).end('<html>login to the captive portal</html>');
		if (mode === 'redirect') return void response.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
		if (!prefix) return void response.writeHead(400).end();
		response.writeHead(200, { 'content-type': 'text/plain' }).end(answer(prefix));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/range/`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
	mode = 'range';
	requests = [];
});

/** A logger that keeps warnings instead of printing them. */
function recordingLogger() {
	const warnings: unknown[][] = [];
	return { warnings, logger: { warn: (...args: unknown[]) => void warnings.push(args) } };
}

describe('checkPassword with pwnedPasswords (a local imitation of the range API)', () => {
	test('a password found in a breach is refused as breached', async () => {
		const { logger, warnings } = recordingLogger();
		expect(await checkPassword('correct horse battery staple', { pwnedPasswords: { url: base }, logger })).toEqual({
			ok: false,
			reasons: ['breached'],
			length: 28,
			breachCheck: 'breached'
		});
		expect(warnings).toEqual([]);
	});

	test('only the first 5 hex characters of the SHA-1 are sent, with the Add-Padding header', async () => {
		const password = 'zebra-Piano-7-quietly';
		await checkPassword(password, { pwnedPasswords: { url: base } });
		expect(requests).toHaveLength(1);
		const [{ url, headers }] = requests;
		expect(url).toBe(`/range/${sha1(password).slice(0, 5)}`);
		expect(headers['add-padding']).toBe('true');
		const sent = JSON.stringify(requests);
		expect(sent).not.toContain(sha1(password).slice(5, 15));
		expect(sent.toLowerCase()).not.toContain('piano');
	});

	test('a password absent from the range, or present only as padding (count 0), passes', async () => {
		expect(await checkPassword(FRESH, { pwnedPasswords: { url: base } })).toMatchObject({ ok: true, reasons: [], breachCheck: 'passed' });
		expect(await checkPassword(PADDED_ONLY, { pwnedPasswords: { url: base } })).toMatchObject({ ok: true, breachCheck: 'passed' });
	});

	test('a password whose NFKC form differs is looked up in both forms', async () => {
		// U+FF5A is a full-width "z": NFKC turns the typed password into a breached one
		const typed = '\uFF5Aebra-Piano-7-quietly';
		expect(await checkPassword(typed, { pwnedPasswords: { url: base } })).toMatchObject({ ok: false, reasons: ['breached'] });
		expect(requests.map((request) => request.url).sort()).toEqual([`/range/${sha1(typed).slice(0, 5)}`, `/range/${sha1('zebra-Piano-7-quietly').slice(0, 5)}`].sort());
	});

	test('the breach check fails open with a logged warning when the service answers an error, garbage or a redirect', async () => {
		for (const failing of ['status-503', 'html', 'redirect'] as const) {
			mode = failing;
			const { logger, warnings } = recordingLogger();
			expect(await checkPassword('correct horse battery staple', { pwnedPasswords: { url: base }, logger }), failing).toMatchObject({
				ok: true,
				reasons: [],
				breachCheck: 'unavailable'
			});
			expect(warnings).toHaveLength(1);
			expect(warnings[0][0]).toBe('pwned-passwords-unavailable');
			expect(String(warnings[0][1])).not.toContain('correct horse');
		}
	});

	test('the breach check fails open when the service does not answer in time or cannot be reached', async () => {
		mode = 'hang';
		const { logger, warnings } = recordingLogger();
		const started = Date.now();
		expect(await checkPassword('correct horse battery staple', { pwnedPasswords: { url: base, timeoutMs: 300 }, logger })).toMatchObject({ ok: true, breachCheck: 'unavailable' });
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(String(warnings[0][1])).toContain('no answer within 300 ms');

		// a closed port on loopback
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));
		const refused = recordingLogger();
		expect(await checkPassword('correct horse battery staple', { pwnedPasswords: { url: `http://127.0.0.1:${port}/range/` }, logger: refused.logger })).toMatchObject({
			ok: true,
			breachCheck: 'unavailable'
		});
		expect(refused.warnings[0][0]).toBe('pwned-passwords-unavailable');
	});

	test('off by default, and never asked about a password refused offline', async () => {
		expect((await checkPassword('correct horse battery staple')).breachCheck).toBe('off');
		expect((await checkPassword('password1', { pwnedPasswords: { url: base } })).breachCheck).toBe('skipped');
		expect((await checkPassword('short', { pwnedPasswords: { url: base } })).breachCheck).toBe('skipped');
		expect(requests).toEqual([]);
	});
});
