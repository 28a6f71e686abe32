// trackedByGit against real git repositories: a committed .env is tracked, an ignored or new one is
// not, and a folder outside any repository answers false (no error).

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { trackedByGit } from './git-tracked.js';

let dir: string;
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd: dir, stdio: 'ignore' });

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'kitgate-git-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('a committed .env is tracked; after `git rm --cached` it is not', () => {
	git('init', '-q');
	writeFileSync(join(dir, '.env'), 'PORT=3000\n');
	git('add', '.env');
	git('commit', '-qm', 'env');
	expect(trackedByGit(dir, '.env')).toBe(true);
	git('rm', '-q', '--cached', '.env');
	expect(trackedByGit(dir, '.env')).toBe(false);
});

it('an app in a subfolder of the repository: its own .env is asked about, not the root one', () => {
	git('init', '-q');
	mkdirSync(join(dir, 'app'));
	writeFileSync(join(dir, '.env'), 'ROOT=1\n');
	writeFileSync(join(dir, 'app/.env'), 'APP=1\n');
	git('add', '.env');
	git('commit', '-qm', 'root env');
	expect(trackedByGit(join(dir, 'app'), '.env')).toBe(false);
	git('add', 'app/.env');
	expect(trackedByGit(join(dir, 'app'), '.env')).toBe(true);
});

it('a folder in no repository answers false', () => {
	writeFileSync(join(dir, '.env'), 'PORT=3000\n');
	// GIT_CEILING_DIRECTORIES is not needed: the temporary folder is outside any repository
	expect(trackedByGit(dir, '.env')).toBe(false);
});
