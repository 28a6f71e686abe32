// Stories of CreateOrganization: the empty form, a taken short name, a created one, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import CreateOrganization from '$lib/components/organization/CreateOrganization.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { CSRF } from '$lib/components/test/organization-views.js';

const meta = {
	title: 'Components/CreateOrganization',
	component: CreateOrganization,
	args: { csrfToken: CSRF, callbackUrl: '/org' }
} satisfies Meta<typeof CreateOrganization>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const SlugTaken: Story = { args: { error: 'OrganizationSlugTaken' } };
export const InvalidField: Story = { args: { error: 'InvalidRequest' } };
export const Created: Story = { args: { result: 'created' } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const DarkSlugTaken: Story = { globals: { theme: 'dark' }, args: { error: 'OrganizationSlugTaken' } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
