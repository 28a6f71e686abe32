// protect()'s matching: a prefix covers its own path and what lies under it, on whole segments,
// whatever spelling (percent-encoding, dot segments, repeated or trailing slashes, case) a request uses.

import { describe, expect, test } from 'vitest';
import { isOpenPage, isProtectedPath, pathSegments, prefixSegments } from './path-guard.js';

const admin = [prefixSegments('/admin')];

describe('a prefix covers whole segments', () => {
	test.each(['/admin', '/admin/', '/admin/users', '/admin/users/7/edit'])('%s is covered', (path) => {
		expect(isProtectedPath(path, admin)).toBe(true);
	});
	test.each(['/', '/administrator', '/admins/x', '/adm', '/public/admin', '/x/../public'])('%s is not', (path) => {
		expect(isProtectedPath(path, admin)).toBe(false);
	});
	test('a prefix of several segments', () => {
		const prefixes = [prefixSegments('/app/settings/')];
		expect(isProtectedPath('/app/settings/profile', prefixes)).toBe(true);
		expect(isProtectedPath('/app', prefixes)).toBe(false);
		expect(isProtectedPath('/app/settingsx', prefixes)).toBe(false);
	});
});

describe('spellings that reach the same route are covered too', () => {
	test.each([
		'/%61dmin',
		'/%61%64%6D%69%6E/x',
		'//admin',
		'///admin//users',
		'/admin/../admin/x',
		'/public/../admin',
		'/public/%2e%2e/admin',
		'/./admin',
		'/ADMIN',
		'/Admin/Users',
		'/public%2F..%2Fadmin',
		'/x%5C..%5Cadmin'
	])('%s', (path) => {
		expect(isProtectedPath(path, admin)).toBe(true);
	});
	// SvelteKit splits on the raw "/" and decodes each segment after: `/admin/[id]` gets id "x/../../public"
	test.each(['/admin/x%2f..%2f..%2fpublic', '/admin/x%5C..%5C..%5Cpublic', '/admin/a%2F%2E%2E%2F%2E%2E%2Fb', '/ADMIN/x%2F..%2F..%2Fpublic'])(
		'%s: an encoded slash and dots inside a segment do not climb out of the prefix',
		(path) => {
			expect(isProtectedPath(path, admin)).toBe(true);
		}
	);
	test.each(['/admin%2f..%2fpublic', '/admin;x=1', '/admin;jsessionid=1/users'])('%s: a reading a proxy could make (decoded, or without ;parameters) is covered', (path) => {
		expect(isProtectedPath(path, admin)).toBe(true);
	});
	test('a path that cannot be decoded is covered (fail closed)', () => {
		expect(isProtectedPath('/%E0%A4%A', admin)).toBe(true);
		expect(pathSegments('/%zz')).toBeUndefined();
	});
});

describe("paths.base: prefixes are paths inside the app", () => {
	test.each([
		['/base/admin', true],
		['/base/admin/x', true],
		['/base//%61dmin/', true],
		['/BASE/admin', true],
		['/base/administrator', false],
		['/base', false],
		['/base/public', false]
	] as const)('%s under base /base: %s', (path, covered) => {
		expect(isProtectedPath(path, admin, '/base')).toBe(covered);
	});
	test('a prefix naming the base itself is a path inside the app', () => {
		expect(isProtectedPath('/base/x', [prefixSegments('/base')], '/base')).toBe(false);
		expect(isProtectedPath('/base/base/x', [prefixSegments('/base')], '/base')).toBe(true);
	});
});

describe('isOpenPage: the pages a guard leaves open match only as spelled', () => {
	test.each(['/login', '/login/'])('%s is the page /login', (path) => {
		expect(isOpenPage(path, ['/login'])).toBe(true);
	});
	// the guard's own matching decodes and climbs; an exemption must not, or `/app/x%2f..%2flogin` (SvelteKit's /app/[id]) passes as /app/login
	test.each(['/app/x%2f..%2flogin', '/app/x/..%2Flogin', '/%6Cogin', '/LOGIN', '/login/x', '//login', '/app/x%5C..%5Clogin'])('%s is not', (path) => {
		expect(isOpenPage(path, ['/login', '/app/login'])).toBe(false);
	});
});

test('prefixes are checked when the guard is made', () => {
	for (const bad of ['admin', '', '/a/../b', '/./a', '/%61dmin', 42 as unknown as string]) {
		expect(() => prefixSegments(bad), String(bad)).toThrow(/protect\(\) takes paths inside the app/);
	}
	expect(prefixSegments('/Admin//Users/')).toEqual(['admin', 'users']);
});
