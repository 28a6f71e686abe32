// Reads a received email (RFC 5322 with MIME parts, as nodemailer writes it) into plain fields:
// recipients, subject, text and HTML bodies, and the links they contain. Used by the test mailbox.

/**
 * A received message, decoded.
 * @typedef {object} ParsedMail
 * @property {string[]} to Addresses of the `To` header.
 * @property {string} from The `From` header, decoded.
 * @property {string} subject The `Subject` header, decoded.
 * @property {string} date The `Date` header as written.
 * @property {string} text The first text/plain part ('' when none).
 * @property {string} html The first text/html part ('' when none).
 * @property {string[]} links Every http(s) link of the text and HTML parts, once each, in order.
 */

/**
 * @typedef {{ headers: Map<string, string>, body: string }} MimeEntity
 */

/**
 * Parses a raw message. Understands multipart bodies, quoted-printable and base64 parts, charsets
 * and encoded words in headers: what mail from nodemailer uses.
 *
 * @param {string | Uint8Array} raw The message as received (bytes, or a string of them).
 * @returns {ParsedMail}
 * @example
 * const mail = parseMail(rawBuffer);
 * mail.links[0]; // 'http://localhost:5173/auth/callback/email?token=…'
 */
export function parseMail(raw) {
	const binary = typeof raw === 'string' ? raw : Buffer.from(raw).toString('latin1');
	const message = splitEntity(binary.replace(/\r\n/g, '\n'));
	/** @type {{ text: string, html: string }} */
	const bodies = { text: '', html: '' };
	collectBodies(message, bodies);
	const header = (/** @type {string} */ name) => decodeHeader(message.headers.get(name) ?? '');
	return {
		to: addresses(header('to')),
		from: header('from'),
		subject: header('subject'),
		date: message.headers.get('date') ?? '',
		text: bodies.text,
		html: bodies.html,
		links: links(bodies.text, bodies.html)
	};
}

/**
 * Splits headers (unfolded, names lower-cased, first occurrence kept) from the body.
 * @param {string} source
 * @returns {MimeEntity}
 */
function splitEntity(source) {
	const end = source.indexOf('\n\n');
	const head = end === -1 ? source : source.slice(0, end);
	const body = end === -1 ? '' : source.slice(end + 2);
	/** @type {Map<string, string>} */
	const headers = new Map();
	for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
		const colon = line.indexOf(':');
		if (colon <= 0) continue;
		const name = line.slice(0, colon).trim().toLowerCase();
		if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
	}
	return { headers, body };
}

/**
 * Walks the MIME tree and keeps the first text/plain and text/html leaves.
 * @param {MimeEntity} entity
 * @param {{ text: string, html: string }} bodies
 */
function collectBodies(entity, bodies) {
	const { type, params } = contentType(entity.headers.get('content-type') ?? 'text/plain');
	if (type.startsWith('multipart/') && params.boundary) {
		for (const part of multipartParts(entity.body, params.boundary)) collectBodies(splitEntity(part), bodies);
		return;
	}
	if (type !== 'text/plain' && type !== 'text/html') return;
	const bytes = decodeTransfer(entity.body, (entity.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase());
	const content = decodeCharset(bytes, params.charset);
	if (type === 'text/plain' && !bodies.text) bodies.text = content;
	if (type === 'text/html' && !bodies.html) bodies.html = content;
}

/**
 * @param {string} value e.g. `multipart/alternative; boundary="--_x"`
 * @returns {{ type: string, params: Record<string, string> }}
 */
function contentType(value) {
	const [type, ...rest] = value.split(';');
	/** @type {Record<string, string>} */
	const params = {};
	for (const match of rest.join(';').matchAll(/([^=\s;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g)) {
		params[match[1].toLowerCase()] = match[2].trim().replace(/^"|"$/g, '');
	}
	return { type: type.trim().toLowerCase(), params };
}

/**
 * The parts of a multipart body between its boundary lines.
 * @param {string} body
 * @param {string} boundary
 * @returns {string[]}
 */
function multipartParts(body, boundary) {
	const delimiter = `--${boundary}`;
	const parts = [];
	let current = /** @type {string[] | undefined} */ (undefined);
	for (const line of body.split('\n')) {
		if (line === `${delimiter}--`) break;
		if (line === delimiter) {
			if (current) parts.push(current.join('\n'));
			current = [];
		} else if (current) {
			current.push(line);
		}
	}
	if (current) parts.push(current.join('\n'));
	return parts;
}

/**
 * The bytes of a part body.
 * @param {string} body A string of bytes (latin1).
 * @param {string} encoding
 * @returns {Buffer}
 */
function decodeTransfer(body, encoding) {
	if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
	if (encoding === 'quoted-printable') return quotedPrintable(body.replace(/[ \t]+$/gm, '').replace(/=\n/g, ''));
	return Buffer.from(body.replace(/\n$/, ''), 'latin1');
}

/**
 * `=XX` escapes to bytes; everything else byte for byte.
 * @param {string} value
 * @returns {Buffer}
 */
function quotedPrintable(value) {
	const bytes = [];
	for (let i = 0; i < value.length; i++) {
		const hex = value[i] === '=' ? value.slice(i + 1, i + 3) : '';
		if (/^[0-9a-f]{2}$/i.test(hex)) {
			bytes.push(parseInt(hex, 16));
			i += 2;
		} else {
			bytes.push(value.charCodeAt(i) & 0xff);
		}
	}
	return Buffer.from(bytes);
}

/**
 * @param {Uint8Array} bytes
 * @param {string | undefined} charset
 */
function decodeCharset(bytes, charset) {
	try {
		return new TextDecoder(charset || 'utf-8').decode(bytes);
	} catch {
		return new TextDecoder('utf-8').decode(bytes);
	}
}

/**
 * A header value with raw UTF-8 and RFC 2047 encoded words (`=?UTF-8?Q?…?=`) decoded.
 * @param {string} value A string of bytes (latin1).
 */
function decodeHeader(value) {
	const utf8 = Buffer.from(value, 'latin1').toString('utf8');
	return utf8
		.replace(/(=\?[^?]+\?[bq]\?[^?]*\?=)\s+(?==\?)/gi, '$1')
		.replace(/=\?([^?]+)\?([bq])\?([^?]*)\?=/gi, (_, /** @type {string} */ charset, /** @type {string} */ kind, /** @type {string} */ data) => {
			const bytes = kind.toLowerCase() === 'b' ? Buffer.from(data, 'base64') : quotedPrintable(data.replace(/_/g, ' '));
			return decodeCharset(bytes, charset);
		});
}

/**
 * The addresses of an address-list header (`a@x.org, "B" <b@y.org>`).
 * @param {string} value
 * @returns {string[]}
 */
function addresses(value) {
	return value
		.split(',')
		.map((entry) => (/<([^>]+)>/.exec(entry)?.[1] ?? entry).trim())
		.filter(Boolean);
}

/**
 * @param {string} text
 * @param {string} html
 * @returns {string[]}
 */
function links(text, html) {
	const fromText = [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]);
	const fromHtml = [...html.matchAll(/\bhref\s*=\s*"([^"]*)"/gi)].map((m) => decodeEntities(m[1])).filter((href) => /^https?:\/\//i.test(href));
	return [...new Set([...fromText, ...fromHtml])];
}

/** @param {string} value */
function decodeEntities(value) {
	return value.replace(/&(amp|quot|#39|lt|gt);/g, (_, /** @type {string} */ name) =>
		({ amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>' })[/** @type {'amp'} */ (name)]
	);
}
