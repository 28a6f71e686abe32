// Test helpers (`kitgate/testing`): for an app's own tests, a signed-in session without a sign-in
// (`createTestSession`), a local OpenID provider (`startTestIdp`) and a mailbox (`startTestMailbox`);
// for adapter authors, the conformance suite (it needs vitest, an optional peer dependency, and
// loads it only when present). The Playwright fixtures are in `kitgate/testing/playwright`.

/**
 * The adapter conformance suite; see {@link AdapterTestOptions}.
 *
 * @example
 * import { runAdapterTests } from 'kitgate/testing';
 * runAdapterTests({ name: 'MyAdapter', adapter: () => MyAdapter() });
 */
export { runAdapterTests, type AdapterTestOptions } from './conformance.js';

/**
 * True when an error is a unique violation as the engine understands it: a `UniqueViolationError`
 * (or its code) in the cause chain. Adapters translate their driver's errors into it
 * (`withUniqueViolations` or `asUniqueViolation` from `kitgate/adapters/errors`).
 *
 * @example
 * expect(isUniqueViolation(error)).toBe(true);
 */
export { isUniqueViolation, UniqueViolationError } from '../server/core/store/unique-violation.js';

/**
 * A signed-in session for a user, started by the app's own engine: cookies for Playwright's
 * `context.addCookies` and a `Cookie` header for `fetch`.
 *
 * @example
 * const session = await createTestSession({ config: { secret }, user: { email: 'ada@example.com' }, origin: 'http://localhost:4173' });
 */
export { createTestSession, type TestCookie, type TestSession, type TestSessionConfig, type TestSessionOptions } from './test-session.js';

/**
 * A local OpenID provider (`oidc-provider`, an optional peer dependency) on 127.0.0.1.
 *
 * @example
 * const idp = await startTestIdp({ clients: [{ client_id: 'app', client_secret: 'secret', redirect_uris: ['http://localhost:4173/auth/callback/oidc'] }] });
 */
export { startTestIdp, type TestIdp, type TestIdpAccount, type TestIdpClient, type TestIdpOptions } from './idp.js';

/**
 * A local mailbox (`smtp-server`, an optional peer dependency) on 127.0.0.1, and a reader of one
 * another process started.
 *
 * @example
 * const mailbox = await startTestMailbox();
 * const link = await mailbox.waitForLink('ada@example.com');
 */
export {
	connectTestMailbox,
	startTestMailbox,
	type MailboxReader,
	type TestMail,
	type TestMailbox,
	type TestMailboxOptions,
	type WaitForLinkOptions,
	type WaitForMailOptions
} from './mailbox.js';

/**
 * The fields of a received email: recipients, subject, text and HTML bodies, links.
 *
 * @example
 * const { subject, links } = parseMail(rawMessage);
 */
export { parseMail, type ParsedMail } from './mail-parser.js';
