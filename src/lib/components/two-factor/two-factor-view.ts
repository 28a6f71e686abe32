// What the two-factor components show, as pure functions: their message table, the QR code as
// plain numbers to draw, the key in groups, the texts that depend on a count or an error code.
// Framework-free: the built-in pages render the same components.

import { enTwoFactor } from '../../messages/en-two-factor.js';
import { format } from '../../messages/format.js';

/**
 * The table the challenge reads: English, then what a layout set with `setMessages`, then its own `messages` prop.
 *
 * @example const t = challengeTable(inheritedMessages(), messages);
 */
export function challengeTable(
	inherited: Readonly<Record<string, string>> | undefined,
	messages: Readonly<Record<string, string>> | undefined
): Readonly<Record<string, string>> {
	return { ...enTwoFactor, ...inherited, ...messages };
}

/** A QR code drawing reduced to what is drawn: its side in modules and the path of dark modules. */
export interface QrDrawing {
	size: number;
	path: string;
}

/** The one shape kitgate draws (core/two-factor/qr-code.ts): one white rectangle, one path of numbers. */
const QR_SHAPE = /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1"><rect fill="white" width="\1" height="\1"\/><path fill="black" d="([Mhvz\d,-]*)"\/><\/svg>$/;

/**
 * The numbers of kitgate's QR code SVG, or null for anything else: the component draws them
 * itself, so no markup from a prop is ever inserted into the page.
 *
 * @example qrDrawing('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 33 33">…') // { size: 33, path: 'M4,4h7…' }
 */
export function qrDrawing(svg: string | null | undefined): QrDrawing | null {
	const match = typeof svg === 'string' ? QR_SHAPE.exec(svg) : null;
	return match ? { size: Number(match[1]), path: match[2] } : null;
}

/**
 * A base32 key in groups of four, easier to read and type (apps ignore the spaces).
 *
 * @example groupedSecret('JBSWY3DPEHPK3PXP') // 'JBSW Y3DP EHPK 3PXP'
 */
export function groupedSecret(secret: string): string {
	return (secret.match(/.{1,4}/g) ?? []).join(' ');
}

/**
 * The text for a count of recovery codes: `<prefix>.none`, `.one` or `.other` with `{count}`.
 *
 * @example countText(3, t, 'twoFactor.codesLeft') // 'You have 3 recovery codes left.'
 */
export function countText(count: number, table: Readonly<Record<string, string>>, prefix: string): string {
	const form = count <= 0 ? 'none' : count === 1 ? 'one' : 'other';
	return format(table[`${prefix}.${form}`] ?? `${prefix}.${form}`, { count: String(Math.max(0, count)) });
}

/**
 * The alert of the second step for a `?error=` code: a wrong or used code, too many tries, or the
 * generic text; null without one.
 *
 * @example challengeErrorText('RateLimited', t) // 'Too many codes were tried. …'
 */
export function challengeErrorText(error: string | null | undefined, table: Readonly<Record<string, string>>): string | null {
	if (!error) return null;
	if (error === 'InvalidSecondFactor') return table['signin.error.InvalidSecondFactor'];
	if (error === 'RateLimited') return table['secondFactor.error.RateLimited'];
	return table['secondFactor.error.Default'];
}
