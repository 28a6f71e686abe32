// The session state on the server: each render (each request) has its own, seeded from its layout's
// session with no request, and a render that runs while another is half done sees only its own.
// A module-level `$state` shared by all requests fails the two tests that render one request inside another.

import { render } from 'svelte/server';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Session } from '../server/core/types.js';
import NoSessionContext from './test/NoSessionContext.svelte';
import SessionLayout from './test/SessionLayout.svelte';

const sessionOf = (name: string): Session => ({ user: { name, email: `${name.toLowerCase()}@example.com` }, expires: '2100-01-01T00:00:00.000Z' });
const reader = (body: string) => /<p data-testid="reader">([^<]*)<\/p>/.exec(body)?.[1];

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('the session state on the server', () => {
	test("is seeded from the layout's session and makes no request", () => {
		const requests: string[] = [];
		vi.stubGlobal('fetch', async (input: string) => {
			requests.push(String(input));
			return new Response('null');
		});
		const { body } = render(SessionLayout, { props: { session: sessionOf('Ada') } });
		expect(reader(body)).toBe('ada@example.com then ada@example.com (authenticated)');
		// the header's UserButton read it too
		expect(body).toContain('aria-label="Account menu of Ada"');
		expect(requests).toEqual([]);
	});

	test("a request rendered while another is half done sees only its own session (and the other keeps its own)", () => {
		let inner = '';
		const { body } = render(SessionLayout, {
			props: {
				session: sessionOf('Ada'),
				// Grace's request renders between the two reads of Ada's
				meanwhile: () => (inner = render(SessionLayout, { props: { session: sessionOf('Grace') } }).body)
			}
		});
		expect(reader(body)).toBe('ada@example.com then ada@example.com (authenticated)');
		expect(reader(inner)).toBe('grace@example.com then grace@example.com (authenticated)');
		// the footer's UserButton, rendered after Grace's request, is still Ada's
		expect(body.match(/aria-label="Account menu of (\w+)"/g)).toEqual(['aria-label="Account menu of Ada"', 'aria-label="Account menu of Ada"']);
		expect(body).not.toContain('Grace');
		expect(inner).not.toContain('Ada');
	});

	test('an anonymous request rendered while a signed-in one is half done shows nobody', () => {
		let inner = '';
		const { body } = render(SessionLayout, {
			props: { session: sessionOf('Ada'), meanwhile: () => (inner = render(SessionLayout, { props: { session: null } }).body) }
		});
		expect(reader(inner)).toBe('nobody then nobody (unauthenticated)');
		expect(inner).not.toContain('kg-userbutton');
		expect(inner).not.toContain('ada@');
		expect(reader(body)).toBe('ada@example.com then ada@example.com (authenticated)');
	});

	test('many requests rendered concurrently each show their own user', async () => {
		const names = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? null : `User${i}`));
		const bodies = await Promise.all(
			names.map(async (name, i) => {
				// the requests' loads finish in a shuffled order, as a server's do
				await new Promise((resolve) => setTimeout(resolve, (i * 7) % 5));
				return render(SessionLayout, { props: { session: name ? sessionOf(name) : null } }).body;
			})
		);
		bodies.forEach((body, i) => {
			const email = names[i] ? `${names[i]!.toLowerCase()}@example.com` : 'nobody';
			expect(reader(body)).toBe(`${email} then ${email} (${names[i] ? 'authenticated' : 'unauthenticated'})`);
			expect(body.match(/user\d+@example\.com/g) ?? []).toEqual(names[i] ? [email, email, email, email] : []);
		});
	});

	test('useSession() without setSessionContext says what to do', () => {
		expect(() => render(NoSessionContext).body).toThrow(/call setSessionContext\(\(\) => data\.session\) in the root \+layout\.svelte/);
	});
});
