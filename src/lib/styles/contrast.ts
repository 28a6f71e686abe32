// WCAG contrast maths, and the text colour a brand-coloured button needs. Neutral and small: the
// components ship it to the browser; the pages' colour parser (server/pages/colors.ts) builds on it.

/** A colour as red, green and blue channels, each 0–255. */
export type Rgb = readonly [number, number, number];

/**
 * Parses `#rgb` or `#rrggbb`; anything else gives `undefined`.
 *
 * @example parseHexColor('#0af') // [0, 170, 255]
 */
export function parseHexColor(value: string): Rgb | undefined {
	const digits = /^#((?:[\da-f]{3}){1,2})$/i.exec(value.trim())?.[1];
	if (!digits) return undefined;
	const hex = parseInt(digits.length === 3 ? digits.replace(/./g, '$&$&') : digits, 16);
	return [hex >> 16, (hex >> 8) & 255, hex & 255];
}

/**
 * WCAG 2 relative luminance of a colour, 0 (black) to 1 (white).
 *
 * @example relativeLuminance([255, 255, 255]) // 1
 */
export function relativeLuminance([r, g, b]: Rgb): number {
	const linear = (c: number) => {
		const s = c / 255;
		return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/**
 * WCAG 2 contrast ratio of two parsed colours (1 to 21).
 *
 * @example rgbContrast([255, 255, 255], [0, 0, 0]) // 21
 */
export function rgbContrast(a: Rgb, b: Rgb): number {
	const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
	return (light + 0.05) / (dark + 0.05);
}

/** Above this luminance black text contrasts more than white: where (L + 0.05) / 0.05 = 1.05 / (L + 0.05). */
const BLACK_TEXT_ABOVE = Math.sqrt(1.05 * 0.05) - 0.05;

/**
 * Black or white, whichever contrasts more with `color`.
 *
 * @example rgbContrastText([255, 215, 0]) // '#000'
 */
export function rgbContrastText(color: Rgb): '#000' | '#fff' {
	return relativeLuminance(color) > BLACK_TEXT_ABOVE ? '#000' : '#fff';
}

/**
 * Background and text colours of a provider button in `brandColor` (`#rgb` or `#rrggbb`), or
 * `undefined` for any other value, so nothing unchecked reaches a style attribute.
 *
 * @example brandButtonColors('#24292f') // { background: '#24292f', color: '#fff' }
 */
export function brandButtonColors(brandColor: unknown): { background: string; color: string } | undefined {
	const rgb = typeof brandColor === 'string' ? parseHexColor(brandColor) : undefined;
	return rgb && { background: (brandColor as string).trim(), color: rgbContrastText(rgb) };
}
