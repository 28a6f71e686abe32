// The session state under Svelte's async server rendering (`experimental.async`): requests whose
// renders wait at the same time and finish in another order, with a component that waits before
// it reads the session, each show only their own. Compiled here with async on, as an app has it
// (a session state shared between requests fails this test).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compile } from 'svelte/compiler';
import { render } from 'svelte/server';
import { afterAll, expect, test } from 'vitest';
import type { Component } from 'svelte';
import type { Session } from '../server/core/types.js';

const here = resolve('src/lib/client');
const folder = mkdtempSync(join(resolve('.svelte-kit'), 'kitgate-async-ssr-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Compiles a component for the server with async rendering on, into a module vitest can import. */
async function asyncComponent(name: string, source: string): Promise<void> {
	const { js } = compile(source, { generate: 'server', experimental: { async: true }, filename: `${name}.svelte` });
	writeFileSync(join(folder, `${name}.js`), js.code);
}

const sessionOf = (name: string): Session => ({ user: { name, email: `${name.toLowerCase()}@example.com` }, expires: '2100-01-01T00:00:00.000Z' });

test("requests rendered at the same time, each waiting in an `await`, show their own session", async () => {
	await asyncComponent(
		'Reader',
		`<script>
			import { useSession } from ${JSON.stringify(join(here, 'session.svelte.ts'))};
			let { wait } = $props();
			// a component that waits before it reads the session (other requests' renders run meanwhile)
			if (wait) await wait();
			const session = useSession();
		</script>
		<p>{session.data?.user.email ?? 'nobody'} ({session.status})</p>`
	);
	await asyncComponent(
		'Layout',
		`<script>
			import { setSessionContext } from ${JSON.stringify(join(here, 'session.svelte.ts'))};
			import Reader from './Reader.js';
			let { session, wait } = $props();
			setSessionContext(() => session);
		</script>
		<Reader />
		<p>{await wait()}</p>
		<Reader {wait} />`
	);
	const Layout = (await import(/* @vite-ignore */ join(folder, 'Layout.js'))).default as Component<{ session: Session | null; wait: () => Promise<string> }>;
	const names = Array.from({ length: 12 }, (_, i) => (i % 4 === 0 ? null : `User${i}`));
	const bodies = await Promise.all(
		names.map(async (name, i) => {
			// each render waits, and they finish in a shuffled order
			const wait = () => new Promise<string>((done) => setTimeout(() => done(`waited ${i}`), (i * 7) % 5));
			return (await render(Layout, { props: { session: name ? sessionOf(name) : null, wait } })).body;
		})
	);
	bodies.forEach((body, i) => {
		const email = names[i] ? `${names[i]!.toLowerCase()}@example.com` : 'nobody';
		const status = names[i] ? 'authenticated' : 'unauthenticated';
		expect(body).toContain(`waited ${i}`);
		expect(body.match(/<p>[^<]*\((?:un)?authenticated\)<\/p>/g)).toEqual([`<p>${email} (${status})</p>`, `<p>${email} (${status})</p>`]);
	});
});
