// What a name, slug, logo or metadata of an organization may be (docs/organizations.md, "Routes"):
// pure checks that turn hostile text (control characters, lone surrogates, over-long values) into
// `InvalidRequest` before anything is stored.

import { InvalidRequest } from '../errors.js';

/** A valid slug: lowercase letters, digits and inner `-`, 2–48 characters. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])$/;
/** Longest name of an organization or a team. */
export const MAX_NAME_LENGTH = 100;
/** Longest logo URL. */
export const MAX_LOGO_LENGTH = 2048;
/** Longest metadata JSON text. */
export const MAX_METADATA_LENGTH = 4096;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `text` has no control character and no lone surrogate (it can be stored and shown). */
export function isPlainText(text: string): boolean {
	return !CONTROL.test(text) && !LONE_SURROGATE.test(text);
}

/**
 * The trimmed name (1–100 characters of plain text), else `InvalidRequest` naming `what`.
 *
 * @example
 * organizationName('  Acme  '); // 'Acme'
 */
export function organizationName(value: unknown, what = 'name'): string {
	if (typeof value !== 'string') throw new InvalidRequest(`\`${what}\` must be text.`);
	const name = value.trim();
	if (name.length < 1 || name.length > MAX_NAME_LENGTH || !isPlainText(name)) {
		throw new InvalidRequest(`\`${what}\` must be 1 to ${MAX_NAME_LENGTH} characters without control characters.`);
	}
	return name;
}

/**
 * The slug as given when valid (`^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])$`), else `InvalidRequest`.
 *
 * @example
 * organizationSlug('acme-inc'); // 'acme-inc'
 */
export function organizationSlug(value: unknown): string {
	if (typeof value !== 'string' || !SLUG_PATTERN.test(value)) {
		throw new InvalidRequest('`slug` must be 2 to 48 lowercase letters, digits or inner "-".');
	}
	return value;
}

/**
 * A slug made from a name: ASCII letters (accents dropped), digits and `-`, lowercase; undefined
 * when too little of the name is left (the caller makes one up).
 *
 * @example
 * slugFromName('Café Crème & Co'); // 'cafe-creme-co'
 */
export function slugFromName(name: string): string | undefined {
	const slug = name
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.slice(0, 48)
		.replace(/^-+|-+$/g, '');
	return SLUG_PATTERN.test(slug) ? slug : undefined;
}

/**
 * The logo: null for empty, an `https:` URL or a same-site path (`/…`, never `//host`), at most
 * 2048 characters; else `InvalidRequest`.
 *
 * @example
 * organizationLogo('/logos/acme.svg'); // '/logos/acme.svg'
 */
export function organizationLogo(value: unknown): string | null {
	if (value === undefined || value === null || value === '') return null;
	if (typeof value !== 'string' || value.length > MAX_LOGO_LENGTH || !isPlainText(value) || /\s/.test(value)) {
		throw new InvalidRequest(`\`logo\` must be an https: URL or a path starting with "/" (at most ${MAX_LOGO_LENGTH} characters).`);
	}
	if (value.startsWith('/')) {
		if (value.startsWith('//') || value.startsWith('/\\')) throw new InvalidRequest('`logo` as a path must start with a single "/".');
		return value;
	}
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new InvalidRequest('`logo` must be an https: URL or a path starting with "/".');
	}
	if (url.protocol !== 'https:' || url.username || url.password) throw new InvalidRequest('`logo` must be an https: URL or a path starting with "/".');
	return value;
}

/**
 * A stored logo as views show it: the logo when `organizationLogo` would accept it, else null. A row
 * written past kitgate's routes (by an app, a script or an old version) never puts a
 * `javascript:`, `data:` or `//host` URL in a page, a component or `session.organization`.
 *
 * @example
 * shownLogo('javascript:alert(1)'); // null
 */
export function shownLogo(stored: string | null | undefined): string | null {
	try {
		return organizationLogo(stored);
	} catch {
		return null;
	}
}

/**
 * The metadata: null for empty, else JSON text of an object (at most 4096 characters), kept as
 * given; else `InvalidRequest`.
 *
 * @example
 * organizationMetadata('{"plan":"pro"}'); // '{"plan":"pro"}'
 */
export function organizationMetadata(value: unknown): string | null {
	if (value === undefined || value === null || value === '') return null;
	if (typeof value !== 'string' || value.length > MAX_METADATA_LENGTH || LONE_SURROGATE.test(value)) {
		throw new InvalidRequest(`\`metadata\` must be JSON text of an object (at most ${MAX_METADATA_LENGTH} characters).`);
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(value);
	} catch {
		throw new InvalidRequest('`metadata` must be JSON text of an object.');
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidRequest('`metadata` must be JSON text of an object.');
	return value;
}

/** An id field: a non-empty string of at most 200 plain characters, else `InvalidRequest`. */
export function idField(value: unknown, what: string): string {
	if (typeof value !== 'string' || value.length === 0 || value.length > 200 || !isPlainText(value)) throw new InvalidRequest(`\`${what}\` must be an id.`);
	return value;
}

/** Parsed metadata text for a view; null when absent or (stored by someone else) not an object. */
export function parsedMetadata(text: string | null): Record<string, unknown> | null {
	if (!text) return null;
	try {
		const value: unknown = JSON.parse(text);
		return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
	} catch {
		return null;
	}
}
