// The minimal kitgate Worker plus email links and passkeys (WebAuthn through
// @simplewebauthn/server), to show what each sign-in method adds to the bundle.

import { Auth } from 'kitgate';
import { MemoryAdapter } from 'kitgate/adapters/memory';
import Email from 'kitgate/providers/email';
import Passkey from 'kitgate/providers/passkey';
import { kitgateConfig } from './kitgate-shared.js';
import { keepLink, mailboxAnswer } from './shared.js';

let config;

export default {
	fetch(request, env) {
		config ??= kitgateConfig(env, {
			adapter: MemoryAdapter(),
			experimental: { enableWebAuthn: true },
			providers: [Email({ sendVerificationRequest: ({ identifier, url }) => keepLink(identifier, url) }), Passkey()]
		});
		return mailboxAnswer(request) ?? Auth(request, config);
	}
};
