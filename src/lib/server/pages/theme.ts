// The stylesheet of the built-in pages: design tokens (light, dark or both) from `theme`, then the
// page CSS built by Tailwind (src/styles/pages.tailwind.css). Users change it through `theme`.

import type { Theme } from './types.js';
import { defaultPalettes, tokenDeclarations, type Palette } from '../../styles/tokens.js';
import { contrastText, sanitizeColor } from './colors.js';
import { PAGE_CSS } from './compiled/page-css.js';

export { contrastText, sanitizeColor } from './colors.js';
export { defaultPalettes, type Palette };

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
	return tokens + brandOverrides(theme) + PAGE_CSS;
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
