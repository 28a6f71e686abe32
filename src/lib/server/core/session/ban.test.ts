import { describe, expect, test } from 'vitest';
import { isBanned } from './ban.js';

const NOW = Date.UTC(2030, 0, 1, 12);

describe('isBanned', () => {
	test('no record, or a record without bannedAt, is no ban', () => {
		expect(isBanned(null, NOW)).toBe(false);
		expect(isBanned(undefined, NOW)).toBe(false);
		expect(isBanned({ bannedAt: null, banExpires: new Date(NOW + 1000) }, NOW)).toBe(false);
	});

	test('a ban without end bans, whenever it was set', () => {
		expect(isBanned({ bannedAt: new Date(NOW - 1000), banExpires: null }, NOW)).toBe(true);
		expect(isBanned({ bannedAt: new Date(0), banExpires: null }, NOW)).toBe(true);
	});

	test('a ban bans until its end, exclusive: at and after the end it is no ban', () => {
		const ban = { bannedAt: new Date(NOW - 1000), banExpires: new Date(NOW + 1) };
		expect(isBanned(ban, NOW)).toBe(true);
		expect(isBanned(ban, NOW + 1)).toBe(false);
		expect(isBanned(ban, NOW + 60_000)).toBe(false);
	});

	test('dates that went through JSON (strings) read the same; an unreadable end keeps the ban', () => {
		const fromJson = JSON.parse(JSON.stringify({ bannedAt: new Date(NOW), banExpires: new Date(NOW + 1000) }));
		expect(isBanned(fromJson, NOW)).toBe(true);
		expect(isBanned(fromJson, NOW + 1000)).toBe(false);
		expect(isBanned({ bannedAt: new Date(NOW), banExpires: new Date('not a date') }, NOW)).toBe(true);
	});
});
