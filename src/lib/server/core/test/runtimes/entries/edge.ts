// Vercel Edge-style entry (a fetch event listener, as the `edge-runtime` package runs it); the
// environment comes from the runtime's global `process.env` stand-in the test sets.
import { runtimeApp, type RuntimeEnv } from '../runtime-app.js';

declare const KITGATE_ENV: RuntimeEnv;
let app: ((request: Request) => Promise<Response>) | undefined;

addEventListener('fetch', (event) => {
	const fetchEvent = event as Event & { request: Request; respondWith(response: Promise<Response>): void };
	fetchEvent.respondWith((app ??= runtimeApp(KITGATE_ENV))(fetchEvent.request));
});
