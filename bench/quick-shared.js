// What the quick measuring tools share (quick-one.js, quick-sveltekit.js, ab/ab.js): starting an app
// child, a real sign-in, the server's CPU counters, and one autocannon load of a scenario with the
// server CPU it cost per operation. Loopback only; every load has a fixed duration.

import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CREDENTIALS } from './apps/shared.js';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const autocannon = createRequire(join(ROOT, 'bench/reference/package.json'))('autocannon');

/** Paths of the scenarios that are one GET (sign-in is a chain of two requests). */
const PATHS = { session: '/auth/session', protected: '/protected', anonymous: '/auth/session', 'signin-page': '/auth/signin', csrf: '/auth/csrf' };

/** Forks a bench app (production mode) and resolves when it reports its port. */
export function startApp(file, env = {}, execArgv = []) {
	const child = fork(join(ROOT, file), [], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production', ...env }, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	return new Promise((resolve) =>
		child.on('message', (m) => m?.type === 'ready' && resolve({ child, base: `http://127.0.0.1:${m.port}`, cookieName: m.sessionCookie, token: m.sessionToken }))
	);
}

/** `name=value` pairs of Set-Cookie lines, without the cleared ones. */
export const cookiePairs = (lines) => lines.map((line) => line.split(';')[0]).filter((pair) => !pair.endsWith('=')).join('; ');

/** A real credentials sign-in (csrf + callback); the session cookie's `name=value`. */
export async function signIn(app) {
	const csrf = await fetch(`${app.base}/auth/csrf`);
	const { csrfToken } = await csrf.json();
	const response = await fetch(`${app.base}/auth/callback/credentials`, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookiePairs(csrf.headers.getSetCookie()), origin: app.base },
		body: new URLSearchParams({ csrfToken, ...CREDENTIALS })
	});
	return response.headers.getSetCookie().find((line) => line.startsWith(`${app.cookieName}=`)).split(';')[0];
}

/** The app's session cookie: its seeded database session, else a sign-in. */
export async function sessionCookie(app) {
	return app.token ? `${app.cookieName}=${app.token}` : signIn(app);
}

const serverStats = async (app) => (await fetch(`${app.base}/__bench/cpu`)).json();

/** One load of `scenario` on `app` for `seconds`: operations per second and server CPU (µs) per operation. */
export async function load(app, scenario, seconds) {
	const options = { url: app.base, connections: scenario === 'sign-in' ? 20 : 50, duration: seconds };
	let signIns = 0;
	if (scenario === 'sign-in') {
		const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
		const header = (headers, name) => Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
		options.requests = [
			{
				method: 'GET',
				path: '/auth/csrf',
				onResponse(status, body, context, headers) {
					context.token = JSON.parse(String(body)).csrfToken;
					context.cookie = cookiePairs(list(header(headers, 'set-cookie')));
				}
			},
			{
				method: 'POST',
				path: '/auth/callback/credentials',
				setupRequest: (request, context) => ({
					...request,
					headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: context.cookie, origin: app.base },
					body: new URLSearchParams({ csrfToken: context.token, ...CREDENTIALS }).toString()
				}),
				onResponse(status, body, context, headers) {
					if (status === 302 && list(header(headers, 'set-cookie')).some((line) => line.startsWith(`${app.cookieName}=`))) signIns++;
				}
			}
		];
	} else {
		options.url += PATHS[scenario];
		if (scenario === 'session' || scenario === 'protected') options.headers = { cookie: app.cookie };
	}
	const before = await serverStats(app);
	const result = await autocannon(options);
	const after = await serverStats(app);
	const operations = scenario === 'sign-in' ? signIns : result.requests.total;
	return { rate: operations / result.duration, cpu: (after.user - before.user + after.system - before.system) / operations, non2xx: result.non2xx };
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
