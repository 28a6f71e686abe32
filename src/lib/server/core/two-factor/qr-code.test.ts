import jsQRModule from 'jsqr';
import { encode } from 'uqr';
import { describe, expect, test } from 'vitest';
import { qrCodeSvg } from './qr-code.js';
import { generateTotpSecret, totpKeyUri } from './totp.js';

// jsqr is CommonJS with an ES-style `default` in its types: take the function either way
const jsQR = ((jsQRModule as unknown as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default;

/** Draws the SVG's modules into an RGBA bitmap (`scale` pixels per module) for a QR decoder. */
function rasterise(svg: string, scale = 4): { data: Uint8ClampedArray; width: number; height: number } {
	const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
	const width = size * scale;
	const data = new Uint8ClampedArray(width * width * 4).fill(255);
	const path = /<path fill="black" d="([^"]*)"/.exec(svg)![1];
	for (const [, x, y] of path.matchAll(/M(\d+),(\d+)h1v1h-1z/g)) {
		for (let dy = 0; dy < scale; dy++) {
			for (let dx = 0; dx < scale; dx++) {
				const offset = ((Number(y) * scale + dy) * width + Number(x) * scale + dx) * 4;
				data.fill(0, offset, offset + 3);
			}
		}
	}
	return { data, width, height: width };
}

describe('qrCodeSvg', () => {
	test('the QR code of a TOTP key URI decodes (with an independent reader) to that URI', () => {
		const uri = totpKeyUri({ secret: generateTotpSecret(), issuer: 'Example Shop', accountName: 'ann@example.com' });
		const { data, width, height } = rasterise(qrCodeSvg(uri));
		expect(jsQR(data, width, height)?.data).toBe(uri);
	});

	test('the QR code SVG is safe to inline in HTML: only numbers, nothing of the input, and a quiet zone of 4 modules', () => {
		const hostile = `otpauth://totp/x"><script>alert(1)</script>:a?secret=</svg><img src=x onerror=alert(1)>&issuer='`;
		const svg = qrCodeSvg(hostile);
		expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1"><rect fill="white" width="\1" height="\1"\/><path fill="black" d="[Mhvz\d,-]+"\/><\/svg>$/);
		for (const piece of ['script', 'onerror', 'otpauth', 'img', "'"]) expect(svg).not.toContain(piece);
		const { size } = encode(hostile, { ecc: 'M', border: 0 });
		expect(Number(/viewBox="0 0 (\d+)/.exec(svg)![1])).toBe(size + 8);
		// nothing is drawn in the quiet zone
		for (const [, x, y] of svg.matchAll(/M(\d+),(\d+)h1v1h-1z/g)) {
			expect(Math.min(Number(x), Number(y))).toBeGreaterThanOrEqual(4);
			expect(Math.max(Number(x), Number(y))).toBeLessThan(size + 4);
		}
		expect(jsQR(...Object.values(rasterise(svg)) as [Uint8ClampedArray, number, number])?.data).toBe(hostile);
	});

	test('no text is a bug: it throws', () => {
		expect(() => qrCodeSvg('')).toThrow(TypeError);
		expect(() => qrCodeSvg(undefined as unknown as string)).toThrow(TypeError);
	});
});
