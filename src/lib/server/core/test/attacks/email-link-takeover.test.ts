// Attack: the victim is signed in; the attacker gets the victim's browser to open and confirm a
// sign-in link for an address the attacker controls. Following an email link must never attach
// that address to the signed-in user: the browser is signed in as the address's own user instead,
// and the attacker's own later sign-in never lands in the victim's account.

import { beforeAll, describe, expect, test } from 'vitest';
import { everyAdapter } from '../../../adapters/test/every-adapter.js';
import type { Adapter } from '../../types.js';
import { sinkProvider } from '../email-fixtures.js';
import { Browser, INTEGRATIONS } from '../integrations.js';
import { address, attackConfig, attackWorld, confirmLink, linkFor, requestLink, sessionOf, signInByEmail, STRATEGIES } from './flows.js';

const world = attackWorld({ sink: true });

const adapters = everyAdapter('email-takeover');

describe.each(INTEGRATIONS)('%s', (integration) => {
	describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
		describe.each(STRATEGIES)('%s sessions', (strategy) => {
			let adapter: Required<Adapter>;
			const app = () => world.apps[integration];
			beforeAll(() => {
				adapter = makeAdapter();
			});

			test("a link the attacker had mailed to themself, opened in the victim's signed-in browser, is not linked to the victim", async () => {
				app().use(attackConfig(adapter, strategy, { providers: [sinkProvider(world.sink)] }));
				const victimEmail = address('victim');
				const attackerEmail = address('attacker', 'evil.test');

				const victim = new Browser();
				await signInByEmail(victim, app(), world.sink, victimEmail);
				const victimSession = await sessionOf(victim, app());
				expect(victimSession?.user?.email).toBe(victimEmail);
				const victimId = victimSession?.user?.id as string;

				// the attacker asks for a link to their own mailbox and gets the victim to confirm it
				const attacker = new Browser();
				expect((await requestLink(attacker, app(), attackerEmail)).status).toBe(302);
				const confirmed = await confirmLink(victim, linkFor(world.sink, attackerEmail));
				expect(confirmed.status).toBe(302);

				// the address is not the victim's: the victim's browser now belongs to the address's own user
				expect(await adapter.getUserByAccount({ provider: 'email', providerAccountId: attackerEmail })).not.toMatchObject({ id: victimId });
				expect((await adapter.getUser(victimId))?.email).toBe(victimEmail);
				const switched = await sessionOf(victim, app());
				expect(switched?.user?.email).toBe(attackerEmail);
				expect(switched?.user?.id).not.toBe(victimId);

				// the attacker signs in with a fresh link to their own mailbox: their own user, never the victim
				world.sink.clear();
				await signInByEmail(attacker, app(), world.sink, attackerEmail);
				const attackerSession = await sessionOf(attacker, app());
				expect(attackerSession?.user?.email).toBe(attackerEmail);
				expect(attackerSession?.user?.id).not.toBe(victimId);
				// and the victim's own sign-in still leads to the victim's account
				world.sink.clear();
				const again = new Browser();
				await signInByEmail(again, app(), world.sink, victimEmail);
				expect((await sessionOf(again, app()))?.user?.id).toBe(victimId);
			});
		});
	});
});
