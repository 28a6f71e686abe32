// Tests of the page theme: colour validation (config must never inject CSS), contrast choice,
// safe logo URLs, light/dark/auto stylesheets and WCAG AA of the default palettes.

import { describe, expect, test } from 'vitest';
import { contrastRatio, parseColor } from './colors.js';
import { contrastText, defaultPalettes, safeImageUrl, sanitizeColor, themeStyles } from './theme.js';

const hostileColors = [
	'red;} body{display:none',
	'red; background:url(https://evil.example/x)',
	'#fff</style><script>alert(1)</script>',
	'url(javascript:alert(1))',
	'expression(alert(1))',
	'var(--kg-text)',
	'rgb(1,2,3);color:red',
	'rgb(1,2,3)} *{color:red',
	'hsl(1, 2, 3)',
	'#ffff',
	'#gggggg',
	'"><img src=x onerror=alert(1)>',
	'notacolor',
	'',
	'   '
];

describe('sanitizeColor', () => {
	test.each([
		['#fff', '#fff'],
		['#A1b2C3', '#a1b2c3'],
		['  #123456 ', '#123456'],
		['rgb(10, 20, 30)', 'rgb(10, 20, 30)'],
		['rgb(10 20 30 / 50%)', 'rgb(10 20 30 / 50%)'],
		['rgba(0,0,0,.5)', 'rgba(0,0,0,.5)'],
		['rgb(100%, 50%, 0%)', 'rgb(100%, 50%, 0%)'],
		['hsl(210 50% 40%)', 'hsl(210 50% 40%)'],
		['hsl(210deg, 50%, 40%)', 'hsl(210deg, 50%, 40%)'],
		['RebeccaPurple', 'rebeccapurple'],
		['white', 'white']
	])('accepts %j', (input, expected) => {
		expect(sanitizeColor(input)).toBe(expected);
	});

	test.each(hostileColors)('refuses %j', (input) => {
		expect(sanitizeColor(input)).toBeUndefined();
	});

	test('refuses non-strings and very long strings', () => {
		for (const value of [undefined, null, 123, {}, ['#fff']]) expect(sanitizeColor(value)).toBeUndefined();
		expect(sanitizeColor(`rgb(1, 2, 3${' '.repeat(100)})`)).toBeUndefined();
	});
});

describe('parseColor and contrast', () => {
	test('reads every accepted notation as RGB', () => {
		expect(parseColor('#0af')).toEqual([0, 170, 255]);
		expect(parseColor('#24292f')).toEqual([36, 41, 47]);
		expect(parseColor('rgb(100%, 0%, 50%)')).toEqual([255, 0, 127.5]);
		expect(parseColor('hsl(0, 100%, 50%)')).toEqual([255, 0, 0]);
		expect(parseColor('hsl(120 100% 25%)')).toEqual([0, 128, 0]);
		expect(parseColor('navy')).toEqual([0, 0, 128]);
		expect(parseColor('transparent')).toBeUndefined();
	});

	test('contrast ratios follow WCAG 2', () => {
		expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 5);
		expect(contrastRatio('#777', '#777')).toBeCloseTo(1, 5);
		expect(contrastRatio('#767676', '#fff')).toBeCloseTo(4.54, 2);
	});

	test.each([
		['#ffd700', '#000'],
		['#ffffff', '#000'],
		['yellow', '#000'],
		['rgb(255 255 0)', '#000'],
		['#000080', '#fff'],
		['#24292f', '#fff'],
		['black', '#fff'],
		['hsl(0 0% 10%)', '#fff'],
		['#4361ee', '#fff']
	])('contrastText(%j) is %j', (color, expected) => {
		expect(contrastText(color)).toBe(expected);
	});

	test('contrastText picks the more readable of black and white, and white for unknown input', () => {
		for (const color of ['#e11d48', '#0ea5e9', '#22c55e', '#a855f7', 'orange', 'teal']) {
			const chosen = contrastText(color);
			const other = chosen === '#000' ? '#fff' : '#000';
			expect(contrastRatio(color, chosen)).toBeGreaterThanOrEqual(contrastRatio(color, other));
		}
		expect(contrastText('red;}')).toBe('#fff');
	});
});

describe('safeImageUrl', () => {
	test.each([
		'https://cdn.example.com/logo.svg',
		'http://localhost:5173/logo.png',
		'/logo.png',
		'logo.png',
		'//cdn.example.com/logo.png',
		'data:image/png;base64,iVBORw0KGgo=',
		'data:image/svg+xml,%3Csvg%3E%3C/svg%3E'
	])('keeps %j', (url) => {
		expect(safeImageUrl(url)).toBe(url);
	});

	test.each([
		'javascript:alert(1)',
		'JavaScript:alert(1)',
		'  javascript:alert(1)',
		'java\tscript:alert(1)',
		'java\nscript:alert(1)',
		'\u0001javascript:alert(1)',
		'vbscript:msgbox(1)',
		'data:text/html,<script>alert(1)</script>',
		'file:///etc/passwd',
		'',
		'   '
	])('drops %j', (url) => {
		expect(safeImageUrl(url)).toBeUndefined();
	});

	test('drops non-strings', () => {
		expect(safeImageUrl(undefined)).toBeUndefined();
		expect(safeImageUrl(42)).toBeUndefined();
	});
});

describe('themeStyles', () => {
	const tokens = ['brand', 'brand-text', 'bg', 'card', 'text', 'muted', 'border', 'radius', 'font', 'focus'];

	test('defines every design token', () => {
		const css = themeStyles({});
		for (const token of tokens) expect(css).toContain(`--kg-${token}:`);
	});

	test('auto (the default) follows the system scheme', () => {
		for (const css of [themeStyles({}), themeStyles({ colorScheme: 'auto' })]) {
			expect(css).toMatch(/color-scheme:\s*light dark/);
			expect(css).toMatch(/@media\s*\(prefers-color-scheme:\s*dark\)/);
			expect(css).toContain(defaultPalettes.light.bg);
			expect(css).toContain(defaultPalettes.dark.bg);
		}
	});

	test('light and dark are fixed schemes without the media query', () => {
		const light = themeStyles({ colorScheme: 'light' });
		expect(light).toMatch(/color-scheme:\s*light[;}]/);
		expect(light).toContain(`--kg-bg:${defaultPalettes.light.bg}`);
		expect(light).not.toContain(`--kg-bg:${defaultPalettes.dark.bg}`);

		const dark = themeStyles({ colorScheme: 'dark' });
		expect(dark).toMatch(/color-scheme:\s*dark[;}]/);
		expect(dark).toContain(`--kg-bg:${defaultPalettes.dark.bg}`);
		expect(dark).not.toContain(`--kg-bg:${defaultPalettes.light.bg}`);
	});

	test('an unknown colour scheme counts as auto', () => {
		expect(themeStyles({ colorScheme: 'sepia' as 'auto' })).toMatch(/prefers-color-scheme:\s*dark/);
	});

	test('has visible keyboard focus outlines', () => {
		expect(themeStyles({})).toMatch(/:focus-visible[^{]*\{[^}]*outline[^}]*var\(--kg-focus\)/);
	});

	test('a valid brand colour sets the brand token and a contrasting button text', () => {
		const css = themeStyles({ brandColor: '#ffd700' });
		expect(css).toContain('--kg-brand:#ffd700');
		expect(css).toContain('--kg-brand-text:#000');
		expect(themeStyles({ brandColor: 'Navy' })).toContain('--kg-brand-text:#fff');
	});

	test('the brand colour wins over the dark defaults in auto mode', () => {
		const css = themeStyles({ brandColor: '#ff5a1f' });
		expect(css.indexOf('--kg-brand:#ff5a1f')).toBeGreaterThan(css.indexOf(`--kg-bg:${defaultPalettes.dark.bg}`));
	});

	test('a valid buttonText overrides the computed text colour', () => {
		expect(themeStyles({ brandColor: '#ffd700', buttonText: '#333' })).toContain('--kg-brand-text:#333');
	});

	test.each(hostileColors)('ignores the hostile colour %j', (hostile) => {
		const css = themeStyles({ brandColor: hostile, buttonText: hostile });
		expect(css).toBe(themeStyles({}));
		expect(css).not.toContain('</style');
	});
});

describe('default palettes meet WCAG AA', () => {
	const AA_TEXT = 4.5;
	const AA_NON_TEXT = 3;

	describe.each(['light', 'dark'] as const)('%s', (scheme) => {
		const p = defaultPalettes[scheme];

		test.each([
			['text on card', p.text, p.card],
			['text on page', p.text, p.bg],
			['muted on card', p.muted, p.card],
			['muted on page', p.muted, p.bg],
			['placeholder (muted) in input', p.muted, p.inputBg],
			['text in input', p.text, p.inputBg],
			['link on card', p.link, p.card],
			['button text on brand', p.brandText, p.brand],
			['alert text on alert', p.alertText, p.alertBg]
		])('%s ≥ 4.5:1', (_, foreground, background) => {
			expect(contrastRatio(foreground, background)).toBeGreaterThanOrEqual(AA_TEXT);
		});

		test.each([
			['input border on card', p.border, p.card],
			['input border on input', p.border, p.inputBg],
			['focus ring on card', p.focus, p.card],
			['focus ring on page', p.focus, p.bg]
		])('%s ≥ 3:1', (_, foreground, background) => {
			expect(contrastRatio(foreground, background)).toBeGreaterThanOrEqual(AA_NON_TEXT);
		});
	});
});
