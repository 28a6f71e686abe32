// The worlds an attack test over HTTP repeats its tests in: each integration, each adapter (when the
// test gives them), each session strategy, in describe blocks named "express", "memory adapter",
// "jwt sessions". The test's own set-up and tests go inside, once.

import { describe } from 'vitest';
import { MemoryAdapter } from '../../../adapters/memory.js';
import type { Adapter } from '../../types.js';
import { INTEGRATIONS, type AppServer, type Integration } from '../integrations.js';
import { STRATEGIES, type Strategy } from './flows.js';

/** One world: its app (started by `attackWorld`), session strategy and a maker of fresh adapters. */
export interface AppWorld {
	integration: Integration;
	strategy: Strategy;
	/** The app of this integration (read in hooks and tests: the apps start in a `beforeAll`). */
	app(): AppServer;
	/** A fresh adapter of this world's kind (memory when the test gives no adapters). */
	makeAdapter: () => Required<Adapter>;
}

/**
 * Runs `tests` in a describe block for each integration × adapter × session strategy, or, without
 * `adapters`, for each integration × session strategy on memory.
 *
 * @example
 * const world = attackWorld({ sink: true });
 * describeEachApp(world, ({ app, strategy, makeAdapter }) => {
 * 	beforeAll(() => app().use(attackConfig(makeAdapter(), strategy)));
 * 	test('…', async () => { … });
 * }, memoryAndSqliteAdapters('my-attack'));
 */
export function describeEachApp(
	world: { apps: Record<Integration, AppServer> },
	tests: (app: AppWorld) => void,
	adapters?: [string, () => Required<Adapter>][]
): void {
	const eachStrategy = (integration: Integration, makeAdapter: () => Required<Adapter>) =>
		describe.each(STRATEGIES)('%s sessions', (strategy) => tests({ integration, strategy, app: () => world.apps[integration], makeAdapter }));
	describe.each(INTEGRATIONS)('%s', (integration) => {
		if (!adapters) return eachStrategy(integration, MemoryAdapter);
		describe.each(adapters)('%s adapter', (_adapterName, makeAdapter) => eachStrategy(integration, makeAdapter));
	});
}
