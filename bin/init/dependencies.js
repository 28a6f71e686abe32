// Which packages an app needs for what `kitgate init` writes, which of them its package.json lacks,
// and the command of the app's package manager that installs them.

/**
 * @typedef {{ dependencies?: Record<string, string>, devDependencies?: Record<string, string> }} PackageJson
 * @typedef {{ name: string, spec: string, dev: boolean }} Needed
 */

/**
 * The packages of `pkg` still to install: kitgate, better-sqlite3 (the SQLite adapter) and, when the
 * app's adapter is to be adapter-node, the adapter-node that fits its SvelteKit major.
 * @param {PackageJson} pkg
 * @param {{ adapterNode: boolean }} options
 * @returns {Needed[]}
 * @example
 * missingPackages({ devDependencies: { '@sveltejs/kit': '^2.63.0' } }, { adapterNode: true });
 */
export function missingPackages(pkg, { adapterNode }) {
	const has = (name) => Boolean(pkg.dependencies?.[name] ?? pkg.devDependencies?.[name]);
	const kitMajor = /(\d+)/.exec(pkg.devDependencies?.['@sveltejs/kit'] ?? pkg.dependencies?.['@sveltejs/kit'] ?? '')?.[1];
	/** @type {Needed[]} */
	const needed = [
		{ name: 'kitgate', spec: 'kitgate', dev: false },
		// 13.x needs Node 22; kitgate supports Node 20
		{ name: 'better-sqlite3', spec: 'better-sqlite3@^12', dev: false }
	];
	// adapter-node 6 is for SvelteKit 3
	if (adapterNode) needed.push({ name: '@sveltejs/adapter-node', spec: kitMajor === '3' ? '@sveltejs/adapter-node@^6' : '@sveltejs/adapter-node@^5', dev: true });
	return needed.filter((one) => !has(one.name));
}

/**
 * The package manager of the app in `files` (names in its folder), or of the running `npx`/`pnpm dlx`.
 * @param {string[]} files
 * @param {string | undefined} userAgent `npm_config_user_agent`
 * @returns {'npm' | 'pnpm' | 'yarn' | 'bun'}
 */
export function packageManager(files, userAgent) {
	if (files.includes('pnpm-lock.yaml')) return 'pnpm';
	if (files.includes('yarn.lock')) return 'yarn';
	if (files.includes('bun.lock') || files.includes('bun.lockb')) return 'bun';
	if (files.includes('package-lock.json')) return 'npm';
	const agent = /^(npm|pnpm|yarn|bun)\//.exec(userAgent ?? '')?.[1];
	return /** @type {'npm' | 'pnpm' | 'yarn' | 'bun'} */ (agent ?? 'npm');
}

/**
 * The commands (program and arguments) that install `needed` with `manager`: one for dependencies, one for dev dependencies.
 * @param {'npm' | 'pnpm' | 'yarn' | 'bun'} manager
 * @param {Needed[]} needed
 * @returns {string[][]}
 */
export function installCommands(manager, needed) {
	const add = manager === 'npm' ? ['install'] : ['add'];
	const devFlag = manager === 'npm' ? '--save-dev' : manager === 'bun' ? '--dev' : '-D';
	const commands = [];
	const runtime = needed.filter((one) => !one.dev).map((one) => one.spec);
	const dev = needed.filter((one) => one.dev).map((one) => one.spec);
	if (runtime.length) commands.push([manager, ...add, ...runtime]);
	if (dev.length) commands.push([manager, ...add, devFlag, ...dev]);
	return commands;
}
