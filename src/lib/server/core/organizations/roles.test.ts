import { describe, expect, it } from 'vitest';
import { isKnownRole, mayActOnMember, mayGrant, roleAllows, roleTable, roleWithin } from './roles.js';

const table = roleTable({ roles: { member: { project: ['create'] }, billing: { invoice: ['read', 'pay'] }, admin: { project: ['create', 'delete'] } } });

describe('organization roles', () => {
	it('lets the owner do everything, even on resources no statement names', () => {
		expect(roleAllows(table, 'owner', 'project', 'delete')).toBe(true);
		expect(roleAllows(table, 'owner', 'anything', 'at-all')).toBe(true);
	});
	it('merges configured statements into the built-in roles', () => {
		expect(roleAllows(table, 'member', 'project', 'create')).toBe(true);
		expect(roleAllows(table, 'member', 'project', 'delete')).toBe(false);
		expect(roleAllows(table, 'admin', 'member', 'delete')).toBe(true);
		expect(roleAllows(table, 'admin', 'organization', 'delete')).toBe(false);
	});
	it('knows custom roles and nothing else (no prototype names)', () => {
		expect(isKnownRole(table, 'billing')).toBe(true);
		expect(isKnownRole(table, 'toString')).toBe(false);
		expect(isKnownRole(table, '__proto__')).toBe(false);
		expect(roleAllows(table, 'toString', 'member', 'delete')).toBe(false);
		expect(roleAllows(table, 'nobody', 'project', 'create')).toBe(false);
	});
	it('orders roles by what they may do', () => {
		expect(roleWithin(table, 'member', 'admin')).toBe(true);
		expect(roleWithin(table, 'admin', 'member')).toBe(false);
		expect(roleWithin(table, 'billing', 'admin')).toBe(false);
		expect(roleWithin(table, 'owner', 'admin')).toBe(false);
	});
	it('lets nobody grant a role above their own, and only owners make owners', () => {
		expect(mayGrant(table, 'owner', 'owner')).toBe(true);
		expect(mayGrant(table, 'admin', 'owner')).toBe(false);
		expect(mayGrant(table, 'admin', 'admin')).toBe(true);
		expect(mayGrant(table, 'admin', 'billing')).toBe(false);
		expect(mayGrant(table, 'member', 'admin')).toBe(false);
		expect(mayGrant(table, 'owner', 'no-such-role')).toBe(false);
	});
	it('lets a member act only on members ranked no higher', () => {
		expect(mayActOnMember(table, 'admin', 'member', 'delete')).toBe(true);
		expect(mayActOnMember(table, 'admin', 'owner', 'update')).toBe(false);
		expect(mayActOnMember(table, 'member', 'member', 'delete')).toBe(false);
		expect(mayActOnMember(table, 'owner', 'owner', 'update')).toBe(true);
	});
});
