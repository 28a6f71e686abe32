import { describe, test, expect } from 'vitest';
import { MAX_BODY_BYTES, readBody, readableRequest, stringField } from './body.js';
import { InvalidRequest, PayloadTooLarge } from '../errors.js';

const URL_ = 'http://localhost:3000/auth/signin/credentials';

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
	return new Request(URL_, { method: 'POST', body, headers });
}

describe('readBody', () => {
	test('reads a urlencoded form, decoding values', async () => {
		const body = await readBody(
			post('csrfToken=abc&email=a%40b.com&name=Ada+Lovelace', {
				'content-type': 'application/x-www-form-urlencoded'
			})
		);
		expect(body).toEqual({ csrfToken: 'abc', email: 'a@b.com', name: 'Ada Lovelace' });
	});

	test('reads a URLSearchParams body (content type set by fetch)', async () => {
		const body = await readBody(post(new URLSearchParams({ a: '1', b: 'two' })));
		expect(body).toEqual({ a: '1', b: 'two' });
	});

	test('reads a JSON object, keeping nested values', async () => {
		const body = await readBody(
			post(JSON.stringify({ csrfToken: 'abc', data: { n: 1 }, list: [1, 2] }), {
				'content-type': 'application/json; charset=utf-8'
			})
		);
		expect(body).toEqual({ csrfToken: 'abc', data: { n: 1 }, list: [1, 2] });
	});

	test('content type matching is case-insensitive', async () => {
		expect(await readBody(post('{"a":"b"}', { 'content-type': 'Application/JSON' }))).toEqual({ a: 'b' });
	});

	test('reads a multipart form, keeping string fields and dropping files', async () => {
		const form = new FormData();
		form.append('csrfToken', 'abc');
		form.append('username', 'ada');
		form.append('username', 'second');
		form.append('upload', new Blob(['file contents']), 'a.txt');
		const body = await readBody(post(form));
		expect(body).toEqual({ csrfToken: 'abc', username: 'ada' });
	});

	test.each(['[1,2]', '["a"]', 'null', '42', '"text"', 'true'])('a JSON body %s that is not an object is InvalidRequest', async (json) => {
		await expect(readBody(post(json, { 'content-type': 'application/json' }))).rejects.toBeInstanceOf(InvalidRequest);
	});

	test.each(['{', '{"a":}', 'not json', '{"a":"b"}x'])('malformed JSON %j is InvalidRequest', async (json) => {
		await expect(readBody(post(json, { 'content-type': 'application/json' }))).rejects.toBeInstanceOf(InvalidRequest);
	});

	test('an empty JSON body is InvalidRequest', async () => {
		await expect(readBody(post('', { 'content-type': 'application/json' }))).rejects.toBeInstanceOf(InvalidRequest);
	});

	test('a malformed multipart body is InvalidRequest', async () => {
		const request = post('this is not multipart', { 'content-type': 'multipart/form-data; boundary=xyz' });
		await expect(readBody(request)).rejects.toBeInstanceOf(InvalidRequest);
	});

	test('an unknown content type gives {}', async () => {
		expect(await readBody(post('a=b', { 'content-type': 'text/plain' }))).toEqual({});
		expect(await readBody(post('{"a":"b"}', { 'content-type': 'application/xml' }))).toEqual({});
	});

	test('a POST without a body gives {}', async () => {
		expect(await readBody(post(null, { 'content-type': 'application/json' }))).toEqual({});
	});

	test('GET and other methods give {}', async () => {
		expect(await readBody(new Request(`${URL_}?a=b`, { method: 'GET' }))).toEqual({});
		const put = new Request(URL_, { method: 'PUT', body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
		expect(await readBody(put)).toEqual({});
	});

	test('a body declared larger than MAX_BODY_BYTES is PayloadTooLarge', async () => {
		const request = post('a=b', {
			'content-type': 'application/x-www-form-urlencoded',
			'content-length': String(MAX_BODY_BYTES + 1)
		});
		const error = await readBody(request).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(PayloadTooLarge);
		expect((error as Error).message).toContain(`larger than ${MAX_BODY_BYTES} bytes`);
	});

	test('a body actually larger than MAX_BODY_BYTES is PayloadTooLarge, whatever the declared length', async () => {
		const big = `a=${'x'.repeat(MAX_BODY_BYTES)}`;
		const undeclared = post(big, { 'content-type': 'application/x-www-form-urlencoded' });
		await expect(readBody(undeclared)).rejects.toBeInstanceOf(PayloadTooLarge);
		const understated = post(big, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '3' });
		await expect(readBody(understated)).rejects.toBeInstanceOf(PayloadTooLarge);
		const json = post(JSON.stringify({ a: 'x'.repeat(MAX_BODY_BYTES) }), { 'content-type': 'application/json' });
		await expect(readBody(json)).rejects.toBeInstanceOf(PayloadTooLarge);
	});

	test('a multipart body larger than MAX_BODY_BYTES is PayloadTooLarge', async () => {
		const form = new FormData();
		form.append('field', 'x'.repeat(MAX_BODY_BYTES + 10));
		await expect(readBody(post(form))).rejects.toBeInstanceOf(PayloadTooLarge);
	});

	test('a body of exactly MAX_BODY_BYTES is read', async () => {
		const value = 'x'.repeat(MAX_BODY_BYTES - 2);
		const body = await readBody(post(`a=${value}`, { 'content-type': 'application/x-www-form-urlencoded' }));
		expect(body.a).toBe(value);
	});

	test('after a read, readableRequest gives a copy whose body can be read again', async () => {
		const request = post('a=b', { 'content-type': 'application/x-www-form-urlencoded' });
		await readBody(request);
		const copy = readableRequest(request);
		expect(copy).not.toBe(request);
		expect(await copy.text()).toBe('a=b');
		expect(copy.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
	});

	test('readableRequest returns an unread request as it is', () => {
		const request = post('a=b', { 'content-type': 'application/x-www-form-urlencoded' });
		expect(readableRequest(request)).toBe(request);
	});
});

describe('stringField', () => {
	const body = { name: 'Ada', empty: '', count: 3, nested: { a: 'b' }, list: ['x'], nothing: null };

	test('returns string values, including the empty string', () => {
		expect(stringField(body, 'name')).toBe('Ada');
		expect(stringField(body, 'empty')).toBe('');
	});

	test('returns undefined for absent and non-string values', () => {
		for (const name of ['missing', 'count', 'nested', 'list', 'nothing']) expect(stringField(body, name)).toBeUndefined();
	});

	test('does not read inherited properties as fields', () => {
		expect(stringField({}, 'toString')).toBeUndefined();
		expect(stringField(JSON.parse('{"__proto__":"x"}') as Record<string, unknown>, 'constructor')).toBeUndefined();
	});
});
