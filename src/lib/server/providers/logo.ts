// Plain letter glyphs used as built-in provider logos (no brand artwork is shipped), as small
// inline `data:image/svg+xml` URLs. Internal to `kitgate/providers/*`.

import { contrastText } from '../pages/colors.js';

/**
 * A 24×24 SVG showing `letter` in a ring, drawn in the colour that reads best on `brandColor`
 * (the button background), as a data URL.
 *
 * @example
 * letterLogo("G", "#24292f") // "data:image/svg+xml,%3Csvg…"
 */
export function letterLogo(letter: string, brandColor: string): string {
	const ink = contrastText(brandColor);
	const svg =
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">` +
		`<circle cx="12" cy="12" r="10.5" fill="none" stroke="${ink}" stroke-width="1.5"/>` +
		`<text x="12" y="16.2" text-anchor="middle" font-family="system-ui,Arial,sans-serif" ` +
		`font-size="12" font-weight="700" fill="${ink}">${escapeXml(letter)}</text></svg>`;
	return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function escapeXml(text: string): string {
	return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
