// The minimal Auth.js Worker plus email links, for the side-by-side with kitgate's: an email
// provider (Resend's, with its `sendVerificationRequest` replaced by the bench's mailbox, so no
// mail API is called) and the smallest adapter Auth.js accepts for it, kept in memory (Auth.js
// ships no memory adapter).

import { Auth } from '@auth/core';
import Resend from '@auth/core/providers/resend';
import { keepLink, mailboxAnswer } from '../workers/shared.js';
import { authjsConfig } from './authjs-worker.js';

/** Users and one-time tokens in maps: what an email sign-in with JWT sessions asks of an adapter. */
function memoryAdapter() {
	const users = new Map();
	const tokens = new Map();
	const byEmail = (email) => [...users.values()].find((user) => user.email === email) ?? null;
	return {
		createUser: async (user) => {
			const created = { ...user, id: crypto.randomUUID() };
			users.set(created.id, created);
			return created;
		},
		getUser: async (id) => users.get(id) ?? null,
		getUserByEmail: async (email) => byEmail(email),
		getUserByAccount: async () => null,
		updateUser: async (user) => {
			const updated = { ...users.get(user.id), ...user };
			users.set(updated.id, updated);
			return updated;
		},
		linkAccount: async (account) => account,
		createVerificationToken: async (token) => {
			tokens.set(`${token.identifier}\n${token.token}`, token);
			return token;
		},
		useVerificationToken: async ({ identifier, token }) => {
			const key = `${identifier}\n${token}`;
			const found = tokens.get(key) ?? null;
			tokens.delete(key);
			return found;
		}
	};
}

let config;

export default {
	fetch(request, env) {
		config ??= authjsConfig(env, {
			adapter: memoryAdapter(),
			providers: [Resend({ apiKey: 'unused', sendVerificationRequest: ({ identifier, url }) => keepLink(identifier, url) })]
		});
		return mailboxAnswer(request) ?? Auth(request, config);
	}
};
