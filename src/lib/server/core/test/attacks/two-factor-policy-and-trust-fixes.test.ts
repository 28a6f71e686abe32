// Attacks: twoFactor.required, trusted browsers,
// a passkey as the second step and step-up after a skipped second step. The attacks that worked,
// each failing before its fix: a passkey sign-up without user verification skipping the required
// second factor, two racing confirmations of an enrolment each showing codes (one list useless, or
// a thief's key winning), a re-sign-in for a sensitive change skipped by trust and so never recent.
// Memory adapter and a SQLite file, JWT and database sessions. Defences that held: two-factor-policy-and-trust.test.ts.

import { describe, expect, test } from 'vitest';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Adapter } from '../../types.js';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../stored-adapters.js';
import { adaWithSecondFactor, enrolmentOf, policyWorld, signInAgain, signInTrusting } from '../two-factor-fixture.js';

const adapters = memoryAndSqliteAdapters('two-factor-policy-and-trust-fixes');
const DAY = 24 * 60 * 60 * 1000;

/** A registration response whose authenticator data says presence only (no user verification); "none" attestation is unsigned. */
function withoutUserVerification(response: RegistrationResponseJSON): RegistrationResponseJSON {
	const decoded = isoCBOR.decodeFirst<Map<string, unknown>>(Buffer.from(response.response.attestationObject, 'base64url'));
	const authData = Buffer.from(decoded.get('authData') as Uint8Array);
	authData[32] = authData[32] & ~0x04;
	decoded.set('authData', new Uint8Array(authData));
	return { ...response, response: { ...response.response, attestationObject: Buffer.from(isoCBOR.encode(decoded as Parameters<typeof isoCBOR.encode>[0])).toString('base64url') } };
}

/** Makes two writes of a second factor meet: each waits for the other (300 ms at most), so both confirmations have passed their checks first. */
function racingSetTwoFactor(adapter: Pick<Required<Adapter>, 'setTwoFactor'>): void {
	const setTwoFactor = adapter.setTwoFactor.bind(adapter);
	let waiting: (() => void)[] = [];
	adapter.setTwoFactor = async (record) => {
		await new Promise<void>((release) => {
			waiting.push(release);
			if (waiting.length < 2) return void setTimeout(release, 300);
			waiting.forEach((go) => go());
			waiting = [];
		});
		return setTwoFactor(record);
	};
}

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		const world = (twoFactor: { required?: boolean; trustBrowserDays?: number }) => policyWorld(makeAdapter(), strategy, twoFactor);

		test('required: a passkey sign-up whose authenticator did not verify the user starts no session without a second factor', async () => {
			const w = world({ required: true });
			const eve = w.browser();
			const options = (await (await eve.request('/auth/webauthn-options/passkey?action=register&email=eve%40example.com')).json()) as { options: PublicKeyCredentialCreationOptionsJSON };
			const response = withoutUserVerification(eve.device.register(options.options));
			const done = await eve.request('/auth/callback/passkey', { json: { csrfToken: await eve.client.csrfToken(), action: 'register', data: response } });
			expect(done.status).toBeLessThan(500);
			// a passkey without user verification is one factor (docs/two-factor.md): the user sets up a second one first
			expect(eve.sessionCookie()).toBeUndefined();
			expect(await eve.session()).toBeNull();
		});

		test('required: two confirmations of one forced enrolment racing: every recovery code list shown works', async () => {
			const w = world({ required: true });
			racingSetTwoFactor(w.adapter);
			const ada = w.browser();
			await ada.signInByEmail('ada@example.com');
			const page = await (await ada.request('/auth/second-factor')).text();
			const { secret, pending } = enrolmentOf(page);
			const csrfToken = await ada.client.csrfToken();
			const post = () => ada.request('/auth/second-factor', { json: { csrfToken, pending, code: w.code(secret) } });
			const answers = await Promise.all([post(), post()]);
			const shown: string[][] = [];
			for (const answer of answers) if (answer.status === 200) shown.push(((await answer.json()) as { recoveryCodes: string[] }).recoveryCodes);
			expect(shown.length).toBeGreaterThanOrEqual(1);
			const stored = await w.adapter.getTwoFactor(await w.userId());
			expect(stored?.recoveryCodes).toHaveLength(10);
			// each list the user was shown must be the one stored: sign in with its first code
			for (const codes of shown) {
				w.clock.now += 1000;
				const b = w.browser();
				await b.signInByEmail('ada@example.com');
				const used = await b.secondStep(codes[0]);
				expect(used.status, 'a shown recovery code signs in').toBe(200);
			}
		});

		test('step-up: after FreshSignInRequired, signing in again in the trusted browser gives a recent sign-in (the second step is asked, not skipped)', async () => {
			const w = world({ trustBrowserDays: 30 });
			const { secret } = await adaWithSecondFactor(w);
			const ada = w.browser();
			await signInTrusting(w, ada, secret);
			w.clock.now += DAY;
			expect(await signInAgain(ada)).toBe('http://localhost:3000/dashboard');
			const refused = await ada.change('delete');
			const to = new URL(refused.headers.get('location')!);
			expect(to.searchParams.get('error') ?? to.searchParams.get('accountError')).toBe('FreshSignInRequired');
			// the user does what the answer asks: signs in again, in this browser
			w.clock.now += 60_000;
			const again = await ada.signInWithPassword();
			const where = again.headers.get('location');
			if (where === 'http://localhost:3000/auth/second-factor') expect((await ada.secondStep(w.code(secret))).status).toBe(302);
			const overview = (await (await ada.request('/auth/account')).json()) as { freshUntil: string | null };
			expect(overview.freshUntil, 'a full sign-in was possible in this browser').not.toBeNull();
		});

		test('required: a forced enrolment racing the owner\'s own enrolment on the account page: one of them wins, the other is refused', async () => {
			const w = world({ required: true });
			racingSetTwoFactor(w.adapter);
			// Ada signed up with a passkey that verifies her (both factors: never sent to the set-up) and added her address
			const ada = w.browser();
			await ada.addPasskey('ada-passkey@example.com');
			const adaId = (await w.adapter.getUserByAccount({ provider: 'passkey', providerAccountId: ada.device.credentials[0].id }))!.id;
			await w.adapter.updateUser({ id: adaId, email: 'ada@example.com', emailVerified: new Date(w.clock.now) });
			w.clock.now += 1000;
			// a thief of her mailbox (or password) reaches the forced set-up
			const thief = w.browser();
			await thief.signInByEmail('ada@example.com');
			const { secret: thiefSecret, pending: thiefPending } = enrolmentOf(await (await thief.request('/auth/second-factor')).text());
			const started = await ada.changeJson('two-factor-start');
			expect(started.status).toBe(200);
			const { secret, pending } = (await started.json()) as { secret: string; pending: string };
			const thiefToken = await thief.client.csrfToken();
			const adaToken = await ada.client.csrfToken();
			const [byAda, byThief] = await Promise.all([
				ada.request('/auth/account/two-factor-confirm', { json: { csrfToken: adaToken, pending, code: w.code(secret) } }),
				thief.request('/auth/second-factor', { json: { csrfToken: thiefToken, pending: thiefPending, code: w.code(thiefSecret) } })
			]);
			expect([byThief.status, byAda.status].filter((status) => status === 200), 'one enrolment stored').toHaveLength(1);
		});

	});
});
