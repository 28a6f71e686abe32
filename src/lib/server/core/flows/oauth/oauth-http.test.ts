import { describe, expect, test } from 'vitest';
import { readBoundedText } from './oauth-http.js';

/** A body sent as the given chunks; `pulled` counts the chunks read, `cancelled` whether the reader gave up. */
function streamed(chunks: Uint8Array[]) {
	const state = { pulled: 0, cancelled: false };
	const body = new ReadableStream<Uint8Array>({
		pull(controller) {
			const next = chunks[state.pulled++];
			if (next) controller.enqueue(next);
			else controller.close();
		},
		cancel() {
			state.cancelled = true;
		}
	});
	return { response: new Response(body), state };
}

describe('readBoundedText', () => {
	test('reads a body within the limit, a character split across chunks included', async () => {
		const bytes = new TextEncoder().encode('oauth_token=a&name=é☃');
		const { response } = streamed([bytes.slice(0, bytes.length - 2), bytes.slice(bytes.length - 2)]);
		expect(await readBoundedText(response, 'the token response', 64)).toBe('oauth_token=a&name=é☃');
	});

	test('stops at the limit and cancels the rest of the body', async () => {
		const { response, state } = streamed(Array.from({ length: 100 }, () => new Uint8Array(16).fill(97)));
		await expect(readBoundedText(response, 'the access token response', 40)).rejects.toThrow('the access token response is larger than 40 bytes.');
		expect(state.cancelled).toBe(true);
		expect(state.pulled).toBeLessThan(10);
	});

	test('refuses a declared Content-Length over the limit without reading', async () => {
		const { response: streamedResponse, state } = streamed([new Uint8Array(8)]);
		const response = new Response(streamedResponse.body, { headers: { 'content-length': '1000' } });
		await expect(readBoundedText(response, 'the request token response', 100)).rejects.toThrow(/larger than 100 bytes/);
		expect(state.pulled).toBeLessThanOrEqual(1);
	});
});
