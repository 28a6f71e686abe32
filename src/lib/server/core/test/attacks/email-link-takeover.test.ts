// Attack: the victim is signed in; the attacker gets the victim's browser to open and confirm a
// sign-in link for an address the attacker controls. Following an email link must never attach
// that address to the signed-in user: the browser is signed in as the address's own user instead,
// and the attacker's own later sign-in never lands in the victim's account.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { everyAdapter } from '../../../adapters/test/every-adapter.js';
import type { Adapter } from '../../types.js';
import { sinkProvider, startSink, type MailSink } from '../email-fixtures.js';
import { Browser, INTEGRATIONS, startApps } from '../integrations.js';
import { STRATEGIES, address, attackConfig, confirmLink, linkFor, requestLink, sessionOf, signInByEmail } from './flows.js';

let apps: Awaited<ReturnType<typeof startApps>>;
let sink: MailSink;
beforeAll(async () => {
	[apps, sink] = await Promise.all([startApps(), startSink()]);
});
afterAll(async () => {
	await Promise.all([apps.closeAll(), sink.close()]);
});

const adapters = everyAdapter('email-takeover');

describe.each(INTEGRATIONS)('%s', (integration) => {
	describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
		describe.each(STRATEGIES)('%s sessions', (strategy) => {
			let adapter: Required<Adapter>;
			const app = () => apps[integration];
			beforeAll(() => {
				adapter = makeAdapter();
			});

			test("a link the attacker had mailed to themself, opened in the victim's signed-in browser, is not linked to the victim", async () => {
				app().use(attackConfig(adapter, strategy, { providers: [sinkProvider(sink)] }));
				const victimEmail = address('victim');
				const attackerEmail = address('attacker', 'evil.test');

				const victim = new Browser();
				await signInByEmail(victim, app(), sink, victimEmail);
				const victimSession = await sessionOf(victim, app());
				expect(victimSession?.user?.email).toBe(victimEmail);
				const victimId = victimSession?.user?.id as string;

				// the attacker asks for a link to their own mailbox and gets the victim to confirm it
				const attacker = new Browser();
				expect((await requestLink(attacker, app(), attackerEmail)).status).toBe(302);
				const confirmed = await confirmLink(victim, linkFor(sink, attackerEmail));
				expect(confirmed.status).toBe(302);

				// the address is not the victim's: the victim's browser now belongs to the address's own user
				expect(await adapter.getUserByAccount({ provider: 'email', providerAccountId: attackerEmail })).not.toMatchObject({ id: victimId });
				expect((await adapter.getUser(victimId))?.email).toBe(victimEmail);
				const switched = await sessionOf(victim, app());
				expect(switched?.user?.email).toBe(attackerEmail);
				expect(switched?.user?.id).not.toBe(victimId);

				// the attacker signs in with a fresh link to their own mailbox: their own user, never the victim
				sink.clear();
				await signInByEmail(attacker, app(), sink, attackerEmail);
				const attackerSession = await sessionOf(attacker, app());
				expect(attackerSession?.user?.email).toBe(attackerEmail);
				expect(attackerSession?.user?.id).not.toBe(victimId);
				// and the victim's own sign-in still leads to the victim's account
				sink.clear();
				const again = new Browser();
				await signInByEmail(again, app(), sink, victimEmail);
				expect((await sessionOf(again, app()))?.user?.id).toBe(victimId);
			});
		});
	});
});
