// The SvelteKit comparison: three minimal SvelteKit apps (kitgate's `handle`, @auth/sveltekit's
// `handle`, and a bare hook with a plain cookie), generated here, built with adapter-node and
// served by bench/apps/sveltekit-server.js. Each has `/auth/*` and a `/protected` endpoint that
// calls `locals.auth()` (the bare one reads its cookie).

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const shared = (benchDir) => JSON.stringify(join(benchDir, 'apps', 'shared.js'));

const APP_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8" />%sveltekit.head%</head>
<body><div style="display: contents">%sveltekit.body%</div></body></html>
`;

const SVELTE_CONFIG = `import adapter from '@sveltejs/adapter-node';
export default { kit: { adapter: adapter({ out: 'build', precompress: false }) } };
`;

/** vite.config.js of one app: SvelteKit's plugin, plus aliases for packages found outside the app. */
function viteConfig(aliases, noExternal) {
	return `import { sveltekit } from '@sveltejs/kit/vite';
export default {
	logLevel: 'warn',
	plugins: [sveltekit()],
	resolve: { alias: ${JSON.stringify(aliases)} },
	ssr: { noExternal: ${JSON.stringify(noExternal)} }
};
`;
}

const PROTECTED_WITH_AUTH = `import { json } from '@sveltejs/kit';
export async function GET({ locals }) {
	const session = await locals.auth();
	if (!session?.user) return json({ error: 'unauthenticated' }, { status: 401 });
	return json({ message: 'protected', user: session.user });
}
`;

/** The source files of each app, keyed by path inside the app folder. */
function sources(benchDir, rootDir) {
	const credentialsOptions = 'credentials: CREDENTIAL_FIELDS, authorize';
	return {
		kitgate: {
			'src/hooks.server.js': `import { SvelteKitAuth } from 'kitgate/sveltekit';
import Credentials from 'kitgate/providers/credentials';
import { authorize, CREDENTIAL_FIELDS, SECRET } from ${shared(benchDir)};
export const { handle } = SvelteKitAuth({ secret: SECRET, trustHost: true, providers: [Credentials({ ${credentialsOptions} })], session: { strategy: 'jwt' } });
`,
			'src/routes/protected/+server.js': PROTECTED_WITH_AUTH,
			'vite.config.js': viteConfig(
				{
					'kitgate/sveltekit': join(rootDir, 'dist', 'server', 'sveltekit', 'index.js'),
					'kitgate/providers/credentials': join(rootDir, 'dist', 'server', 'providers', 'credentials.js')
				},
				[]
			)
		},
		authjs: {
			'src/hooks.server.js': `import { SvelteKitAuth } from '@auth/sveltekit';
import Credentials from '@auth/sveltekit/providers/credentials';
import { authorize, CREDENTIAL_FIELDS, SECRET } from ${shared(benchDir)};
export const { handle } = SvelteKitAuth({ secret: SECRET, trustHost: true, providers: [Credentials({ ${credentialsOptions} })], session: { strategy: 'jwt' } });
`,
			'src/routes/protected/+server.js': PROTECTED_WITH_AUTH,
			'vite.config.js': viteConfig({}, ['@auth/sveltekit'])
		},
		bare: {
			'src/hooks.server.js': `import { json } from '@sveltejs/kit';
import { authorize, BENCH_USER } from ${shared(benchDir)};
const SESSION_COOKIE = 'bare.session-token';
const CSRF_COOKIE = 'bare.csrf-token';
const SESSION_VALUE = 'bare-session-7f3a9c2e5b1d4f6a8c0e2b4d6f8a0c1e';
const CSRF_TOKEN = 'bare-csrf-3e5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e';
const ATTRIBUTES = 'Path=/; HttpOnly; SameSite=Lax';
function session(cookies) {
	if (cookies.get(SESSION_COOKIE) !== SESSION_VALUE) return null;
	const { name, email, image } = BENCH_USER;
	return { user: { name, email, image }, expires: new Date(Date.now() + 30 * 86400_000).toISOString() };
}
const redirect = (location, cookie) => new Response(null, { status: 302, headers: { location, ...(cookie ? { 'set-cookie': cookie } : {}) } });
export async function handle({ event, resolve }) {
	event.locals.auth = async () => session(event.cookies);
	const { pathname } = event.url;
	if (pathname === '/auth/session') return json(session(event.cookies));
	if (pathname === '/auth/csrf') {
		return json({ csrfToken: CSRF_TOKEN }, { headers: { 'set-cookie': \`\${CSRF_COOKIE}=\${CSRF_TOKEN}; \${ATTRIBUTES}\` } });
	}
	if (pathname === '/auth/callback/credentials' && event.request.method === 'POST') {
		const form = Object.fromEntries(await event.request.formData());
		const ok = event.cookies.get(CSRF_COOKIE) === CSRF_TOKEN && form.csrfToken === CSRF_TOKEN && authorize(form);
		if (!ok) return redirect('/auth/signin?error=CredentialsSignin');
		return redirect('/', \`\${SESSION_COOKIE}=\${SESSION_VALUE}; Max-Age=2592000; \${ATTRIBUTES}\`);
	}
	return resolve(event);
}
`,
			'src/routes/protected/+server.js': PROTECTED_WITH_AUTH,
			'vite.config.js': viteConfig({}, [])
		}
	};
}

/**
 * Writes and builds the three apps under `parentDir` (inside bench/reference, so that
 * `@auth/sveltekit` resolves from there and SvelteKit/Vite from the project). Returns, per app,
 * the adapter-node `handler.js` to serve, or the build error. `runCommand(command, args, options)`
 * runs the build and resolves to `{ status, output }`.
 */
export async function buildSvelteKitApps({ benchDir, rootDir, parentDir, runCommand }) {
	rmSync(parentDir, { recursive: true, force: true });
	const vite = join(rootDir, 'node_modules', 'vite', 'bin', 'vite.js');
	const built = {};
	for (const [name, files] of Object.entries(sources(benchDir, rootDir))) {
		const appDir = join(parentDir, name);
		const all = { 'svelte.config.js': SVELTE_CONFIG, 'src/app.html': APP_HTML, ...files };
		for (const [path, text] of Object.entries(all)) {
			mkdirSync(dirname(join(appDir, path)), { recursive: true });
			writeFileSync(join(appDir, path), text);
		}
		writeFileSync(join(appDir, 'package.json'), `${JSON.stringify({ name: `bench-sveltekit-${name}`, private: true, type: 'module' }, null, 2)}\n`);
		const run = await runCommand(process.execPath, [vite, 'build'], { cwd: appDir, env: { ...process.env, NODE_ENV: 'production' } });
		built[name] =
			run.status === 0
				? { handler: join(appDir, 'build', 'handler.js') }
				: { error: `vite build failed: ${run.output.trim().split('\n').slice(-6).join(' ')}` };
	}
	return built;
}
