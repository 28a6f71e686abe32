// The design tokens and the CSS built from them: WCAG AA contrast of the default palettes, the
// Tailwind-built page CSS on the tokens, and the shipped component stylesheet (tokens anyone can override).

import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { componentsCssFile } from '../../../../scripts/build-css.js';
import { defaultPalettes, embeddedTokenCss, tokenDeclarations, tokenName } from '../../styles/tokens.js';
import { contrastRatio } from './colors.js';
import { PAGE_CSS } from './compiled/page-css.js';
import { themeStyles } from './theme.js';

describe('default palettes', () => {
	test.each(['light', 'dark'] as const)('%s: text 4.5:1, borders and focus 3:1 (WCAG AA)', (scheme) => {
		const p = defaultPalettes[scheme];
		for (const [fg, bg] of [
			[p.text, p.card],
			[p.text, p.bg],
			[p.muted, p.card],
			[p.muted, p.bg],
			[p.link, p.card],
			[p.link, p.bg],
			[p.text, p.inputBg],
			[p.alertText, p.alertBg],
			[p.brandText, p.brand]
		]) {
			expect(contrastRatio(fg, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
		}
		for (const [fg, bg] of [
			[p.border, p.card],
			[p.border, p.inputBg],
			[p.focus, p.card],
			[p.focus, p.bg]
		]) {
			expect(contrastRatio(fg, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(3);
		}
	});

	test('every palette field becomes a --kg-* custom property, with radius and font', () => {
		expect(tokenName('inputBg')).toBe('--kg-input-bg');
		const declarations = tokenDeclarations(defaultPalettes.light);
		for (const field of Object.keys(defaultPalettes.light)) expect(declarations).toContain(`${tokenName(field)}:`);
		expect(declarations).toMatch(/--kg-radius:0\.5rem/);
		expect(declarations).toMatch(/--kg-font:system-ui/);
	});
});

describe('page CSS (Tailwind at build time)', () => {
	test('the shared classes are built on the tokens, not on fixed colours', () => {
		expect(PAGE_CSS).toMatch(/\.kg-button\{[^}]*background-color:var\(--kg-brand\)/);
		expect(PAGE_CSS).toMatch(/\.kg-alert\{[^}]*color:var\(--kg-alert-text\)/);
		expect(PAGE_CSS).toMatch(/body\{[^}]*font-family:var\(--kg-font\)/);
		expect(PAGE_CSS).toMatch(/:focus-visible\{[^}]*outline-color:var\(--kg-focus\)/);
		expect(PAGE_CSS).not.toMatch(/@apply|@theme|@import/);
	});

	test('themeStyles puts the chosen scheme\'s tokens and a sanitised brand colour before it', () => {
		const dark = themeStyles({ colorScheme: 'dark', brandColor: '#ff5a1f' });
		expect(dark.startsWith(`:root{color-scheme:dark;${tokenDeclarations(defaultPalettes.dark)}}`)).toBe(true);
		expect(dark).toContain(':root{--kg-brand:#ff5a1f;--kg-brand-text:#000}');
		expect(dark.endsWith(PAGE_CSS)).toBe(true);
		expect(themeStyles({ colorScheme: 'light' })).toContain(tokenDeclarations(defaultPalettes.light));
		expect(themeStyles({})).toContain('@media (prefers-color-scheme: dark){:root{');
	});
});

describe('kitgate/styles.css (the components\' stylesheet)', () => {
	const css = readFileSync(componentsCssFile, 'utf8');

	test('starts with the tokens at zero specificity, so any app rule overrides them', () => {
		expect(css).toContain(embeddedTokenCss());
		expect(embeddedTokenCss()).toMatch(/^:where\(:root\)\{--kg-brand:/);
		// the switches of a minifier's light-dark() rewrite default to light, below any color-scheme the app declares
		expect(embeddedTokenCss()).toContain('@layer base{:where(:root){--lightningcss-light:initial;--lightningcss-dark: }}');
		expect(embeddedTokenCss()).toContain(':where([data-kg-theme=dark]){color-scheme:dark}');
	});

	test('each colour follows the app\'s color-scheme: light-dark(light, dark) of the two palettes', () => {
		const tokens = embeddedTokenCss();
		for (const field of Object.keys(defaultPalettes.light) as (keyof typeof defaultPalettes.light)[]) {
			const [light, dark] = [defaultPalettes.light[field], defaultPalettes.dark[field]];
			expect(tokens).toContain(`${tokenName(field)}:${light === dark ? light : `light-dark(${light},${dark})`}`);
		}
		// no media query: an app that declares no color-scheme stays light in a dark system, as its own page does
		expect(tokens).not.toContain('prefers-color-scheme');
	});

	test('styles only kitgate\'s own classes: no reset of the app\'s body, html or elements', () => {
		const rules = css.replace(/@layer properties\{[\s\S]*?\}\}\}/, '').replace(/@property[^{]+\{[^}]*\}/g, '');
		expect(rules).not.toMatch(/(^|[},])(body|html|button|input|a|:root|:focus-visible)\s*[{,]/);
		expect(rules).not.toMatch(/(^|[}\s])\*[,{]/);
		expect(rules).toContain('.kg-form');
		expect(rules).toContain('.kg-card');
	});

	test('the one rule for the page is a font for an app that has none, in the base layer at zero specificity', () => {
		const rules = css
			.replace(/\/\*[\s\S]*?\*\//g, '')
			.replace(/@layer properties\{[\s\S]*?\}\}\}/, '')
			.replace(/@property[^{]+\{[^}]*\}/g, '')
			.replace(/@[a-z-]+[^{;]*\{/g, '{');
		const selectors = [...rules.matchAll(/([^{};]+)\{/g)].map((match) => match[1].trim());
		const tokenRules = [':where(:root)', ':where([data-kg-theme=light])', ':where([data-kg-theme=dark])'];
		const outside = selectors.filter((selector) => selector && !selector.includes('kg-') && !tokenRules.includes(selector));
		expect(outside).toEqual([':where(html)']);
		expect(css).toContain('@layer base{:where(html){font-family:var(--kg-font)}}');
	});
});
