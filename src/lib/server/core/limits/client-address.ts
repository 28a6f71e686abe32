// The client address a request came from, for per-address rate limits: what the integration saw,
// or `X-Forwarded-For` read from the right when the config says how many proxies append to it.

import { BoundedCache } from './bounded-cache.js';
import type { RequestContext } from '../request/context.js';

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const IPV6 = /^[0-9a-f:.]{2,45}$/;

/**
 * A normalised IP address, or undefined for anything that is not one: lower case, without port,
 * brackets or the `::ffff:` prefix of IPv4-mapped addresses (dotted or hex), IPv4 parts without
 * leading zeros. One address has one spelling, so spellings cannot be rotated for fresh limits.
 *
 * @example
 * normalizeAddress('[::FFFF:203.0.113.9]:443') // '203.0.113.9'
 */
export function normalizeAddress(value: string | null | undefined): string | undefined {
	if (typeof value !== 'string' || value.length > 64) return undefined;
	const known = normalizedAddresses.get(value);
	if (known !== undefined) return known || undefined;
	// '' marks a value that is no address
	return normalizedAddresses.set(value, spellAddress(value) ?? '') || undefined;
}

/** Recent raw addresses and their one spelling: a client sends many requests. */
const normalizedAddresses = new BoundedCache<string>(1024);

/** The one spelling of the address `value` (at most 64 characters), or undefined. */
function spellAddress(value: string): string | undefined {
	let address = value.trim().toLowerCase();
	const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
	if (bracketed) address = bracketed[1];
	else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
	if (address.startsWith('::ffff:') && IPV4.test(address.slice(7))) address = address.slice(7);
	const v4 = IPV4.exec(address);
	if (v4) return v4.slice(1).every((part) => Number(part) <= 255) ? v4.slice(1).map(Number).join('.') : undefined;
	const groups = IPV6.test(address) && address.includes(':') ? expandIpv6(address) : undefined;
	if (!groups) return undefined;
	// ::ffff:cb00:7109 is 203.0.113.9 too
	const hex = groups.map((group) => (IPV4.test(group) ? -1 : parseInt(group, 16)));
	if (groups.length === 8 && hex.slice(0, 5).every((n) => n === 0) && hex[5] === 0xffff && hex[6] >= 0 && hex[7] >= 0) {
		return [hex[6] >> 8, hex[6] & 255, hex[7] >> 8, hex[7] & 255].join('.');
	}
	return address;
}

/**
 * The address that counts for limits: an IPv4 address as is, an IPv6 address cut to its /64
 * prefix (one subscriber usually holds a whole /64).
 *
 * @example
 * addressLimitKey('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 */
export function addressLimitKey(address: string): string {
	const groups = address.includes(':') ? expandIpv6(address) : undefined;
	return groups ? `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64` : address;
}

/**
 * The client address in an `X-Forwarded-For` header when `hops` trusted proxies each append the
 * address they received from: the entry `hops` places from the right. Entries left of it can be
 * typed by anyone. Undefined when the header has fewer entries or the entry is not an address.
 *
 * @example
 * forwardedClientAddress('6.6.6.6, 203.0.113.9', 1) // '203.0.113.9'
 */
export function forwardedClientAddress(header: string | null | undefined, hops: number): string | undefined {
	if (!header || !(hops >= 1)) return undefined;
	const entries = header.split(',').map((entry) => entry.trim());
	if (entries.length < hops) return undefined;
	return normalizeAddress(entries[entries.length - hops]);
}

/**
 * The client address of the request under the config's rules; undefined when unknown.
 *
 * @example
 * const address = clientAddressOf(ctx); // '203.0.113.9'
 */
export function clientAddressOf(ctx: RequestContext): string | undefined {
	const { rateLimit } = ctx.config;
	if (rateLimit.clientAddress) {
		try {
			return normalizeAddress(rateLimit.clientAddress(ctx.request));
		} catch (error) {
			ctx.config.logger.debug('client-address', 'rateLimit.clientAddress threw', error);
			return undefined;
		}
	}
	const forwarded = forwardedClientAddress(ctx.headers.get('x-forwarded-for'), rateLimit.trustedProxies);
	return forwarded ?? normalizeAddress(ctx.clientAddress);
}

/** The eight groups of an IPv6 address (without the IPv4 tail form), or undefined when malformed. */
function expandIpv6(address: string): string[] | undefined {
	const halves = address.split('::');
	if (halves.length > 2) return undefined;
	const split = (part: string) => (part ? part.split(':') : []);
	const head = split(halves[0]);
	const tail = halves.length === 2 ? split(halves[1]) : [];
	// an embedded IPv4 tail (::ffff:1.2.3.4 forms) counts as two groups
	const last = tail.at(-1) ?? head.at(-1);
	const extra = last && IPV4.test(last) ? 1 : 0;
	const missing = 8 - head.length - tail.length - extra;
	if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
	const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail];
	if (!groups.every((g, i) => /^[0-9a-f]{1,4}$/.test(g) || (i === groups.length - 1 && extra && IPV4.test(g)))) return undefined;
	return groups;
}
