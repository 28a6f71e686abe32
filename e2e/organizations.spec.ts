// Organizations in Chromium on both integrations: an owner (a fresh address, signed in by an email
// link) creates an organization and invites a colleague's fresh address; the colleague opens the
// mail's link in their own browser while signed out, signs up through the email link the page
// offers, comes back to the invitation and joins, landing in the organization (their /protected
// shows it); the owner creates a second organization and switches between them; changes the
// colleague's role (seen on the colleague's next request) and removes them (their next request no
// longer sees the organization). A third person signed in with another address who opens an
// invitation link is told why they cannot join, and cannot. axe on every organization page.
// Each demo on database and JWT sessions. SvelteKit runs the demo's own pages built from the
// components (/organizations); Express kitgate's built-in pages (/auth/organizations). Both use
// kitgate's built-in invitation page (the mail's link).

import type { Page } from '@playwright/test';
import { strategyApps, type DemoApp } from './apps.js';
import { expect, test } from './fixtures.js';
import { mailedLink } from './mailbox.js';
import { signInOnThisPage, uniqueAddress, userSignsIn } from './sign-in.js';
import { expectNoSeriousA11yViolations, viewport } from './ui.js';

test.use({ viewport });

/** Where each demo lists the user's organizations: the demo's own page, or kitgate's built-in one. */
const listPath = (app: DemoApp) => (app.name === 'sveltekit' ? '/organizations' : '/auth/organizations');
/** The settings page of one organization on each demo. */
const settingsPath = (app: DemoApp, id: string) =>
	`${app.name === 'sveltekit' ? '/organizations/settings' : '/auth/organizations/settings'}?${new URLSearchParams({ id })}`;

/** A fresh address per test: the demo databases outlive a run. */
const newAddress = (app: DemoApp, what: string) => uniqueAddress('org', what, app.name);

/** A fresh organization name (the slug is made from it, and slugs are unique across the demo's database). */
const newName = (what: string) => `${what} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** What the demo's /protected page says of the active organization (read on a fresh request). */
async function protectedOrganization(page: Page, app: DemoApp): Promise<string> {
	await page.goto(`${app.origin}/protected`);
	return (await page.getByTestId('protected-organization').innerText()).trim();
}

/** A screenshot of the whole page beside the test's results, to look at. */
async function shoot(page: Page, name: string): Promise<void> {
	await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/** From the nav: the organizations page, then creates `name` there. Returns the new organization's id (it becomes the active one). */
async function createOrganization(page: Page, app: DemoApp, name: string): Promise<string> {
	await page.goto(`${app.origin}/protected`);
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organizations' }).click();
	await expect(page).toHaveURL(`${app.origin}${listPath(app)}`);
	const create = page.locator('form.kitgate-organization-create');
	await create.getByLabel('Name', { exact: true }).fill(name);
	await create.getByRole('button', { name: 'Create' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'The organization was created.' })).toBeVisible();
	const list = (await (await page.request.get(`${app.origin}/auth/organizations`, { headers: { accept: 'application/json' } })).json()) as {
		organizations: { id: string; name: string; role: string }[];
		activeOrganizationId: string | null;
	};
	const created = list.organizations.find((organization) => organization.name === name);
	expect(created?.role).toBe('owner');
	expect(list.activeOrganizationId).toBe(created!.id);
	return created!.id;
}

/** On an organization's settings page: invites `address` as a member, and sees the invitation pending. */
async function invite(page: Page, address: string): Promise<void> {
	const form = page.locator('form.kitgate-organization-invite');
	await form.getByLabel('Email address').fill(address);
	await expect(form.getByLabel('Role')).toHaveValue('member');
	await form.getByRole('button', { name: 'Send invitation' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'The invitation was sent.' })).toBeVisible();
	await expect(page.locator('.kitgate-organization-invitations')).toContainText(address);
}

// both demos on both session strategies: a removed member's JWT and their database session alike lose the organization
for (const app of strategyApps) {
	test.describe(`${app.name}, ${app.strategy} sessions`, () => {
		test('create, invite by email, the colleague signs up from the link and joins; switch; change their role; remove them', async ({ newPerson }) => {
			test.setTimeout(120_000);
			const ownerAddress = newAddress(app, 'owner');
			const colleagueAddress = newAddress(app, 'colleague');
			const first = newName('Acme');
			const second = newName('Beta');
			const owner = await newPerson();
			const colleague = await newPerson();
			// the owner signs in, has no organization yet, and creates one from the organizations page
			await userSignsIn(owner.page, ownerAddress, app.origin);
			expect(await protectedOrganization(owner.page, app)).toBe('No active organization.');
			await owner.page.goto(`${app.origin}${listPath(app)}`);
			await expect(owner.page.getByText('You do not belong to any organization yet.')).toBeVisible();
			await expectNoSeriousA11yViolations(owner.page);
			const firstId = await createOrganization(owner.page, app, first);
			await shoot(owner.page, 'list-after-create');
			await expectNoSeriousA11yViolations(owner.page);
			expect(await protectedOrganization(owner.page, app)).toBe(`Active organization: ${first} (owner).`);

			// its settings page (from the switcher's link) invites the colleague's address
			await owner.page.goto(`${app.origin}${listPath(app)}`);
			await owner.page.getByRole('link', { name: `Settings of ${first}` }).click();
			await expect(owner.page).toHaveURL(`${app.origin}${settingsPath(app, firstId)}`);
			await expect(owner.page.getByRole('heading', { name: 'Members' })).toBeVisible();
			// the only owner is not offered to leave (the organization always keeps an owner)
			await expect(owner.page.locator('li.kitgate-organization-member').filter({ hasText: ownerAddress }).getByRole('button', { name: 'Leave' })).toHaveCount(0);
			await invite(owner.page, colleagueAddress);
			await shoot(owner.page, 'settings-invited');
			await expectNoSeriousA11yViolations(owner.page);

			// the colleague, signed out in their own browser, opens the mail's link: sign in to join
			const invitationLink = await mailedLink(colleagueAddress, '/auth/organizations/invitation?token=');
			expect(new URL(invitationLink).origin).toBe(app.origin);
			await colleague.page.goto(invitationLink);
			await expect(colleague.page.getByRole('heading', { name: `Join ${first}` })).toBeVisible();
			await expect(colleague.page.getByRole('button', { name: `Join ${first}` })).toHaveCount(0);
			await shoot(colleague.page, 'invitation-signed-out');
			await expectNoSeriousA11yViolations(colleague.page);
			await colleague.page.getByRole('link', { name: `Sign in as ${colleagueAddress} to join` }).click();
			// they have no account: the email link signs them up, and brings them back to the invitation
			await signInOnThisPage(colleague.page, colleagueAddress);
			await expect(colleague.page).toHaveURL(invitationLink);
			// their organizations page lists the invitation waiting for them (joined through the link)
			await colleague.page.goto(`${app.origin}${listPath(app)}`);
			const received = colleague.page.getByRole('region', { name: 'Invitations for you' });
			await expect(received).toContainText(first);
			await expect(received).toContainText('Open the link in the invitation mail to join.');
			await shoot(colleague.page, 'list-invited');
			await expectNoSeriousA11yViolations(colleague.page);
			await colleague.page.goto(invitationLink);
			const join = colleague.page.getByRole('button', { name: `Join ${first}` });
			await expect(join).toBeVisible();
			await shoot(colleague.page, 'invitation-signed-in');
			await expectNoSeriousA11yViolations(colleague.page);
			await join.click();
			// they land in the organization, which is now their active one
			await expect(colleague.page.getByRole('status').filter({ hasText: 'You joined the organization.' })).toBeVisible();
			await expect(colleague.page.locator('.kitgate-organization-members')).toContainText(ownerAddress);
			await shoot(colleague.page, 'joined');
			await expectNoSeriousA11yViolations(colleague.page);
			expect(await protectedOrganization(colleague.page, app)).toBe(`Active organization: ${first} (member).`);
			// the link works once
			await colleague.page.goto(invitationLink);
			await expect(colleague.page.getByRole('button', { name: `Join ${first}` })).toHaveCount(0);

			// the owner creates a second organization (now the active one) and switches back and forth
			const secondId = await createOrganization(owner.page, app, second);
			expect(secondId).not.toBe(firstId);
			expect(await protectedOrganization(owner.page, app)).toBe(`Active organization: ${second} (owner).`);
			for (const [name, id] of [
				[first, firstId],
				[second, secondId]
			]) {
				await owner.page.goto(`${app.origin}${listPath(app)}`);
				await owner.page.getByLabel('Active organization').selectOption(id);
				await owner.page.getByRole('button', { name: 'Switch' }).click();
				await expect(owner.page.getByRole('status').filter({ hasText: 'The active organization was changed.' })).toBeVisible();
				await expect(owner.page).toHaveURL(new RegExp(`^${app.origin}${listPath(app)}\\?organization=switched$`));
				await expect(owner.page.locator(`li[data-organization-id="${id}"][data-active]`)).toBeVisible();
				expect(await protectedOrganization(owner.page, app)).toBe(`Active organization: ${name} (owner).`);
			}
			await owner.page.goto(`${app.origin}${listPath(app)}`);
			await shoot(owner.page, 'list-two-organizations');
			await expectNoSeriousA11yViolations(owner.page);

			// the owner makes the colleague an admin of the first: the colleague's next request sees it
			await owner.page.goto(`${app.origin}${settingsPath(app, firstId)}`);
			const row = owner.page.locator('li.kitgate-organization-member').filter({ hasText: colleagueAddress });
			await expect(row.locator('[data-badge="role"]')).toHaveText('Member');
			await row.getByLabel(`Role of ${colleagueAddress}`).selectOption('admin');
			await row.getByRole('button', { name: 'Change' }).click();
			await expect(owner.page.getByRole('status').filter({ hasText: 'The role was changed.' })).toBeVisible();
			await expect(row.locator('[data-badge="role"]')).toHaveText('Admin');
			expect(await protectedOrganization(colleague.page, app)).toBe(`Active organization: ${first} (admin).`);

			// the owner removes the colleague: their next request no longer sees the organization
			await row.getByRole('checkbox', { name: `I understand that ${colleagueAddress} loses access` }).check();
			await row.getByRole('button', { name: `Remove ${colleagueAddress}` }).click();
			await expect(owner.page.getByRole('status').filter({ hasText: 'The member was removed.' })).toBeVisible();
			await expect(owner.page.locator('li.kitgate-organization-member').filter({ hasText: colleagueAddress })).toHaveCount(0);
			await shoot(owner.page, 'settings-removed');
			expect(await protectedOrganization(colleague.page, app)).toBe('No active organization.');
			// nor its settings page: not a member is the same answer as no such organization
			const gone = await colleague.page.goto(`${app.origin}${settingsPath(app, firstId)}`);
			expect(gone?.status()).toBe(404);
			await colleague.page.goto(`${app.origin}${listPath(app)}`);
			await expect(colleague.page.getByText('You do not belong to any organization yet.')).toBeVisible();
		});

		test('an invitation link opened by someone signed in with another address says why, and cannot be accepted', async ({ newPerson }) => {
			test.setTimeout(90_000);
			const ownerAddress = newAddress(app, 'owner');
			const invitedAddress = newAddress(app, 'invited');
			const otherAddress = newAddress(app, 'other');
			const name = newName('Gamma');
			const owner = await newPerson();
			const other = await newPerson();
			await userSignsIn(owner.page, ownerAddress, app.origin);
			const id = await createOrganization(owner.page, app, name);
			await owner.page.goto(`${app.origin}${settingsPath(app, id)}`);
			await invite(owner.page, invitedAddress);
			const invitationLink = await mailedLink(invitedAddress, '/auth/organizations/invitation?token=');

			await userSignsIn(other.page, otherAddress, app.origin);
			await other.page.goto(invitationLink);
			await expect(other.page.getByText(`You are signed in as ${otherAddress}, but this invitation is for ${invitedAddress}.`)).toBeVisible();
			await expect(other.page.getByRole('button', { name: `Join ${name}` })).toHaveCount(0);
			await shoot(other.page, 'invitation-wrong-address');
			await expectNoSeriousA11yViolations(other.page);

			// posting the accept form anyway (with this browser's CSRF token) is refused with its own code
			const token = new URL(invitationLink).searchParams.get('token')!;
			const detail = (await (await other.page.request.get(invitationLink, { headers: { accept: 'application/json' } })).json()) as { csrfToken: string; matchesSignedInUser: boolean };
			expect(detail.matchesSignedInUser).toBe(false);
			const refused = await other.page.request.post(`${app.origin}/auth/organizations/accept-invitation`, {
				headers: { 'content-type': 'application/json', origin: app.origin },
				data: { token, csrfToken: detail.csrfToken }
			});
			expect(refused.status()).toBe(403);
			expect(await refused.json()).toMatchObject({ error: 'InvitationWrongAddress' });
			expect(await protectedOrganization(other.page, app)).toBe('No active organization.');
			await other.page.goto(`${app.origin}${listPath(app)}`);
			await expect(other.page.getByText('You do not belong to any organization yet.')).toBeVisible();

			// the invitation is still pending for its address
			await owner.page.goto(`${app.origin}${settingsPath(app, id)}`);
			await expect(owner.page.locator('.kitgate-organization-invitations li').filter({ hasText: invitedAddress })).toContainText('Pending');
		});
	});
}
