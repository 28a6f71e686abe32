#!/usr/bin/env node
// The `kitgate` command (package.json `bin`): `npx kitgate init` adds kitgate to a SvelteKit app.
// Plain Node ESM, shipped as written; no dependency beyond Node's own modules.

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runInit } from './init/run-init.js';

const USAGE = `Usage: npx kitgate init [--yes] [--install | --no-install] [--cwd <folder>]

Adds kitgate to a SvelteKit app made by \`npx sv create\`: src/auth, the hook, the root layout's
session, /signin and /signout, a random AUTH_SECRET in .env, users and sessions in SQLite.
Running it again changes nothing; a file it cannot change safely stops it before it writes.

  -y, --yes         do not ask; go ahead (needed when not run in a terminal)
      --install     install the packages it needs with the app's package manager
      --no-install  only print the install command
      --cwd <dir>   the app's folder (default: the current folder)
  -h, --help        this text`;

/** Parses the arguments and runs the command; answers the exit code. */
async function main(argv) {
	let parsed;
	try {
		parsed = parseArgs({
			args: argv,
			allowPositionals: true,
			allowNegative: true,
			options: { yes: { type: 'boolean', short: 'y' }, install: { type: 'boolean' }, cwd: { type: 'string' }, help: { type: 'boolean', short: 'h' } }
		});
	} catch (error) {
		console.error(`${error instanceof Error ? error.message : error}\n\n${USAGE}`);
		return 2;
	}
	const { values, positionals } = parsed;
	if (values.help) {
		console.log(USAGE);
		return 0;
	}
	if (positionals.length !== 1 || positionals[0] !== 'init') {
		console.error(positionals.length ? `Unknown command: ${positionals.join(' ')}\n\n${USAGE}` : USAGE);
		return 2;
	}
	return runInit(resolve(values.cwd ?? '.'), { yes: Boolean(values.yes), install: values.install });
}

process.exitCode = await main(process.argv.slice(2));
