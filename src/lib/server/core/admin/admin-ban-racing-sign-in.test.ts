// A ban racing a sign-in, through `Auth()` on memory and SQLite under both session strategies: the
// admin's ban lands right after the sign-in checked that the user is not banned, before its
// session is written. The sign-in must not end with a working session of the banned user.

import { describe, expect, test } from 'vitest';
import { memoryAndSqliteAdapters, SESSION_STRATEGIES } from '../test/stored-adapters.js';
import { adminWorld } from '../test/admin-fixture.js';
import { confirmationForm } from '../test/email-fixtures.js';
import type { Adapter } from '../types.js';

const adapters = memoryAndSqliteAdapters('admin-ban-racing-sign-in');

describe.each(adapters)('%s adapter', (_name, makeAdapter) => {
	describe.each(SESSION_STRATEGIES)('%s sessions', (strategy) => {
		// the sign-in reads the user's admin record more than once: the ban lands after each read in turn
		test.each([1, 2, 3, 4])('a ban landing after the sign-in\'s read %i of the admin record leaves no session of the banned user', async (nth) => {
			const adapter = makeAdapter();
			// armed: the nth read of this user's admin record answers what it read, then the ban lands
			let raceOn: string | undefined;
			let reads = 0;
			const race: { banLands?: () => Promise<void> } = {};
			const racing = new Proxy(adapter, {
				get(target, key, receiver) {
					if (key !== 'getUserAdmin') return Reflect.get(target, key, receiver);
					return async (userId: string) => {
						const record = await target.getUserAdmin(userId);
						if (raceOn === userId && race.banLands && ++reads === nth) {
							raceOn = undefined;
							await race.banLands();
						}
						return record;
					};
				}
			});
			const world = adminWorld(racing as Adapter, strategy);
			const admin = await world.signedInAdmin();
			const first = await world.signedInUser('bob@example.com');
			const bob = first.user;
			race.banLands = async () => {
				const banned = await admin.postJson('ban', { userId: bob.id, reason: 'race' });
				expect(banned.status).toBe(200);
			};

			// bob signs in again in another browser: the link is asked for, then used while the ban lands
			const browser = world.adminBrowser();
			const csrfToken = await browser.client.csrfToken();
			expect((await browser.request('/auth/signin/email', { form: { csrfToken, email: 'bob@example.com', callbackUrl: '/' } })).status).toBe(302);
			const link = world.links.filter((l) => l.to === 'bob@example.com').at(-1)!;
			const { action, fields } = confirmationForm(await (await browser.request(link.url)).text());
			raceOn = bob.id;
			await browser.request(action, { form: fields });
			// fewer reads than nth: this read does not happen, nothing raced (the ban is then made at once)
			if (raceOn !== undefined) {
				raceOn = undefined;
				await race.banLands();
			}
			expect((await world.adapter.getUserAdmin(bob.id))?.bannedAt).not.toBeNull();

			world.clock.now += 1000;
			expect(await browser.session()).toBeNull();
			expect(await first.session()).toBeNull();
			world.clock.now += 2 * 86_400_000;
			expect(await browser.session()).toBeNull();
		});
	});
});
