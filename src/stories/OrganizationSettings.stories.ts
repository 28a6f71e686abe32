// Stories of OrganizationSettings: the owner's view (profile, teams, members, delete), an admin's, a
// member's (read-only), with a logo, results and refusals, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import OrganizationSettings from '$lib/components/organization/OrganizationSettings.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { adminDetail, memberDetail, ownerDetail } from '$lib/components/test/organization-views.js';
import { logo } from './fixtures.js';

const meta = {
	title: 'Components/OrganizationSettings',
	component: OrganizationSettings,
	args: { detail: ownerDetail, callbackUrl: '/org/settings?id=org-1', listUrl: '/org' }
} satisfies Meta<typeof OrganizationSettings>;

export default meta;
type Story = StoryObj<typeof meta>;

export const OwnerView: Story = {};
export const AdminView: Story = { args: { detail: adminDetail } };
export const MemberView: Story = { args: { detail: memberDetail } };
export const WithLogo: Story = { args: { detail: { ...ownerDetail, organization: { ...ownerDetail.organization, logo } } } };
export const Updated: Story = { args: { result: 'updated' } };
export const TeamCreated: Story = { args: { result: 'team-created' } };
export const TeamMemberAdded: Story = { args: { result: 'team-member-added' } };
export const SlugTaken: Story = { args: { error: 'OrganizationSlugTaken' } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const DarkAdmin: Story = { globals: { theme: 'dark' }, args: { detail: adminDetail, result: 'team-deleted' } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
