// The organization components rendered on the server (as a SvelteKit page and the built-in pages do):
// plain forms posting to the organization routes with the CSRF token, the organization and the page
// to come back to; what each role sees (owner, admin, member); a ticked box before removing, leaving
// or deleting; invitations in each state; the Join form only for the invited address; hostile names
// kept as text; English and French; a notice for every result and refusal.

import type { Component } from 'svelte';
import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import { resolveMessages } from '../../messages/index.js';
import { enOrganization } from '../../messages/en-organization.js';
import { failures } from '../../failures.js';
import type { OrganizationResult } from '../../server/core/organization-types.js';
import { buttons, inputs, withoutMarkers } from '../test/html.js';
import { adminDetail, CSRF, emptyOrganizationList, INVITATION_TOKEN, invitationForSomeoneElse, invitationForYou, invitationSignedOut, memberDetail, organizationList, ownerDetail } from '../test/organization-views.js';
import CreateOrganization from './CreateOrganization.svelte';
import OrganizationInvitation from './OrganizationInvitation.svelte';
import OrganizationMembers from './OrganizationMembers.svelte';
import OrganizationSettings from './OrganizationSettings.svelte';
import OrganizationSwitcher from './OrganizationSwitcher.svelte';
import { memberLabel, organizationAction, organizationNotice, organizationTexts, roleLabel, routesOf, settingsHref, SLUG_PATTERN } from './organization-view.js';

type AnyComponent = Component<Record<string, unknown>>;
const show = (component: unknown, props: Record<string, unknown>) => withoutMarkers(render(component as AnyComponent, { props }).body);
const PAGE = '/org/settings?id=org-1';

/** The POST forms of some HTML: where each posts and its inputs. */
function forms(html: string): { action: string; fields: Record<string, string>[]; inner: string }[] {
	return [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map(([, action, inner]) => ({ action, fields: inputs(inner), inner }));
}
const formsOf = (html: string, operation: string) => forms(html).filter((form) => form.action === `/auth/organizations/${operation}`);
const hidden = (name: string, value: string) => ({ type: 'hidden', name, value });
const CONFIRM = { type: 'checkbox', name: 'confirm', value: 'yes', required: '' };
const rowOf = (html: string, attribute: string, id: string) => new RegExp(`<li [^>]*${attribute}="${id}"[\\s\\S]*?</li>`).exec(html)?.[0] ?? '';

describe('the view helpers', () => {
	test('routes, actions and links', () => {
		expect(routesOf(undefined)).toBe('/auth');
		expect(routesOf('/api/auth//')).toBe('/api/auth');
		expect(organizationAction('/auth/', 'set-active')).toBe('/auth/organizations/set-active');
		expect(settingsHref('/org/settings', 'org 1&x')).toBe('/org/settings?id=org+1%26x');
	});

	test('roles in words: built-in ones translated, custom ones as named, never a prototype key', () => {
		const fr = { ...organizationTexts, ...resolveMessages('fr') };
		expect(roleLabel('owner', organizationTexts)).toBe('Owner');
		expect(roleLabel('owner', fr)).toBe('Propriétaire');
		expect(roleLabel('billing', organizationTexts)).toBe('billing');
		expect(roleLabel('constructor', organizationTexts)).toBe('constructor');
		expect(memberLabel({ name: null, email: null }, organizationTexts)).toBe('No name');
	});

	test('a notice for every result and every failure code of the contract, the generic text for others, none for an unknown result', () => {
		const results: OrganizationResult[] = ['created', 'updated', 'deleted', 'switched', 'invited', 'invitation-revoked', 'joined', 'role-changed', 'member-removed', 'left', 'team-created', 'team-deleted', 'team-member-added', 'team-member-removed'];
		for (const result of results) expect(organizationNotice(result, null, organizationTexts)).toEqual({ text: enOrganization[`organization.result.${result}`], alert: false });
		const codes = Object.keys(failures).filter((code) => /^(Organization|Invitation)/.test(code));
		expect(codes).toHaveLength(11);
		for (const code of codes) expect(Object.hasOwn(enOrganization, `organization.error.${code}`), code).toBe(true);
		expect(organizationNotice(null, 'NoSuchCode', organizationTexts)).toEqual({ text: 'Something went wrong. Please try again.', alert: true });
		expect(organizationNotice(null, 'toString', organizationTexts)?.text).toBe('Something went wrong. Please try again.');
		expect(organizationNotice('hasOwnProperty', null, organizationTexts)).toBeNull();
		expect(SLUG_PATTERN).toBe('[a-z0-9](?:[a-z0-9\\-]{0,46}[a-z0-9])?');
	});
});

describe('OrganizationSwitcher', () => {
	test('a set-active form with the CSRF token and the page, a select of the organizations (the active one chosen, "None" first) and "Switch"', () => {
		const html = show(OrganizationSwitcher, { list: organizationList, callbackUrl: '/dashboard' });
		const [form] = formsOf(html, 'set-active');
		expect(form.fields).toEqual([hidden('csrfToken', CSRF), hidden('callbackUrl', '/dashboard')]);
		const options = [...form.inner.matchAll(/<option value="([^"]*)"( selected="")?>\s*([^<]*?)\s*<\/option>/g)].map(([, value, selected, label]) => [value, Boolean(selected), label]);
		expect(options).toEqual([
			['', false, 'None (personal account)'],
			['org-1', true, 'Acme Labs (Owner)'],
			['org-2', false, 'Analytical Engines Society of London and Surroundings (Member)']
		]);
		expect(form.inner).toContain('name="organizationId"');
		expect(buttons(form.inner)).toEqual([{ attributes: 'type="submit" class="kg-button kg-compact"', content: 'Switch' }]);
	});

	test('each organization links to its settings with its role and the active badge; links to the active one and to create', () => {
		const html = show(OrganizationSwitcher, { list: organizationList, settingsPath: '/org/settings', createUrl: '/org/new' });
		expect(rowOf(html, 'data-organization-id', 'org-1')).toContain('href="/org/settings?id=org-1">Acme Labs</a>');
		expect(rowOf(html, 'data-organization-id', 'org-1')).toContain('data-badge="active"');
		expect(rowOf(html, 'data-organization-id', 'org-2')).not.toContain('data-badge="active"');
		expect(rowOf(html, 'data-organization-id', 'org-2')).toContain('data-badge="role">Member<');
		expect(html).toContain('<a class="kg-link" href="/org/settings?id=org-1">Settings of Acme Labs</a>');
		expect(html).toContain('<a class="kg-link" href="/org/new">Create an organization</a>');
		expect(formsOf(html, 'set-active')[0].fields).toContainEqual(hidden('callbackUrl', '/auth/organizations'));
	});

	test('no organization: says so, no form; no active one: "None" chosen; no create link when the user may not create', () => {
		const empty = show(OrganizationSwitcher, { list: { ...emptyOrganizationList, canCreate: false } });
		expect(empty).toContain('You do not belong to any organization yet.');
		expect(forms(empty)).toEqual([]);
		expect(empty).not.toContain('Create an organization');
		const none = show(OrganizationSwitcher, { list: { ...organizationList, activeOrganizationId: null } });
		expect(none).toContain('<option value="" selected="">');
		expect(none).not.toContain('Settings of');
	});

	test('a hostile organization name stays text; the basePath moves the form', () => {
		const html = show(OrganizationSwitcher, { list: { ...organizationList, organizations: [{ id: 'x"><script>', name: '<img src=x onerror=alert(1)>', slug: 'x', logo: null, role: 'owner' }] }, basePath: '/api/auth' });
		expect(html).not.toContain('<img src=x');
		expect(html).toContain('&lt;img src=x onerror=alert(1)>');
		expect(html).not.toContain('"><script>');
		expect(forms(html)[0].action).toBe('/api/auth/organizations/set-active');
	});

	test('French, and the notice of a switch or a refusal', () => {
		const html = show(OrganizationSwitcher, { list: organizationList, messages: resolveMessages('fr'), result: 'switched' });
		expect(html).toContain('Changer</button>');
		expect(html).toContain('Acme Labs — Propriétaire');
		expect(html).toMatch(/role="status">\s*L’organisation active a été changée\.\s*</);
		expect(show(OrganizationSwitcher, { list: organizationList, error: 'OrganizationNotFound' })).toMatch(/role="alert">\s*This organization does not exist/);
	});
});

describe('CreateOrganization', () => {
	test('posts create with the CSRF token: a required name, an optional slug with its pattern and hint, an optional logo URL', () => {
		const html = show(CreateOrganization, { csrfToken: CSRF, callbackUrl: '/org' });
		const [form] = formsOf(html, 'create');
		expect(form.fields.slice(0, 2)).toEqual([hidden('csrfToken', CSRF), hidden('callbackUrl', '/org')]);
		expect(form.fields.find((field) => field.name === 'name')).toMatchObject({ type: 'text', required: '', maxlength: '100' });
		const slug = form.fields.find((field) => field.name === 'slug')!;
		expect(slug).toMatchObject({ pattern: SLUG_PATTERN, minlength: '2', maxlength: '48' });
		expect(slug.required).toBeUndefined();
		expect(form.inner).toContain(`id="${slug['aria-describedby']}">2 to 48 lowercase letters`);
		expect(form.fields.find((field) => field.name === 'logo')).toMatchObject({ type: 'text', inputmode: 'url', maxlength: '2048' });
		expect(buttons(form.inner).map((button) => button.content)).toEqual(['Create']);
		// the slug pattern is the routes' rule (one character passes it: minlength stops that)
		const rule = new RegExp(`^${SLUG_PATTERN}$`, 'v');
		expect(['acme-labs', 'a1'].every((value) => rule.test(value))).toBe(true);
		expect(['-acme', 'Acme', 'acme-', 'a'.repeat(49)].some((value) => rule.test(value))).toBe(false);
	});

	test('without a callbackUrl, the route decides where to go (no empty field)', () => {
		const [form] = formsOf(show(CreateOrganization, { csrfToken: CSRF }), 'create');
		expect(form.fields.map((field) => field.name)).not.toContain('callbackUrl');
	});

	test('French, and a refused slug', () => {
		const html = show(CreateOrganization, { csrfToken: CSRF, messages: resolveMessages('fr'), error: 'OrganizationSlugTaken' });
		expect(html).toContain('Nom court (facultatif)');
		expect(html).toMatch(/role="alert">\s*Une autre organisation utilise déjà ce nom court/);
	});
});

describe('OrganizationMembers', () => {
	test('the owner: every other member with a role select of the grantable roles and "Change", "Remove" behind a box; their own row "Leave" behind a box', () => {
		const html = show(OrganizationMembers, { detail: ownerDetail, callbackUrl: PAGE });
		const setRole = formsOf(html, 'set-role');
		expect(setRole).toHaveLength(2);
		expect(setRole[0].fields).toEqual([hidden('csrfToken', CSRF), hidden('organizationId', 'org-1'), hidden('callbackUrl', PAGE), hidden('memberId', 'mem-2')]);
		expect([...setRole[0].inner.matchAll(/<option value="([^"]+)"( selected="")?>/g)].map(([, value, selected]) => `${value}${selected ? '*' : ''}`)).toEqual(['owner', 'admin*', 'member']);
		expect(setRole[0].inner).toContain('<span>Role of Charles Babbage</span>');
		const remove = formsOf(html, 'remove-member');
		expect(remove.map((form) => form.fields.find((field) => field.name === 'memberId')?.value)).toEqual(['mem-2', 'mem-3']);
		expect(remove[0].fields).toContainEqual({ ...CONFIRM, 'aria-label': 'I understand that Charles Babbage loses access' });
		expect(buttons(remove[0].inner)[0].attributes).toContain('aria-label="Remove Charles Babbage"');
		const [leave] = formsOf(html, 'leave');
		expect(leave.fields).toEqual([hidden('csrfToken', CSRF), hidden('organizationId', 'org-1'), hidden('callbackUrl', '/auth/organizations'), CONFIRM]);
		expect(rowOf(html, 'data-member-id', 'mem-1')).toContain('data-badge="you">You<');
		expect(rowOf(html, 'data-member-id', 'mem-1')).toContain('class="kg-badge kg-badge-brand" data-badge="role">Owner<');
		expect(rowOf(html, 'data-member-id', 'mem-1')).not.toContain('set-role');
	});

	test('the owner: the invite form (email, a role of the grantable ones, member first chosen) and the invitations, pending ones with Revoke, expired and revoked marked so', () => {
		const html = show(OrganizationMembers, { detail: ownerDetail, callbackUrl: PAGE });
		const [invite] = formsOf(html, 'invite');
		expect(invite.fields).toContainEqual({ name: 'email', type: 'email', required: '', autocomplete: 'off', maxlength: '320' });
		expect(invite.inner).toContain('<option value="member" selected="">Member</option>');
		const revoke = formsOf(html, 'revoke-invitation');
		expect(revoke).toHaveLength(1);
		expect(revoke[0].fields).toContainEqual(hidden('invitationId', 'inv-1'));
		expect(buttons(revoke[0].inner)[0].attributes).toContain('aria-label="Revoke the invitation of grace@example.com"');
		expect(rowOf(html, 'data-invitation-id', 'inv-1')).toContain('Admin, invited by Ada Lovelace');
		expect(rowOf(html, 'data-invitation-id', 'inv-1')).toContain('Expires <time datetime="2026-06-06T12:00:00.000Z">Jun 6, 2026, 12:00 PM UTC</time>');
		expect(rowOf(html, 'data-invitation-id', 'inv-2')).toContain('data-badge="status">Expired<');
		expect(rowOf(html, 'data-invitation-id', 'inv-2')).toContain('Expired <time datetime="2026-05-30T12:00:00.000Z">');
		expect(rowOf(html, 'data-invitation-id', 'inv-3')).toContain('data-badge="status">Revoked<');
		expect(rowOf(html, 'data-invitation-id', 'inv-3')).toMatch(/<span class="kg-meta">Member<\/span>/);
	});

	test('an admin: no change on the owner, roles up to admin only, their own Leave', () => {
		const html = show(OrganizationMembers, { detail: adminDetail, callbackUrl: PAGE });
		expect(rowOf(html, 'data-member-id', 'mem-1')).not.toContain('<form');
		expect(formsOf(html, 'set-role').map((form) => form.fields.at(-1)?.value)).toEqual(['mem-3']);
		expect(formsOf(html, 'set-role')[0].inner).not.toContain('value="owner"');
		expect(formsOf(html, 'leave')).toHaveLength(1);
		expect(formsOf(html, 'remove-member')).toHaveLength(1);
	});

	test('a member: the list and Leave only; no invite form, no invitations section', () => {
		const html = show(OrganizationMembers, { detail: memberDetail, callbackUrl: PAGE });
		expect(forms(html).map((form) => form.action)).toEqual(['/auth/organizations/leave']);
		expect(html).not.toContain('Invite someone');
		expect(html).not.toContain('kitgate-organization-invitations');
		expect(rowOf(html, 'data-member-id', 'mem-3')).toContain('nameless-member-with-a-long-address@example.com');
	});

	test('the last owner (no canRemove on their own row) gets no Leave form', () => {
		const lastOwner = { ...ownerDetail, members: ownerDetail.members.map((member) => (member.you ? { ...member, canRemove: false } : member)) };
		expect(formsOf(show(OrganizationMembers, { detail: lastOwner, callbackUrl: PAGE }), 'leave')).toEqual([]);
	});

	test('hostile member names and addresses stay text', () => {
		const detail = { ...ownerDetail, members: [{ ...ownerDetail.members[1], name: '<b onmouseover=x>Eve</b>', email: '"><svg onload=x>@e.com' }] };
		const html = show(OrganizationMembers, { detail, callbackUrl: PAGE });
		expect(html).not.toContain('<b onmouseover');
		expect(html).not.toContain('<svg onload');
		expect(html).toContain('&lt;b onmouseover=x>Eve&lt;/b>');
	});

	test('French', () => {
		const html = show(OrganizationMembers, { detail: ownerDetail, callbackUrl: PAGE, messages: resolveMessages('fr') });
		expect(html).toContain('Envoyer l’invitation');
		expect(html).toContain('data-badge="role">Propriétaire<');
		expect(html).toContain('Je comprends que je perds l’accès à cette organisation');
	});
});

describe('OrganizationSettings', () => {
	test('the owner: the profile form with the current values, the teams (create, delete, add and remove members), the members, and the deletion behind a box going to the list', () => {
		const html = show(OrganizationSettings, { detail: ownerDetail, callbackUrl: PAGE, listUrl: '/org' });
		const [update] = formsOf(html, 'update');
		expect(update.fields).toContainEqual(expect.objectContaining({ name: 'name', value: 'Acme Labs', required: '' }));
		expect(update.fields).toContainEqual(expect.objectContaining({ name: 'slug', value: 'acme-labs', pattern: SLUG_PATTERN }));
		expect(update.fields).toContainEqual(expect.objectContaining({ name: 'logo', value: '' }));
		expect(formsOf(html, 'create-team')[0].fields).toContainEqual(expect.objectContaining({ name: 'name', required: '' }));
		expect(formsOf(html, 'delete-team').map((form) => form.fields.at(-1)?.value)).toEqual(['team-1', 'team-2']);
		const removeFromTeam = formsOf(html, 'remove-team-member');
		expect(removeFromTeam.map((form) => form.fields.slice(-2).map((field) => field.value))).toEqual([['team-1', 'user-1'], ['team-1', 'user-2']]);
		expect(buttons(removeFromTeam[0].inner)[0].attributes).toContain('aria-label="Remove Ada Lovelace from Engines"');
		const add = formsOf(html, 'add-team-member');
		expect(add.map((form) => [...form.inner.matchAll(/<option value="([^"]+)"/g)].map(([, value]) => value))).toEqual([['user-3'], ['user-1', 'user-2', 'user-3']]);
		const [remove] = formsOf(html, 'delete');
		expect(remove.fields).toEqual([hidden('csrfToken', CSRF), hidden('organizationId', 'org-1'), hidden('callbackUrl', '/org'), CONFIRM]);
		expect(formsOf(html, 'invite')).toHaveLength(1);
		expect(html).toContain('<a class="kg-link" href="/org">← All organizations</a>');
		expect(html).toContain('Your role: Owner');
	});

	test('a member: read-only profile and teams, no delete; the teams list names members', () => {
		const html = show(OrganizationSettings, { detail: memberDetail, callbackUrl: PAGE });
		expect(forms(html).map((form) => form.action)).toEqual(['/auth/organizations/leave']);
		expect(rowOf(html, 'data-team-id', 'team-1')).toContain('Ada Lovelace');
		expect(html).not.toContain('Delete the organization');
		expect(html).toContain('href="/auth/organizations">← All organizations');
	});

	test('an admin: may update and manage teams, not delete', () => {
		const html = show(OrganizationSettings, { detail: adminDetail, callbackUrl: PAGE });
		expect(formsOf(html, 'update')).toHaveLength(1);
		expect(formsOf(html, 'delete')).toEqual([]);
	});

	test('a logo is shown with its alt text; every notice', () => {
		const html = show(OrganizationSettings, { detail: { ...ownerDetail, organization: { ...ownerDetail.organization, logo: 'https://cdn.example.com/acme.png' } }, callbackUrl: PAGE, result: 'team-created' });
		expect(html).toContain('src="https://cdn.example.com/acme.png" alt="Logo of Acme Labs"');
		expect(html).toMatch(/role="status">\s*The team was created\.\s*</);
	});
});

describe('OrganizationInvitation', () => {
	test('signed in as the invited address: the invitation and a Join form posting the token with the CSRF token', () => {
		const html = show(OrganizationInvitation, { invitation: invitationForYou, token: INVITATION_TOKEN, signInUrl: '/signin' });
		expect(html).toContain('Join Acme Labs');
		expect(html).toContain('Ada Lovelace invited grace@example.com to join as Admin.');
		expect(html).toContain('The invitation expires Jun 6, 2026, 12:00 PM UTC.');
		const [join] = formsOf(html, 'accept-invitation');
		expect(join.fields).toEqual([hidden('csrfToken', CSRF), hidden('token', INVITATION_TOKEN)]);
		expect(buttons(join.inner)[0].content).toBe('Join Acme Labs');
		expect(html).not.toContain('/signin');
	});

	test('signed out: no form, a link to sign in as the invited address', () => {
		const html = show(OrganizationInvitation, { invitation: invitationSignedOut, token: INVITATION_TOKEN, signInUrl: '/auth/signin?callbackUrl=x' });
		expect(forms(html)).toEqual([]);
		expect(html).toContain('href="/auth/signin?callbackUrl=x">Sign in as grace@example.com to join</a>');
		expect(html).not.toContain(INVITATION_TOKEN);
	});

	test('signed in as another address: why, and a sign-out link; no form, no token', () => {
		const html = show(OrganizationInvitation, { invitation: invitationForSomeoneElse, token: INVITATION_TOKEN, signInUrl: '/signin', signOutUrl: '/bye' });
		expect(forms(html)).toEqual([]);
		expect(html).toContain('You are signed in as mallory@example.com, but this invitation is for grace@example.com.');
		expect(html).toContain('<a class="kg-link" href="/bye">Sign out</a>');
		expect(html).not.toContain(INVITATION_TOKEN);
		expect(show(OrganizationInvitation, { invitation: invitationForSomeoneElse, token: 't', signInUrl: '/signin' })).toContain('href="/auth/signout"');
	});

	test('no inviter named; French; a refusal', () => {
		expect(show(OrganizationInvitation, { invitation: { ...invitationForYou, inviterName: null }, token: 't', signInUrl: '/s' })).toContain('grace@example.com is invited to join as Admin.');
		const french = show(OrganizationInvitation, { invitation: invitationSignedOut, token: 't', signInUrl: '/s', messages: resolveMessages('fr'), error: 'InvitationExpired' });
		expect(french).toContain('Se connecter en tant que grace@example.com pour rejoindre');
		expect(french).toMatch(/role="alert">\s*Cette invitation est trop ancienne/);
	});
});
