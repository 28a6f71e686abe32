// The QR code of a TOTP key URI as an SVG string, drawn on the server by `uqr`, in a shape that is
// safe to inline in HTML (numbers only: the URI is never written into the markup). Internal.

import { renderSVG } from 'uqr';

/** Everything `qrCodeSvg` may return: one rectangle and one path of numbers, nothing from the input. */
const SAFE_SVG = /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+"><rect fill="white" width="\d+" height="\d+"\/><path fill="black" d="[Mhvz\d,-]*"\/><\/svg>$/;
/** The quiet zone the QR standard asks for, inside the image so a dark page cannot eat it. */
const QUIET_ZONE_MODULES = 4;

/**
 * The QR code of `text` (an otpauth:// URI) as an SVG element, one unit per module, dark on
 * white with its quiet zone, error correction level M. It carries no size: give it one with CSS,
 * and wrap it in an element with `role="img"` and a label; show the secret as text beside it for
 * those who cannot scan. Throws when the drawing is not the expected shape (a changed library),
 * so unsafe markup is never returned.
 *
 * @example
 * const svg = qrCodeSvg(totpKeyUri({ secret, issuer: "Example Shop", accountName: user.email }));
 * // <div role="img" aria-label="QR code of your authenticator key" style="width:12rem">{@html svg}</div>
 */
export function qrCodeSvg(text: string): string {
	if (typeof text !== 'string' || text === '') throw new TypeError('qrCodeSvg needs the text to encode.');
	const svg = renderSVG(text, { ecc: 'M', border: QUIET_ZONE_MODULES, pixelSize: 1, whiteColor: 'white', blackColor: 'black' });
	if (!SAFE_SVG.test(svg)) throw new Error('uqr drew a QR code in an unexpected shape; refusing to return it as markup.');
	return svg;
}
