// What bench/run.js needs from this folder's own node_modules: the load generator and Auth.js's
// JWT encoder (for the cookie-size comparison).

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** autocannon's programmatic API (a CommonJS module). */
export const autocannon = require('autocannon');
export { encode as authjsEncode } from '@auth/core/jwt';
