import { describe, test, expect } from 'vitest';
import { defaultRedirect, isSameOrigin } from './redirect.js';

const baseUrl = 'http://localhost:3000';

describe('defaultRedirect', () => {
	test('a relative path is allowed and made absolute', () => {
		expect(defaultRedirect({ url: '/dashboard', baseUrl })).toBe('http://localhost:3000/dashboard');
		expect(defaultRedirect({ url: '/a/b?x=1#top', baseUrl })).toBe('http://localhost:3000/a/b?x=1#top');
	});

	test('a same-origin absolute URL is allowed', () => {
		expect(defaultRedirect({ url: 'http://localhost:3000/profile', baseUrl })).toBe('http://localhost:3000/profile');
	});

	test.each([
		'https://evil.com',
		'https://evil.com/localhost:3000',
		'//evil.com',
		'//evil.com/path',
		'/\\evil.com',
		'\\\\evil.com',
		'/\t/evil.com',
		'javascript:alert(1)',
		'data:text/html,<script>alert(1)</script>',
		'http://localhost:3000.evil.com',
		'http://localhost.evil.com:3000',
		'http://localhost:3000@evil.com',
		'http://localhost:4000/path',
		'http://localhost/path',
		'https://localhost:3000/path'
	])('rejects %s and returns baseUrl', (url) => {
		expect(defaultRedirect({ url, baseUrl })).toBe(baseUrl);
	});

	test('a non-string url returns baseUrl', () => {
		expect(defaultRedirect({ url: undefined as unknown as string, baseUrl })).toBe(baseUrl);
		expect(defaultRedirect({ url: { toString: () => '/x' } as unknown as string, baseUrl })).toBe(baseUrl);
	});

	test('keeps a base path of baseUrl for relative URLs resolved against it', () => {
		expect(defaultRedirect({ url: 'next', baseUrl: 'http://localhost:3000/app/' })).toBe('http://localhost:3000/app/next');
	});
});

describe('isSameOrigin', () => {
	test('relative paths are same-origin', () => {
		expect(isSameOrigin('/x', baseUrl)).toBe(true);
		expect(isSameOrigin('x', baseUrl)).toBe(true);
		expect(isSameOrigin('?q=1', baseUrl)).toBe(true);
		expect(isSameOrigin('', baseUrl)).toBe(true);
	});

	test('scheme and host compare case-insensitively; default ports are normalised', () => {
		expect(isSameOrigin('HTTP://LOCALHOST:3000/x', baseUrl)).toBe(true);
		expect(isSameOrigin('https://example.com:443/x', 'https://example.com')).toBe(true);
		expect(isSameOrigin('http://example.com:80/', 'http://example.com/base')).toBe(true);
	});

	test('other scheme, host or port are different origins', () => {
		expect(isSameOrigin('https://localhost:3000', baseUrl)).toBe(false);
		expect(isSameOrigin('http://127.0.0.1:3000', baseUrl)).toBe(false);
		expect(isSameOrigin('http://localhost:3001', baseUrl)).toBe(false);
		expect(isSameOrigin('http://localhost', baseUrl)).toBe(false);
	});

	test('an invalid base or URL gives false instead of throwing', () => {
		expect(isSameOrigin('/x', 'not a url')).toBe(false);
		expect(isSameOrigin('http://[::1', baseUrl)).toBe(false);
	});

	test('opaque origins never match, not even each other', () => {
		expect(isSameOrigin('javascript:alert(1)', 'javascript:void(0)')).toBe(false);
		expect(isSameOrigin('data:text/plain,a', 'data:text/plain,a')).toBe(false);
	});
});
