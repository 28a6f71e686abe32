// What `kitgate init` would change in a SvelteKit app, worked out before anything is written: the
// files to write, the ones already set up, the reasons to refuse, and the packages to install.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { missingPackages } from './dependencies.js';
import { appendLines, envAdditions, missingIgnores, unignores } from './env-file.js';
import { trackedByGit } from './git-tracked.js';
import { planHooks } from './hooks.js';
import { appFiles, DEMO_PASSWORD_VARIABLE } from './templates.js';
import { linkOnTheWay } from './write-files.js';

/**
 * @typedef {{ path: string, text: string, before: string | undefined, why: string, secret?: boolean }} FileWrite
 * @typedef {{ writes: FileWrite[], unchanged: string[], refusals: string[], notes: string[], packages: import('./dependencies.js').Needed[], demoPassword: boolean }} InitPlan
 * (`demoPassword`: it writes the stand-in user's password to .env)
 */

/** Files kitgate init writes whole: one that exists already counts as set up when it has this. */
const SET_UP = {
	'src/auth': /\bSvelteKitAuth\b/,
	'src/lib/server/users': /\bcheckPassword\b/,
	'src/routes/+layout.server': /\blocals\.auth\(\)/,
	'src/routes/signin/+page.server': /\bsignIn\b/,
	'src/routes/signin/+page.svelte': /\bSignIn\b/,
	'src/routes/signout/+page.server': /\bsignOut\b/,
	'src/routes/signout/+page.svelte': /\bSignOut\b/
};

/** What to add by hand where kitgate init will not write over an app's own file. */
const BY_HAND = {
	'src/routes/+layout.server': 'return `session: await event.locals.auth()` from its load (docs/getting-started-sveltekit.md, step 5)'
};

/**
 * Plans kitgate init in the app at `root`.
 * @param {string} root
 * @param {{ tracked?: (root: string, path: string) => boolean }} [options] `tracked`: whether git tracks a file (default: asks git)
 * @returns {InitPlan}
 * @example
 * const plan = planInit(process.cwd());
 * if (plan.refusals.length) console.error(plan.refusals.join('\n'));
 */
export function planInit(root, { tracked = trackedByGit } = {}) {
	/** @type {InitPlan} */
	const plan = { writes: [], unchanged: [], refusals: [], notes: [], packages: [], demoPassword: false };
	const read = (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined);

	const pkgText = read('package.json');
	let pkg;
	try {
		pkg = pkgText ? JSON.parse(pkgText) : undefined;
	} catch (error) {
		plan.refusals.push(`${root}/package.json is not valid JSON (${error instanceof Error ? error.message : error}): fix it, then run kitgate init again`);
		return plan;
	}
	if (!pkg || !(pkg.devDependencies?.['@sveltejs/kit'] ?? pkg.dependencies?.['@sveltejs/kit']) || !existsSync(join(root, 'src/routes'))) {
		plan.refusals.push(`${root} is not a SvelteKit app (no package.json with @sveltejs/kit, or no src/routes): run kitgate init in the folder \`npx sv create\` made`);
		return plan;
	}
	const ts = existsSync(join(root, 'tsconfig.json'));

	for (const [path, text] of Object.entries(appFiles({ ts }))) {
		const stem = path.replace(/\.(ts|js)$/, '');
		// a TypeScript app may hold the JavaScript twin of a file, and the other way round
		const found = [path, `${stem}.ts`, `${stem}.js`].find((candidate) => read(candidate) !== undefined);
		if (!found) plan.writes.push({ path, text, before: undefined, why: 'new' });
		else if (SET_UP[stem].test(read(found))) plan.unchanged.push(found);
		else plan.refusals.push(`${found} exists and is not kitgate's: kitgate init does not write over it${BY_HAND[stem] ? `; ${BY_HAND[stem]}` : ''}`);
	}

	const hooksFiles = ['src/hooks.server.ts', 'src/hooks.server.js'].filter((candidate) => existsSync(join(root, candidate)));
	const hooksPath = hooksFiles[0] ?? `src/hooks.server.${ts ? 'ts' : 'js'}`;
	// SvelteKit loads one of the two (whichever the folder lists first): merging into the other would leave kitgate out
	if (hooksFiles.length > 1) plan.refusals.push('src/hooks.server.ts and src/hooks.server.js both exist, and SvelteKit uses only one of them: keep one, then run kitgate init again');
	else if (existsSync(join(root, 'src/hooks.server'))) plan.refusals.push("src/hooks.server is a folder: kitgate init does not merge into it; add kitgate's handle to its index by hand (docs/getting-started-sveltekit.md)");
	else planHooksFile(hooksPath, read(hooksPath), plan);

	const adapterNode = planAdapter(read, plan);

	const env = read('.env');
	// the stand-in user's password only with the stand-in user: an app that removed it (to turn the
	// user off) must not get it back from a second run
	const usersWritten = plan.writes.some((write) => write.path.startsWith('src/lib/server/users.'));
	const additions = envAdditions(env, ['AUTH_SECRET', ...(usersWritten ? [DEMO_PASSWORD_VARIABLE] : [])]);
	plan.demoPassword = additions.added.includes(DEMO_PASSWORD_VARIABLE);
	// secrets in a .env that git commits (tracked already, or un-ignored) would go out with the next push
	if (additions.added.length && (unignores(read('.gitignore'), '.env') || tracked(root, '.env'))) {
		plan.refusals.push(`.env would be committed (git tracks it, or .gitignore has \`!.env\`): kitgate init does not write ${additions.added.join(' and ')} into it. Stop tracking it (\`git rm --cached .env\`, and list it in .gitignore), or set ${additions.added.join(' and ')} another way`);
	}
	if (additions.added.length) plan.writes.push({ path: '.env', text: appendLines(env, additions.text), before: env, why: `${additions.added.join(', ')} (random values; the file readable by its owner only)`, secret: true });
	else plan.unchanged.push('.env');

	const gitignore = read('.gitignore');
	const ignores = missingIgnores(gitignore, ['.env', '.data/']);
	if (ignores.length) plan.writes.push({ path: '.gitignore', text: appendLines(gitignore, `\n# kitgate: secrets, and the SQLite file of users and sessions\n${ignores.join('\n')}\n`), before: gitignore, why: ignores.join(', ') });

	for (const write of plan.writes) {
		const link = linkOnTheWay(root, write.path);
		if (link) plan.refusals.push(`${link} is a symbolic link: kitgate init writes only inside the app, never through a link (${write.path}); replace the link with the file, or add what it would write by hand`);
	}

	plan.packages = missingPackages(pkg, { adapterNode });
	return plan;
}

/**
 * Adds to `plan` what becomes of the hooks file at `path` (its text `existing`).
 * @param {string} path
 * @param {string | undefined} existing
 * @param {InitPlan} plan
 */
function planHooksFile(path, existing, plan) {
	const hooks = planHooks(existing);
	if (hooks.action === 'unchanged') {
		plan.unchanged.push(path);
		if (hooks.warning) plan.notes.push(`${path}: ${hooks.warning}`);
	} else if (hooks.action === 'refuse') {
		plan.refusals.push(`${path} cannot be merged safely: ${hooks.reason}. Add kitgate's handle by hand: \`export const handle = sequence(authHandle, yourHandle)\` with \`import { handle as authHandle } from './auth'\` and \`import { sequence } from '@sveltejs/kit/hooks'\``);
	} else plan.writes.push({ path, text: hooks.text, before: existing, why: hooks.merged ? "kitgate's handle first, then yours, with sequence()" : 'new' });
}

/**
 * Switches `sv create`'s adapter-auto to adapter-node (SQLite needs a Node server); answers whether
 * the app uses adapter-node. Another adapter is left alone, with a note.
 * @param {(path: string) => string | undefined} read
 * @param {InitPlan} plan
 */
function planAdapter(read, plan) {
	const configPath = ['vite.config.ts', 'vite.config.js', 'svelte.config.js'].find((candidate) => /@sveltejs\/adapter-/.test(read(candidate) ?? ''));
	if (!configPath) {
		plan.notes.push('No SvelteKit adapter found in vite.config or svelte.config: the SQLite adapter needs a Node server (adapter-node).');
		return false;
	}
	const config = read(configPath) ?? '';
	if (/['"]@sveltejs\/adapter-node['"]/.test(config)) return true;
	if (/['"]@sveltejs\/adapter-auto['"]/.test(config)) {
		plan.writes.push({ path: configPath, before: config, text: config.replace(/(['"])@sveltejs\/adapter-auto\1/, "$1@sveltejs/adapter-node$1"), why: 'adapter-auto → adapter-node (SQLite needs a Node server)' });
		return true;
	}
	plan.notes.push(`${configPath} uses another adapter than adapter-node: the SQLite adapter needs a Node server; on other platforms use PostgreSQL or D1 (docs/adapters.md, docs/deploying.md).`);
	return false;
}

/** The names of the files in the app's folder (for the package manager's lock file). */
export function folderNames(root) {
	return readdirSync(root);
}
