import { format } from 'node:util';
import { describe, expect, test } from 'vitest';
import { lazyRequest } from './lazy-request.js';

const form = () =>
	new Request('https://app.example/auth/callback/credentials?x=1', {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.9' },
		body: 'username=ada&password=secret'
	});

describe('lazyRequest', () => {
	test('nothing is built until something is read; then it is built once', () => {
		let built = 0;
		const request = lazyRequest(() => (built++, form()));
		expect(request instanceof Request).toBe(true);
		expect(built).toBe(0);
		expect(request.method).toBe('POST');
		expect(request.url).toBe('https://app.example/auth/callback/credentials?x=1');
		expect(request.headers.get('x-forwarded-for')).toBe('203.0.113.9');
		expect(built).toBe(1);
	});

	test('the body reads as the real one, once; clone() reads again', async () => {
		const request = lazyRequest(form);
		const copy = request.clone();
		expect((await request.formData()).get('username')).toBe('ada');
		expect(request.bodyUsed).toBe(true);
		expect(await copy.text()).toBe('username=ada&password=secret');
		await expect(request.text()).rejects.toThrow();
	});

	test('new Request(request) and Object.prototype.toString take it as a Request', async () => {
		const request = lazyRequest(form);
		const copy = new Request(request);
		expect(copy.method).toBe('POST');
		expect(copy.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
		expect(await copy.text()).toBe('username=ada&password=secret');
		expect(Object.prototype.toString.call(lazyRequest(form))).toBe('[object Request]');
		expect('headers' in lazyRequest(form)).toBe(true);
	});

	test("logged with %o (util.inspect showing proxies) it shows the real request instead of throwing", () => {
		const logged = format('%o', lazyRequest(form));
		expect(logged).toContain('POST');
		expect(logged).toContain('https://app.example/auth/callback/credentials?x=1');
	});
});
