// Stories of OrganizationSwitcher, given the list a server load would pass: two organizations (one
// active), none active, a new user without any, a switch done and refused, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import OrganizationSwitcher from '$lib/components/organization/OrganizationSwitcher.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { emptyOrganizationList, organizationList } from '$lib/components/test/organization-views.js';

const meta = {
	title: 'Components/OrganizationSwitcher',
	component: OrganizationSwitcher,
	args: { list: organizationList, callbackUrl: '/dashboard', settingsPath: '/org/settings', createUrl: '/org/new' }
} satisfies Meta<typeof OrganizationSwitcher>;

export default meta;
type Story = StoryObj<typeof meta>;

export const TwoOrganizations: Story = {};
export const NoneActive: Story = { args: { list: { ...organizationList, activeOrganizationId: null } } };
export const NoOrganizationYet: Story = { args: { list: emptyOrganizationList } };
export const Switched: Story = { args: { result: 'switched' } };
export const Refused: Story = { args: { error: 'OrganizationNotFound' } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const DarkFrench: Story = { globals: { theme: 'dark' }, args: { messages: resolveMessages('fr') } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
