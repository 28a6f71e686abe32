// The stylesheet of the built-in pages: design tokens (light and dark) from `theme`, and the layout.
// Internal to kitgate; users change it through the `theme` option of the config.

import type { Theme } from '../core/types.js';
import { contrastText, sanitizeColor } from './colors.js';

export { contrastText, sanitizeColor } from './colors.js';

/** The colour tokens of one colour scheme (values of the `--kg-*` custom properties). */
export interface Palette {
	brand: string;
	brandText: string;
	bg: string;
	card: string;
	text: string;
	muted: string;
	/** Borders of inputs and outlined buttons: at least 3:1 against the card. */
	border: string;
	/** Decorative lines (card edge, "or" divider). */
	divider: string;
	focus: string;
	link: string;
	inputBg: string;
	alertBg: string;
	alertText: string;
	alertBorder: string;
}

/**
 * The default palettes. Every text/background pair meets WCAG AA (4.5:1), and borders and
 * focus rings meet 3:1, in both schemes (checked by `theme.test.ts`).
 */
export const defaultPalettes: Readonly<Record<'light' | 'dark', Readonly<Palette>>> = {
	light: {
		brand: '#4361ee',
		brandText: '#fff',
		bg: '#f3f4f7',
		card: '#ffffff',
		text: '#1b1e24',
		muted: '#596070',
		border: '#858b98',
		divider: '#dfe2e8',
		focus: '#1d4ed8',
		link: '#2f4bd0',
		inputBg: '#ffffff',
		alertBg: '#fdeded',
		alertText: '#8b1a1a',
		alertBorder: '#f2b8b8'
	},
	dark: {
		brand: '#4361ee',
		brandText: '#fff',
		bg: '#0f1115',
		card: '#1a1d23',
		text: '#e9ebef',
		muted: '#a5abb8',
		border: '#6e7584',
		divider: '#2d313a',
		focus: '#8ab4ff',
		link: '#9db4ff',
		inputBg: '#111318',
		alertBg: '#3a1618',
		alertText: '#ffd0d0',
		alertBorder: '#7d2f33'
	}
};

/**
 * Returns `url` if it is safe as an image source: a relative URL, `http:`/`https:`, or a
 * `data:image/…` URL. Anything else (`javascript:`, other schemes, control characters) gives
 * `undefined`.
 *
 * @example safeImageUrl('javascript:alert(1)') // undefined
 */
export function safeImageUrl(url: unknown): string | undefined {
	if (typeof url !== 'string' || url.length > 8192) return undefined;
	// browsers trim C0 controls and spaces, and drop tabs and newlines anywhere ("java\tscript:")
	// eslint-disable-next-line no-control-regex -- matching control characters is the point
	const value = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
	// eslint-disable-next-line no-control-regex -- matching control characters is the point
	if (!value || /[\u0000-\u001f\u007f]/.test(value)) return undefined;
	const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1].toLowerCase();
	if (scheme === undefined || scheme === 'https' || scheme === 'http') return value;
	if (scheme === 'data' && /^data:image\/(png|gif|jpeg|webp|avif|svg\+xml)[;,]/i.test(value)) return value;
	return undefined;
}

const FONT_STACK =
	'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", Arial, sans-serif';

/**
 * Returns the CSS of the built-in pages for `theme`. Colours from the config are used only if
 * they pass `sanitizeColor`; anything else is ignored, so config can never inject CSS.
 *
 * @example themeStyles({ colorScheme: 'dark', brandColor: '#ff5a1f' })
 */
export function themeStyles(theme: Theme = {}): string {
	const scheme = theme.colorScheme === 'light' || theme.colorScheme === 'dark' ? theme.colorScheme : 'auto';
	const tokens =
		scheme === 'auto'
			? `:root{color-scheme:light dark;${tokenDeclarations(defaultPalettes.light)}}` +
				`@media (prefers-color-scheme: dark){:root{${tokenDeclarations(defaultPalettes.dark)}}}`
			: `:root{color-scheme:${scheme};${tokenDeclarations(defaultPalettes[scheme])}}`;
	return tokens + brandOverrides(theme) + LAYOUT;
}

/** Custom properties for the configured brand colour and button text, if valid. */
function brandOverrides(theme: Theme): string {
	const brand = sanitizeColor(theme.brandColor);
	const buttonText = sanitizeColor(theme.buttonText);
	if (!brand && !buttonText) return '';
	const declarations = [
		brand && `--kg-brand:${brand}`,
		`--kg-brand-text:${buttonText ?? contrastText(brand ?? defaultPalettes.light.brand)}`
	];
	// comes after the scheme rules, so it wins over the dark defaults of the media query too
	return `:root{${declarations.filter(Boolean).join(';')}}`;
}

function tokenDeclarations(p: Palette): string {
	return [
		`--kg-brand:${p.brand}`,
		`--kg-brand-text:${p.brandText}`,
		`--kg-bg:${p.bg}`,
		`--kg-card:${p.card}`,
		`--kg-text:${p.text}`,
		`--kg-muted:${p.muted}`,
		`--kg-border:${p.border}`,
		`--kg-divider:${p.divider}`,
		`--kg-focus:${p.focus}`,
		`--kg-link:${p.link}`,
		`--kg-input-bg:${p.inputBg}`,
		`--kg-alert-bg:${p.alertBg}`,
		`--kg-alert-text:${p.alertText}`,
		`--kg-alert-border:${p.alertBorder}`,
		`--kg-radius:0.5rem`,
		`--kg-font:${FONT_STACK}`
	].join(';');
}

// Layout and components. Class names are prefixed with `kg-`; only tokens change per theme.
const LAYOUT = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;min-height:100vh;min-height:100dvh;display:flex;align-items:center;justify-content:center;background:var(--kg-bg);color:var(--kg-text);font-family:var(--kg-font);font-size:1rem;line-height:1.5}
.kg-page{width:100%;max-width:23rem;padding:2.5rem 1rem;display:flex;flex-direction:column;align-items:center;gap:1.5rem}
.kg-logo{display:block;max-width:12rem;max-height:3.5rem;object-fit:contain}
.kg-card{width:100%;background:var(--kg-card);border:1px solid var(--kg-divider);border-radius:calc(var(--kg-radius) * 1.5);padding:2rem 1.5rem;box-shadow:0 1px 2px rgb(0 0 0 / 0.04),0 12px 32px -12px rgb(0 0 0 / 0.12)}
.kg-card h1{margin:0 0 1.5rem;font-size:1.375rem;line-height:1.3;font-weight:650;letter-spacing:-0.01em;text-align:center}
.kg-text{margin:0 0 1.5rem;color:var(--kg-muted);text-align:center}
.kg-code{margin:-0.75rem 0 1.5rem;color:var(--kg-muted);font-size:0.8125rem;text-align:center}
.kg-alert{margin:0 0 1.5rem;padding:0.75rem 0.875rem;border:1px solid var(--kg-alert-border);border-radius:var(--kg-radius);background:var(--kg-alert-bg);color:var(--kg-alert-text);font-size:0.9375rem}
.kg-group,.kg-form{display:flex;flex-direction:column;gap:0.75rem;margin:0}
.kg-field{display:flex;flex-direction:column;gap:0.375rem}
.kg-field label{font-size:0.875rem;font-weight:550}
.kg-field input{width:100%;margin:0;padding:0.625rem 0.75rem;font:inherit;color:var(--kg-text);background:var(--kg-input-bg);border:1px solid var(--kg-border);border-radius:var(--kg-radius)}
.kg-field input::placeholder{color:var(--kg-muted);opacity:1}
.kg-button{display:flex;align-items:center;justify-content:center;gap:0.625rem;width:100%;min-height:2.75rem;margin:0;padding:0.625rem 1rem;font:inherit;font-weight:600;line-height:1.25;text-align:center;text-decoration:none;color:var(--kg-brand-text);background:var(--kg-brand);border:1px solid transparent;border-radius:var(--kg-radius);cursor:pointer}
.kg-button:hover{filter:brightness(0.92)}
.kg-button:disabled{cursor:not-allowed;opacity:0.6;filter:none}
.kg-provider{color:var(--kg-text);background:var(--kg-card);border-color:var(--kg-border)}
.kg-provider img{width:1.25rem;height:1.25rem;object-fit:contain;flex:none}
.kg-divider{display:flex;align-items:center;gap:0.75rem;margin:1.25rem 0;color:var(--kg-muted);font-size:0.875rem}
.kg-divider::before,.kg-divider::after{content:"";flex:1;border-top:1px solid var(--kg-divider)}
.kg-hint{margin:0;color:var(--kg-muted);font-size:0.875rem;text-align:center}
.kg-links{display:flex;flex-wrap:wrap;justify-content:center;gap:0.5rem 1.5rem;margin:1.5rem 0 0;font-size:0.9375rem}
.kg-link{color:var(--kg-link);text-underline-offset:0.2em}
:focus-visible{outline:3px solid var(--kg-focus);outline-offset:2px}
.kg-field input:focus-visible{outline-offset:0;border-color:var(--kg-focus)}
@media (prefers-reduced-motion: no-preference){.kg-button{transition:filter 120ms ease}}
`
	.trim()
	.replace(/\n/g, '');
