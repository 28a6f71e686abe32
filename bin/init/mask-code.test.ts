// maskCode: what counts as code when kitgate init looks for declarations in a hooks file.

import { describe, expect, it } from 'vitest';
import { maskCode } from './mask-code.js';

const both = (code: string) => [maskCode(code, { strings: false }), maskCode(code, { strings: true })];

describe('maskCode', () => {
	it('blanks comments, keeping offsets and line breaks (LF and CRLF)', () => {
		const code = 'a; // one\r\n/* two\nthree */ b;\n';
		for (const masked of both(code)) {
			expect(masked).toHaveLength(code.length);
			expect(masked).toBe(`a; ${' '.repeat('// one'.length)}\r\n${' '.repeat('/* two'.length)}\n${' '.repeat('three */'.length)} b;\n`);
		}
	});

	it('a comment marker inside a string, template or regular expression starts no comment', () => {
		const code = "x = '/*'; y = `//`; z = /\\/\\*/; handle;\n";
		const [withStrings, code_] = both(code);
		expect(withStrings).toBe(code);
		expect(code_).toBe("x = '  '; y = `  `; z = /    /; handle;\n");
	});

	it("blanks strings' insides only when asked, and keeps a template's ${…} as code", () => {
		const code = "import { a } from './auth';\nconst t = `export const handle ${ f({ k: 'v' }) } tail`;\n";
		expect(maskCode(code, { strings: false })).toBe(code);
		expect(maskCode(code, { strings: true })).toBe("import { a } from '      ';\nconst t = `" + ' '.repeat('export const handle '.length) + "${ f({ k: ' ' }) }     `;\n");
	});

	it('a division is not taken for a regular expression', () => {
		const code = 'const r = a / b; export const handle = c / d;\n';
		expect(maskCode(code, { strings: true })).toBe(code);
	});

	it('an unterminated string or comment ends the text without an error', () => {
		for (const code of ["const a = 'open\nexport const handle = 1;\n", '/* open\nexport const handle = 1;\n', 'const t = `open\n']) {
			for (const masked of both(code)) expect(masked).toHaveLength(code.length);
		}
	});
});
