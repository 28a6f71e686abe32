// The account-linking policy row by row: the same table as docs/security.md ("Account linking").

import { describe, expect, test } from 'vitest';
import { decideLinking, isEmailRefuted, type LinkingDecision, type LinkingFacts } from './linking-policy.js';

const victim = { id: 'victim' };
const other = { id: 'other' };
const proven = (id: string) => ({ id, verified: true, claimedBySignIn: false });
const invited = (id: string) => ({ id, verified: false, claimedBySignIn: false });
const claimed = (id: string) => ({ id, verified: false, claimedBySignIn: true });

const facts = (overrides: Partial<LinkingFacts>): LinkingFacts => ({
	arrival: 'oauth',
	owner: null,
	signedIn: null,
	holder: null,
	proven: false,
	...overrides
});

// [row, facts, decision] — keep in step with the table in docs/security.md
const rows: [string, LinkingFacts, LinkingDecision][] = [
	['K1 known account, nobody signed in: its owner', facts({ owner: other }), { kind: 'existing', userId: 'other' }],
	['K2 known account, another user signed in: the session switches to its owner', facts({ owner: other, signedIn: victim }), { kind: 'existing', userId: 'other' }],
	['K3 known email account, another user signed in: the owner', facts({ arrival: 'email', owner: other, signedIn: victim, proven: true }), { kind: 'existing', userId: 'other' }],
	[
		"K4 connect flow of the signed-in user with another user's account: refused",
		facts({ owner: other, signedIn: victim, linkRequestedBy: 'victim' }),
		{ kind: 'refuse', reason: 'account-of-another-user' }
	],
	['K5 connect flow with an account the user already has: the user', facts({ owner: victim, signedIn: victim, linkRequestedBy: 'victim' }), { kind: 'existing', userId: 'victim' }],
	['N1 new OAuth account, connect flow started by the signed-in user: linked to that user', facts({ signedIn: victim, linkRequestedBy: 'victim' }), { kind: 'link', userId: 'victim', because: 'requested' }],
	['N2 new OAuth account, flow started by nobody (or another user): not linked to the signed-in user', facts({ signedIn: victim, linkRequestedBy: 'other' }), { kind: 'create', verified: false }],
	['N3 new email account while signed in: a new user, never the signed-in one', facts({ arrival: 'email', signedIn: victim, linkRequestedBy: 'victim', proven: true }), { kind: 'create', verified: true }],
	['A1 nobody holds the address, unproven: a new user with an unverified address', facts({}), { kind: 'create', verified: false }],
	['A2 nobody holds the address, proven: a new user with a verified address', facts({ proven: true }), { kind: 'create', verified: true }],
	['A3 a user proved the address, the arrival proves it: linked to that user', facts({ holder: proven('other'), proven: true }), { kind: 'link', userId: 'other', because: 'address' }],
	['A4 a user proved the address, the arrival does not: refused', facts({ holder: proven('other') }), { kind: 'refuse', reason: 'address-in-use' }],
	['A5 the app stored a user with the address (invitation), the arrival proves it: linked', facts({ arrival: 'email', holder: invited('other'), proven: true }), { kind: 'link', userId: 'other', because: 'address' }],
	['A6 the app stored a user with the address, the arrival does not prove it: refused', facts({ holder: invited('other') }), { kind: 'refuse', reason: 'address-in-use' }],
	[
		'A7 an unproven sign-in claimed the address, the arrival proves it: the address is taken back, a new user',
		facts({ arrival: 'email', holder: claimed('other'), proven: true }),
		{ kind: 'create', verified: true, release: 'other' }
	],
	['A8 an unproven sign-in claimed the address, the arrival does not prove it: refused', facts({ holder: claimed('other') }), { kind: 'refuse', reason: 'address-in-use' }],
	[
		'A9 signed in as the claimant, an email link proves the address: still a new user (no link to the signed-in user)',
		facts({ arrival: 'email', signedIn: other, holder: claimed('other'), proven: true }),
		{ kind: 'create', verified: true, release: 'other' }
	]
];

describe('decideLinking', () => {
	test.each(rows)('%s', (_row, given, expected) => {
		expect(decideLinking(given)).toEqual(expected);
	});

	test('an email arrival never links because of the signed-in user, whatever it carries', () => {
		for (const holder of [null, proven('x'), invited('x'), claimed('x')]) {
			const decision = decideLinking(facts({ arrival: 'email', signedIn: victim, linkRequestedBy: 'victim', holder, proven: true }));
			expect(decision).not.toMatchObject({ kind: 'link', userId: 'victim' });
		}
	});
});

describe('isEmailRefuted', () => {
	test('false and "false" refute; true, "true", missing and other values do not', () => {
		expect(isEmailRefuted({ email_verified: false })).toBe(true);
		expect(isEmailRefuted({ email_verified: 'false' })).toBe(true);
		for (const value of [true, 'true', undefined, null, 0, 'no']) expect(isEmailRefuted({ email_verified: value })).toBe(false);
	});
});
