// Whether git already tracks a file of the app: secrets written to a tracked .env would go out
// with the next commit, whatever .gitignore says (it only keeps untracked files out).

import { spawnSync } from 'node:child_process';

/**
 * True when `path` (relative to `root`) is tracked by the git repository `root` is in; false when
 * it is not, when `root` is in no repository, or when git is not installed.
 * @param {string} root
 * @param {string} path
 * @returns {boolean}
 * @example
 * if (trackedByGit(process.cwd(), '.env')) console.error('.env is committed: move the secrets out first');
 */
export function trackedByGit(root, path) {
	const result = spawnSync('git', ['ls-files', '--error-unmatch', '--', path], { cwd: root, stdio: 'ignore' });
	return result.status === 0;
}
