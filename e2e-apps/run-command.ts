// Running a command without blocking the event loop, so the real apps are installed and built side
// by side (npm's downloads of one overlap another's build) instead of one after another.

import { spawn, type SpawnOptions } from 'node:child_process';

/** What a finished command printed and how it ended. */
export interface CommandResult {
	status: number | null;
	stdout: string;
	stderr: string;
	/** Why it did not run or was stopped (not found, timeout), when so. */
	error?: Error;
}

/**
 * Runs `command args` and resolves when it exits (never rejects: the caller decides what a failure
 * means). Output is collected; `timeout` (ms) kills the command.
 *
 * @example
 * const { status, stdout } = await runCommand('npm', ['run', 'build'], { cwd: dir, timeout: 600_000 });
 */
export function runCommand(command: string, args: string[], options: Pick<SpawnOptions, 'cwd' | 'env'> & { timeout: number; echoStderr?: boolean }): Promise<CommandResult> {
	return new Promise((resolveResult) => {
		const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		let error: Error | undefined;
		child.stdout?.on('data', (chunk) => (stdout += String(chunk)));
		child.stderr?.on('data', (chunk) => {
			stderr += String(chunk);
			if (options.echoStderr) process.stderr.write(chunk);
		});
		const timer = setTimeout(() => {
			error = new Error(`${command} timed out after ${options.timeout} ms`);
			child.kill('SIGKILL');
		}, options.timeout);
		child.on('error', (spawnError) => (error = spawnError));
		child.on('close', (status) => {
			clearTimeout(timer);
			resolveResult({ status, stdout, stderr, error });
		});
	});
}

/**
 * `runCommand` that throws unless the command exits 0, with the end of what it wrote to stderr.
 *
 * @example
 * await mustRun('npm', ['install', tarball], { cwd: dir, timeout: 900_000 });
 */
export async function mustRun(command: string, args: string[], options: Pick<SpawnOptions, 'cwd' | 'env'> & { timeout: number }): Promise<string> {
	const result = await runCommand(command, args, { ...options, echoStderr: true });
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${String(options.cwd)} (${result.error?.message ?? `exit ${result.status}`}):\n${result.stderr.slice(-4000)}`);
	return result.stdout;
}
