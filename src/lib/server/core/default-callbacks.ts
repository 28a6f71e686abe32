// Callbacks kitgate uses when the config gives none. Their own module, so the session read can
// recognise the default \`jwt\` callback without importing the config resolver.

import type { CallbacksOptions } from './types.js';

/** The default \`jwt\` callback: the token unchanged (the session read then skips re-encoding it). */
export const keepToken: CallbacksOptions['jwt'] = ({ token }) => token;
