// The minimal kitgate Worker plus email links: the email provider needs a store for its one-time
// tokens, here kitgate's memory adapter (a Worker in production would use a database binding).
// Links go to the bench's mailbox (shared.js) instead of a mail API.

import { Auth } from 'kitgate';
import { MemoryAdapter } from 'kitgate/adapters/memory';
import Email from 'kitgate/providers/email';
import { kitgateConfig } from './kitgate-shared.js';
import { keepLink, mailboxAnswer } from './shared.js';

let config;

export default {
	fetch(request, env) {
		config ??= kitgateConfig(env, {
			adapter: MemoryAdapter(),
			providers: [Email({ sendVerificationRequest: ({ identifier, url }) => keepLink(identifier, url) })]
		});
		return mailboxAnswer(request) ?? Auth(request, config);
	}
};
