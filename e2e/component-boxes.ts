// Measured layout of kitgate's components in a page, shared by the demo's UI tests and the
// real-app tests: no control wider than its card, a gap between stacked forms, SignOut no wider
// than its label needs, and which font the components use.

import { expect, type Locator, type Page } from '@playwright/test';

/** Box measurements of the whole sign-in (`<SignIn />`): what the tests assert, also reported. */
export interface SignInBoxes {
	card: { width: number; left: number; right: number; bottom: number };
	/** The widest input or button, and how far any sticks out of the card's padding box. */
	widestControl: number;
	overflow: number;
	/** The smallest vertical gap between two forms or a form and a divider. */
	smallestGap: number;
	forms: number;
}

/** Measures the whole sign-in in `card` (a `.kg-signin-all`) and checks its boxes. */
export async function expectSignInBoxes(card: Locator): Promise<SignInBoxes> {
	const boxes = await card.evaluate((element) => {
		const cardBox = element.getBoundingClientRect();
		const style = getComputedStyle(element);
		const inner = { left: cardBox.left + parseFloat(style.paddingLeft), right: cardBox.right - parseFloat(style.paddingRight) };
		const controls = [...element.querySelectorAll('input:not([type=hidden]), button')].map((control) => control.getBoundingClientRect());
		const blocks = [...element.children].map((child) => child.getBoundingClientRect()).filter((box) => box.height > 0);
		const gaps = blocks.slice(1).map((box, i) => box.top - blocks[i].bottom);
		return {
			card: { width: cardBox.width, left: cardBox.left, right: cardBox.right, bottom: cardBox.bottom },
			widestControl: Math.max(...controls.map((box) => box.width)),
			overflow: Math.max(0, ...controls.map((box) => Math.max(inner.left - box.left, box.right - inner.right))),
			smallestGap: Math.min(...gaps),
			forms: element.querySelectorAll('form').length
		};
	});
	expect(boxes.overflow, 'no control sticks out of the card').toBeLessThanOrEqual(0.5);
	expect(boxes.widestControl, 'no control wider than its card').toBeLessThanOrEqual(boxes.card.width);
	expect(boxes.card.width, 'the card keeps a sign-in width').toBeLessThanOrEqual(24 * 16 + 1);
	expect(boxes.smallestGap, 'stacked forms keep apart').toBeGreaterThanOrEqual(8);
	return boxes;
}

/** The sign-out button's width against what its label needs (text plus padding and border). */
export async function expectCompactSignOut(button: Locator): Promise<{ width: number; needed: number }> {
	const sizes = await button.evaluate((element) => {
		const style = getComputedStyle(element);
		const range = document.createRange();
		range.selectNodeContents(element);
		const text = range.getBoundingClientRect().width;
		const chrome = ['paddingLeft', 'paddingRight', 'borderLeftWidth', 'borderRightWidth'].reduce((sum, key) => sum + parseFloat(style[key as 'paddingLeft']), 0);
		return { width: element.getBoundingClientRect().width, needed: text + chrome };
	});
	expect(sizes.width, 'SignOut no wider than its label needs').toBeLessThanOrEqual(sizes.needed + 2);
	return sizes;
}

/** The first family of an element's computed font. */
export async function fontOf(locator: Locator): Promise<string> {
	return locator.evaluate((element) => getComputedStyle(element).fontFamily);
}

/** Opens UserButton's menu from the keyboard, checks it, closes it with Escape (focus back on the avatar). */
export async function expectKeyboardUserMenu(page: Page, userName: string): Promise<void> {
	const summary = page.locator('.kg-userbutton > summary');
	await expect(summary).toHaveAttribute('aria-label', `Account menu of ${userName}`);
	await summary.focus();
	await page.keyboard.press('Enter');
	const menu = page.locator('.kg-userbutton .kg-menu');
	await expect(menu).toBeVisible();
	await expect(menu.getByRole('button', { name: 'Sign out' })).toBeVisible();
	await page.keyboard.press('Tab');
	await page.keyboard.press('Escape');
	await expect(menu).toBeHidden();
	await expect(summary).toBeFocused();
}
