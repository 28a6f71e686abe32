// The default `normalizeIdentifier` of email providers: one address, trimmed and lower-cased, or
// an `EmailSignin` error that says what is wrong. Pure; used by the email flow and `Email()`.

import { EmailSignin } from '../../errors.js';

/** Longest address SMTP can carry in a `MAIL TO` path (RFC 5321 §4.5.3.1.3). */
const MAX_ADDRESS_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;
const MAX_LABEL_LENGTH = 63;

/** Characters that separate addresses in what people paste: a list means more than one address. */
const LIST_SEPARATORS = /[,;\s]/;
// the "atext" of RFC 5322 plus non-ASCII (RFC 6531), in dot-separated runs
const LOCAL_PART = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const DOMAIN_LABEL = /^[\p{L}\p{N}]([\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;

/**
 * Turns what a user typed into the one address a sign-in link goes to: trimmed, lower-cased,
 * `local@domain` with a domain of at least two labels. Throws `EmailSignin` for anything else,
 * and says why: an empty value, a list of addresses (`,` `;` or spaces), a display name
 * (`Ada <ada@example.com>`), or a malformed address. Quoted local parts and IP-literal domains
 * are refused: no sign-in form needs them.
 *
 * @example
 * normalizeEmailIdentifier('  Ada@Example.COM '); // 'ada@example.com'
 * normalizeEmailIdentifier('a@example.com, b@example.com'); // throws EmailSignin (more than one address)
 */
export function normalizeEmailIdentifier(input: string): string {
	if (typeof input !== 'string') throw new EmailSignin('The email address is missing.');
	const address = input.trim().toLowerCase();
	const problem = addressProblem(address);
	if (problem) throw new EmailSignin(problem);
	return address;
}

/**
 * True when `value` is one address of the grammar `normalizeEmailIdentifier` accepts, as it is
 * (any case, no trimming). Pure. What a custom `normalizeIdentifier` returns must pass this
 * before it becomes an identifier: a value that is not an address could imitate another kind.
 *
 * @example
 * isEmailAddress('Ada@Example.com'); // true
 * isEmailAddress('kitgate:email-change:1:eve@evil.test'); // false
 */
export function isEmailAddress(value: unknown): value is string {
	return typeof value === 'string' && addressProblem(value) === undefined;
}

/** What is wrong with `address` (already trimmed), or undefined when it is one valid address. */
function addressProblem(address: string): string | undefined {
	if (!address) return 'The email address is empty.';
	if (/[<>"]/.test(address)) return 'Enter the email address alone, without a name, quotes or angle brackets.';
	if (LIST_SEPARATORS.test(address) || address.split('@').length > 2) {
		return 'Enter one email address: the value looks like a list of addresses.';
	}
	if (address.length > MAX_ADDRESS_LENGTH) return `The email address is longer than ${MAX_ADDRESS_LENGTH} characters.`;
	const at = address.indexOf('@');
	const local = address.slice(0, at);
	const domain = address.slice(at + 1);
	if (at <= 0 || !domain) return 'The email address needs the form name@example.com.';
	if (local.length > MAX_LOCAL_LENGTH || !LOCAL_PART.test(local)) return 'The part of the email address before "@" is not valid.';
	const labels = domain.split('.');
	const validDomain = labels.length >= 2 && labels.every((label) => label.length <= MAX_LABEL_LENGTH && DOMAIN_LABEL.test(label));
	if (!validDomain) return 'The part of the email address after "@" is not a valid domain name.';
	return undefined;
}
