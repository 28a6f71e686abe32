// A view of JavaScript/TypeScript text in which comments (and, when asked, the insides of strings,
// template literals and regular expressions) are blanked out with spaces, lines and offsets kept:
// so that `export const handle` in a comment or a string is not taken for code, and a `/*` in a
// string does not hide the code after it. A scanner, not a parser: enough to find declarations.

/** Characters after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);
const KEYWORDS_BEFORE_REGEX = /\b(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/;

/**
 * `code` with comments blanked, and with `strings: true` also the insides of string, template and
 * regular-expression literals (their quotes kept; a template's `${…}` stays code).
 * @param {string} code
 * @param {{ strings: boolean }} options
 * @returns {string} the same length as `code`, newlines where `code` has them
 * @example
 * maskCode("const a = '/*'; // export const handle\n", { strings: true }); // "const a = '  ';                      \n"
 */
export function maskCode(code, { strings }) {
	let out = '';
	let i = 0;
	/** open template literals' `${` depths: a `}` at depth 0 of the innermost resumes its text */
	const braces = [];
	const blank = (text) => text.replace(/[^\r\n]/g, ' ');
	const keep = (text) => (strings ? blank(text) : text);
	// the code before a `/` without its trailing spaces (only its last few characters matter)
	const lastSignificant = () => {
		let end = out.length;
		while (end > 0 && /\s/.test(out[end - 1])) end -= 1;
		return out.slice(Math.max(0, end - 12), end);
	};

	const scanTemplateText = () => {
		// from just after a backtick or a `}` that closes a `${`: up to the closing backtick or the next `${`
		let text = '';
		while (i < code.length) {
			if (code[i] === '\\') {
				text += code.slice(i, i + 2);
				i += 2;
			} else if (code[i] === '`') {
				out += keep(text) + '`';
				i += 1;
				return;
			} else if (code.startsWith('${', i)) {
				out += keep(text) + '${';
				i += 2;
				braces.push(0);
				return;
			} else text += code[i++];
		}
		out += keep(text);
	};

	while (i < code.length) {
		const char = code[i];
		if (code.startsWith('//', i)) {
			const end = code.slice(i).search(/[\r\n]|$/);
			out += blank(code.slice(i, i + end));
			i += end;
		} else if (code.startsWith('/*', i)) {
			const close = code.indexOf('*/', i + 2);
			const end = close === -1 ? code.length : close + 2;
			out += blank(code.slice(i, end));
			i = end;
		} else if (char === '"' || char === "'") {
			let j = i + 1;
			while (j < code.length && code[j] !== char && code[j] !== '\n') j += code[j] === '\\' ? 2 : 1;
			out += char + keep(code.slice(i + 1, j)) + (j < code.length && code[j] === char ? char : '');
			i = j < code.length && code[j] === char ? j + 1 : j;
		} else if (char === '`') {
			out += '`';
			i += 1;
			scanTemplateText();
		} else if (char === '{' && braces.length) {
			braces[braces.length - 1] += 1;
			out += char;
			i += 1;
		} else if (char === '}' && braces.length && braces[braces.length - 1] === 0) {
			braces.pop();
			out += '}';
			i += 1;
			scanTemplateText();
		} else if (char === '}' && braces.length) {
			braces[braces.length - 1] -= 1;
			out += char;
			i += 1;
		} else if (char === '/' && isRegexStart(lastSignificant())) {
			let j = i + 1;
			let inClass = false;
			while (j < code.length && code[j] !== '\n' && (inClass || code[j] !== '/')) {
				if (code[j] === '\\') j += 1;
				else if (code[j] === '[') inClass = true;
				else if (code[j] === ']') inClass = false;
				j += 1;
			}
			out += '/' + keep(code.slice(i + 1, j)) + (code[j] === '/' ? '/' : '');
			i = code[j] === '/' ? j + 1 : j;
		} else {
			out += char;
			i += 1;
		}
	}
	return out;
}

/** @param {string} before the code before a `/`, trailing spaces removed */
function isRegexStart(before) {
	return BEFORE_REGEX.has(before.slice(-1)) || KEYWORDS_BEFORE_REGEX.test(before);
}
