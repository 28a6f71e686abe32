import { describe, test, expect } from 'vitest';
import { isValidHost, publicUrl } from './public-url.js';
import { InvalidRequest } from '../errors.js';

function request(headers: Record<string, string> = {}, url = 'http://internal:8080/auth/session?x=1'): Request {
	return new Request(url, { headers });
}

describe('publicUrl', () => {
	test('with authUrl, uses its origin and ignores Host and X-Forwarded-*', () => {
		const url = publicUrl(
			request({ host: 'evil.com', 'x-forwarded-host': 'evil.com', 'x-forwarded-proto': 'http' }),
			{ authUrl: new URL('https://example.com:8443/api/auth'), trustHost: true }
		);
		expect(url.href).toBe('https://example.com:8443/auth/session?x=1');
	});

	test('with authUrl, an invalid Host header is ignored rather than thrown', () => {
		const url = publicUrl(request({ 'x-forwarded-host': 'evil.com/path' }), {
			authUrl: new URL('https://example.com'),
			trustHost: true
		});
		expect(url.origin).toBe('https://example.com');
	});

	test('with trustHost, uses the first X-Forwarded-Host and X-Forwarded-Proto values', () => {
		const url = publicUrl(
			request({ host: 'internal:8080', 'x-forwarded-host': 'app.example.com, proxy.internal', 'x-forwarded-proto': 'https, http' }),
			{ trustHost: true }
		);
		expect(url.href).toBe('https://app.example.com/auth/session?x=1');
	});

	test('with trustHost and no X-Forwarded-Host, uses Host', () => {
		const url = publicUrl(request({ host: 'example.org:4000' }), { trustHost: true });
		expect(url.href).toBe('http://example.org:4000/auth/session?x=1');
	});

	test('X-Forwarded-Proto is case-insensitive; other schemes are ignored', () => {
		expect(publicUrl(request({ 'x-forwarded-proto': 'HTTPS' }), { trustHost: true }).protocol).toBe('https:');
		expect(publicUrl(request({ 'x-forwarded-proto': 'javascript' }), { trustHost: true }).protocol).toBe('http:');
		expect(publicUrl(request({ 'x-forwarded-proto': 'ftp' }), { trustHost: true }).protocol).toBe('http:');
	});

	test('an empty forwarded value falls back to Host', () => {
		const url = publicUrl(request({ 'x-forwarded-host': ' ', host: 'example.org' }), { trustHost: true });
		expect(url.host).toBe('example.org');
	});

	test('with trustHost, an IPv6 host is accepted', () => {
		expect(publicUrl(request({ host: '[::1]:3000' }), { trustHost: true }).host).toBe('[::1]:3000');
	});

	test.each(['evil.com/path', 'a b', 'user@host', 'evil.com?x', 'evil.com#x', 'host:port', 'evil.com\\x', 'localhost:99999'])(
		'with trustHost, the invalid host %j throws InvalidRequest',
		(host) => {
			expect(() => publicUrl(request({ 'x-forwarded-host': host }), { trustHost: true })).toThrow(InvalidRequest);
			expect(() => publicUrl(request({ host }), { trustHost: true })).toThrow(InvalidRequest);
		}
	);

	test('without trustHost, keeps the request URL whatever the headers say', () => {
		const url = publicUrl(
			request({ host: 'evil.com', 'x-forwarded-host': 'a b', 'x-forwarded-proto': 'https' }),
			{ trustHost: false }
		);
		expect(url.href).toBe('http://internal:8080/auth/session?x=1');
	});

	test('returns a new URL each time (callers may mutate it)', () => {
		const req = request();
		const first = publicUrl(req, { trustHost: false });
		first.pathname = '/changed';
		expect(publicUrl(req, { trustHost: false }).pathname).toBe('/auth/session');
	});
});

describe('isValidHost', () => {
	test.each([
		'example.com',
		'localhost',
		'localhost:3000',
		'a-b.example.co.uk',
		'127.0.0.1',
		'127.0.0.1:8080',
		'[::1]',
		'[::1]:3000',
		'[2001:db8::1]:443',
		'x'
	])('accepts %j', (host) => {
		expect(isValidHost(host)).toBe(true);
	});

	test.each([
		'',
		'evil.com/path',
		'a b',
		'user@host',
		'user:pass@host',
		'-example.com',
		'example-.com',
		'a..b',
		'.example.com',
		'example.com.',
		'host:',
		'host:123456',
		'host:65536',
		'localhost:99999',
		'host:port',
		'::1',
		'[::1',
		'[g::1]',
		'exa_mple.com',
		'http://example.com',
		'example.com\n'
	])('rejects %j', (host) => {
		expect(isValidHost(host)).toBe(false);
	});
});
