// Callbacks kitgate uses when the config gives none. Their own module, so the session read can
// recognise the default \`jwt\` callback without importing the config resolver.

import type { CallbacksOptions, Session } from '../types.js';

/** The default \`jwt\` callback: the token unchanged (the session read then skips re-encoding it). */
export const keepToken: CallbacksOptions['jwt'] = ({ token }) => token;

/**
 * The default `session` callback: what Auth.js's exposes, the user's name, email and image (not
 * the stored user's other fields), the expiry and an upstream error when there is one.
 */
export const publicSession: CallbacksOptions['session'] = ({ session }) => {
	const { user, expires, error } = session as Session & { error?: string };
	const visible: Session = { user: { name: user?.name, email: user?.email, image: user?.image }, expires };
	return error === undefined ? visible : { ...visible, error };
};
