// axe on a page of the Chromium component tests (admin, organization): WCAG 2 A/AA rules and best
// practices, no serious or critical violation.

import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from 'vitest';

/**
 * Runs axe on `page` and expects no serious or critical violation; `name` labels a failure.
 *
 * @example
 * await expectNoSeriousViolations(page, 'bare owner light');
 */
export async function expectNoSeriousViolations(page: Page, name: string): Promise<void> {
	// axe.run in the page itself: the default mode also opens a blank page to merge the frames' results
	// (0.3 s instead of 1 s a page; these pages have no frames, the results are the same): a frame fails here
	expect(page.frames(), 'a page without frames').toHaveLength(1);
	const { violations } = await new AxeBuilder({ page }).setLegacyMode().withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
	const serious = violations
		.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
		.map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
	expect(serious, `axe on ${name}`).toEqual([]);
}
