// `kitgate init`: shows the plan, refuses as a whole when one file cannot be changed safely, asks
// (unless --yes), writes the files, then installs the packages (--install) or prints the command.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { installCommands, packageManager } from './dependencies.js';
import { DEMO_PASSWORD_VARIABLE } from './templates.js';
import { folderNames, planInit } from './plan.js';
import { writeAll } from './write-files.js';

/**
 * Runs kitgate init in `root`; answers the exit code.
 * @param {string} root
 * @param {{ yes: boolean, install: boolean | undefined, tracked?: (root: string, path: string) => boolean }} options `install` undefined: ask (or, with --yes, only print the command); `tracked` as planInit's
 * @returns {Promise<number>}
 * @example
 * process.exitCode = await runInit(process.cwd(), { yes: true, install: true });
 */
export async function runInit(root, { yes, install, tracked }) {
	const plan = planInit(root, { tracked });
	if (plan.refusals.length) {
		console.error('kitgate init changed nothing:');
		for (const reason of plan.refusals) console.error(`  - ${reason}`);
		return 1;
	}
	if (plan.writes.length === 0 && plan.packages.length === 0) {
		console.log('kitgate is already set up in this app: nothing to change.');
		return 0;
	}
	const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
	if (!yes && !interactive) {
		console.error('kitgate init: not a terminal, so nothing was asked and nothing changed. Run `npx kitgate init --yes` to go ahead.');
		return 1;
	}

	console.log('kitgate init will:');
	for (const write of plan.writes) console.log(`  ${existsSync(join(root, write.path)) ? 'update' : 'create'} ${write.path}: ${write.why}`);
	for (const path of plan.unchanged) console.log(`  keep   ${path} (already set up)`);
	for (const note of plan.notes) console.log(`  note: ${note}`);
	const manager = packageManager(folderNames(root), process.env.npm_config_user_agent);
	const commands = installCommands(manager, plan.packages).map((command) => command.join(' '));
	if (commands.length) console.log(`  install: ${commands.join(' && ')}`);

	const prompt = interactive && !yes ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
	try {
		if (prompt && !(await confirm(prompt, 'Go ahead?'))) {
			console.log('Nothing changed.');
			return 1;
		}
		const failure = writeAll(root, plan.writes);
		if (failure) {
			console.error(`kitgate init changed nothing: ${failure}`);
			return 1;
		}
		const installNow = commands.length > 0 && (install ?? (prompt ? await confirm(prompt, `Install with ${manager} now?`) : false));
		if (installNow) {
			for (const command of installCommands(manager, plan.packages)) {
				console.log(`$ ${command.join(' ')}`);
				const result = spawnSync(command[0], command.slice(1), { cwd: root, stdio: 'inherit' });
				if (result.status !== 0) {
					console.error(`kitgate init: \`${command.join(' ')}\` failed; the files are written, run it again to install.`);
					return 1;
				}
			}
		}
		console.log('\nkitgate is set up.');
		if (commands.length && !installNow) console.log(`Install what it needs:\n  ${commands.join('\n  ')}`);
		console.log(`Then \`${manager === 'npm' ? 'npm run' : manager} dev\`${plan.demoPassword ? ` and sign in at /signin as \`ada\`, with the password ${DEMO_PASSWORD_VARIABLE} in .env` : ''}.`);
		console.log('Replace src/lib/server/users with your users, or add your identity provider: docs/getting-started-sveltekit.md.');
		return 0;
	} finally {
		prompt?.close();
	}
}

/**
 * @param {import('node:readline/promises').Interface} prompt
 * @param {string} question
 */
async function confirm(prompt, question) {
	const answer = (await prompt.question(`${question} (Y/n) `)).trim().toLowerCase();
	return answer === '' || answer === 'y' || answer === 'yes';
}
