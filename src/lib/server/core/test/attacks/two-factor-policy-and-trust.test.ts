// Attacks: twoFactor.required, trusted browsers, a passkey as the second step and step-up after a
// skipped second step, as tests through Auth() on the memory adapter and a SQLite file under JWT and
// database sessions.
//
// The attacks that worked, each failing before its fix: a passkey sign-up without user verification
// skipping the required second factor, two racing confirmations of an enrolment each showing codes
// (one list useless, or a thief's key winning), a re-sign-in for a sensitive change skipped by trust
// and so never recent.
//
// The defences that held: one recovery code raced by two browsers, old codes after new ones, a trust
// ended by a spent recovery code, auth_time written by a jwt callback or a session update, a session
// extended a day later, a presence-only passkey sign-in on a trusted browser, the passkey route
// during a forced set-up, a normal passkey challenge at the second step, malformed bodies (never a
// 500).

import { describe, expect, test } from 'vitest';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Adapter } from '../../types.js';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../stored-adapters.js';
import { adaBackOnATrustedBrowser, adaWithSecondFactor, enrolmentOf, policyWorld, signInAgain, signInTrusting } from '../two-factor-fixture.js';

const adapters = memoryAndSqliteAdapters('two-factor-policy-and-trust');
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

describe('attacks that worked, each failing before its fix', () => {
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
				const ada = await w.signedIn();
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
					const b = await w.signedIn();
					const used = await b.secondStep(codes[0]);
					expect(used.status, 'a shown recovery code signs in').toBe(200);
				}
			});

			test('step-up: after FreshSignInRequired, signing in again in the trusted browser gives a recent sign-in (the second step is asked, not skipped)', async () => {
				const w = world({ trustBrowserDays: 30 });
				const { secret, ada } = await adaBackOnATrustedBrowser(w);
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
				const thief = await w.signedIn();
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
});

describe('defences that held', () => {
	describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
		describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
			const world = (twoFactor: { required?: boolean; trustBrowserDays?: number }) => policyWorld(makeAdapter(), strategy, twoFactor);

			test('recovery codes: one code used by two browsers at once signs in one of them; codes from before new ones are refused', async () => {
				const w = world({});
				const { recoveryCodes, secret } = await adaWithSecondFactor(w);
				const one = w.browser();
				const two = w.browser();
				await one.signInByEmail('ada@example.com');
				await two.signInByEmail('ada@example.com');
				const t1 = await one.client.csrfToken();
				const t2 = await two.client.csrfToken();
				await Promise.all([
					one.request('/auth/second-factor', { form: { csrfToken: t1, code: recoveryCodes[0] } }),
					two.request('/auth/second-factor', { form: { csrfToken: t2, code: recoveryCodes[0] } })
				]);
				const signedIn = [await one.session(), await two.session()].filter((s) => s?.user?.email === 'ada@example.com');
				expect(signedIn).toHaveLength(1);

				// new codes from a full sign-in (email link and a current code)
				w.clock.now += 60_000;
				const owner = await w.signedIn();
				expect((await owner.secondStep(w.code(secret))).status).toBe(302);
				w.clock.now += 30_000;
				const fresh = await owner.changeJson('two-factor-recovery-codes', { code: w.code(secret) });
				expect(fresh.status).toBe(200);
				w.clock.now += 1000;
				const three = await w.signedIn();
				const old = await three.secondStep(recoveryCodes[1]);
				expect(new URL(old.headers.get('location')!).searchParams.get('error')).toBe('InvalidSecondFactor');
				expect(await three.session()).toBeNull();
			});

			test('step-up: a jwt callback that writes auth_time and a session update carrying auth_time do not make a trusted-browser sign-in fresh', async () => {
				const w = world({ trustBrowserDays: 30 });
				w.config.callbacks = {
					jwt: ({ token, session }) => ({ ...token, auth_time: Math.floor(w.clock.now / 1000), ...(session as object | undefined) })
				};
				const { ada } = await adaBackOnATrustedBrowser(w);
				const csrfToken = await ada.client.csrfToken();
				await ada.request('/auth/session', { json: { csrfToken, data: { auth_time: Math.floor(w.clock.now / 1000) } } });
				const overview = (await (await ada.request('/auth/account')).json()) as { freshUntil: string | null };
				expect(overview.freshUntil).toBeNull();
				const deletion = await ada.changeJson('delete');
				expect(deletion.status).toBe(403);
				expect(await w.adapter.getUserByEmail('ada@example.com')).not.toBeNull();
				const passkey = await ada.request('/auth/webauthn-options/passkey?action=register');
				expect(passkey.status).toBe(403);
			});

			test('step-up: a session started on a trusted browser and extended a day later is still not recent', async () => {
				const w = world({ trustBrowserDays: 30 });
				const { ada } = await adaBackOnATrustedBrowser(w);
				// past updateAge (a day): the read re-issues the JWT or extends the database row
				w.clock.now += DAY + 1000;
				expect((await ada.session())?.user?.email).toBe('ada@example.com');
				w.clock.now += 1000;
				const overview = (await (await ada.request('/auth/account')).json()) as { freshUntil: string | null };
				expect(overview.freshUntil).toBeNull();
				expect((await ada.changeJson('delete')).status).toBe(403);
			});

			test('trust: a recovery code spent in another browser ends the trust of this one', async () => {
				const w = world({ trustBrowserDays: 30 });
				const { secret, recoveryCodes } = await adaWithSecondFactor(w);
				const ada = w.browser();
				await signInTrusting(w, ada, secret);
				w.clock.now += 60_000;
				const other = await w.signedIn();
				expect((await other.secondStep(recoveryCodes[3])).status).toBe(200);
				w.clock.now += 60_000;
				expect(await signInAgain(ada)).toBe('http://localhost:3000/auth/second-factor');
			});

			test('required: the passkey route cannot finish a forced enrolment (a user with a passkey but no second factor)', async () => {
				const w = world({ required: true });
				const carol = w.browser();
				await carol.addPasskey('carol@example.com');
				const ada = await w.signedIn();
				const options = await ada.request('/auth/second-factor/passkey');
				expect(options.status).toBe(400);
				const post = await ada.request('/auth/second-factor/passkey', { json: { csrfToken: await ada.client.csrfToken(), data: { id: 'x', response: {} } } });
				expect(post.status).toBeGreaterThanOrEqual(400);
				expect(post.status).toBeLessThan(500);
				expect(await ada.session()).toBeNull();
			});

			test('passkey step: a challenge of the normal passkey sign-in is refused by the second step', async () => {
				const w = world({});
				const { setup } = await adaWithSecondFactor(w);
				await setup.addPasskey();
				w.clock.now += 60_000;
				const ada = w.browser();
				ada.device.credentials.push(...setup.device.credentials);
				await ada.signInByEmail('ada@example.com');
				const normal = (await (await ada.request('/auth/webauthn-options/passkey?action=authenticate')).json()) as { options: PublicKeyCredentialRequestOptionsJSON };
				const response = ada.device.authenticate(normal.options, { userVerified: false });
				const post = await ada.request('/auth/second-factor/passkey', { json: { csrfToken: await ada.client.csrfToken(), data: response } });
				expect(post.status).toBe(400);
				expect(await ada.session()).toBeNull();
			});

			test('step-up: a passkey sign-in without user verification that skipped the second step on a trusted browser is not recent', async () => {
				const w = world({ trustBrowserDays: 30 });
				const { setup, secret } = await adaWithSecondFactor(w);
				await setup.addPasskey();
				w.clock.now += 60_000;
				const ada = w.browser();
				ada.device.credentials.push(...setup.device.credentials);
				await signInTrusting(w, ada, secret);
				await ada.signOut();
				w.clock.now += 60_000;
				const options = (await (await ada.request('/auth/webauthn-options/passkey?action=authenticate')).json()) as { options: PublicKeyCredentialRequestOptionsJSON };
				const done = await ada.request('/auth/callback/passkey', { json: { csrfToken: await ada.client.csrfToken(), action: 'authenticate', data: ada.device.authenticate(options.options, { userVerified: false }) } });
				expect(done.status).toBe(200);
				expect((await ada.session())?.user?.email).toBe('ada@example.com');
				const overview = (await (await ada.request('/auth/account')).json()) as { freshUntil: string | null };
				expect(overview.freshUntil).toBeNull();
				expect((await ada.changeJson('delete')).status).toBe(403);
			});

			test('malformed bodies on the second step and its passkey route answer 4xx, never 500', async () => {
				const w = world({ required: true });
				const ada = await w.signedIn();
				const csrfToken = await ada.client.csrfToken();
				const bodies: Record<string, unknown>[] = [
					{ csrfToken, code: ['123456', '654321'] },
					{ csrfToken, code: { a: 1 } },
					{ csrfToken, code: 123456 },
					{ csrfToken, code: 'x'.repeat(100_000) },
					{ csrfToken, pending: ['a', 'b'], code: '123456' },
					{ csrfToken, pending: { x: 1 }, code: '123456' },
					{ csrfToken, pending: 'x'.repeat(100_000), code: '123456' },
					{ csrfToken, pending: 12, code: null },
					{ csrfToken: [csrfToken], code: '123456' },
					{ csrfToken: { token: csrfToken } },
					{}
				];
				for (const body of bodies) {
					const answer = await ada.request('/auth/second-factor', { json: body });
					expect(answer.status, JSON.stringify(body).slice(0, 80)).toBeGreaterThanOrEqual(400);
					expect(answer.status, JSON.stringify(body).slice(0, 80)).toBeLessThan(500);
				}
				const form = await ada.request('/auth/second-factor', { form: { csrfToken, pending: 'x'.repeat(50_000), code: '1'.repeat(50_000) } });
				expect(form.status).toBeLessThan(500);

				// a user with a factor and a passkey: the passkey route
				const v = world({});
				const { setup } = await adaWithSecondFactor(v);
				await setup.addPasskey();
				v.clock.now += 60_000;
				const b = await v.signedIn();
				const token = await b.client.csrfToken();
				const datas: unknown[] = [
					'string',
					['a'],
					{},
					null,
					{ id: 1, response: null },
					{ id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 123 } },
					{ id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: '!!!notbase64', authenticatorData: [], signature: {} } },
					{ id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: Buffer.from('{"challenge":{}}').toString('base64url') } },
					{ id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: Buffer.from('[1,2]').toString('base64url') } },
					{ id: 'x'.repeat(100_000), response: { clientDataJSON: 'y'.repeat(100_000) } }
				];
				for (const data of datas) {
					await b.request('/auth/second-factor/passkey');
					const answer = await b.request('/auth/second-factor/passkey', { json: { csrfToken: token, data } });
					expect(answer.status, JSON.stringify(data).slice(0, 80)).toBeGreaterThanOrEqual(400);
					expect(answer.status, JSON.stringify(data).slice(0, 80)).toBeLessThan(500);
				}
				const asForm = await b.request('/auth/second-factor/passkey', { form: { csrfToken: token, data: 'x' } });
				expect(asForm.status).toBeLessThan(500);
				const wrongStep = await b.request('/auth/second-factor/other', { json: { csrfToken: token } });
				expect(wrongStep.status).toBeLessThan(500);
			});
		});
	});
});
