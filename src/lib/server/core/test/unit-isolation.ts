// Set-up file of the `unit` test project (vite.config.ts): unit tests need nothing outside their own
// process, so opening a socket (a server, a database, the network) or starting a process throws here.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { afterAll, vi } from 'vitest';
import { forgetProcessRateLimitStore } from '../limits/memory-rate-limit-store.js';

function refuse(what: string): never {
	throw new Error(`${what} in a unit test: this file belongs in the integration project (see the rule in vite.config.ts)`);
}

net.Server.prototype.listen = function listen() {
	return refuse('listening on a socket');
};
net.Socket.prototype.connect = function connect() {
	return refuse('connecting a socket');
};
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
	Object.assign(childProcess, { [name]: () => refuse(`starting a process (child_process.${name})`) });
}
// named imports (`import { execFile } from 'node:child_process'`) see the replacements too
syncBuiltinESMExports();

// unit files share their worker's modules (vite.config.ts): each starts from an empty process-wide
// rate-limit store (counters and revocations), whatever the file before it counted
forgetProcessRateLimitStore();

// nor does a file hand on a spy, a stubbed global or variable, or fake timers it forgot to undo
afterAll(() => {
	vi.restoreAllMocks();
	vi.unstubAllGlobals();
	vi.unstubAllEnvs();
	vi.useRealTimers();
});
