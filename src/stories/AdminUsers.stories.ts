// Stories of AdminUsers, given the list a server load would pass: a middle page with every badge,
// one short page, nobody yet, a search without match, a notice and a refusal, dark, French, Paris time.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import AdminUsers from '$lib/components/admin/AdminUsers.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { emptyList, noMatch, onePage, usersPage } from '$lib/components/test/admin-views.js';

const meta = {
	title: 'Components/AdminUsers',
	component: AdminUsers,
	args: { list: usersPage, callbackUrl: '/admin', detailPath: '/admin/user' }
} satisfies Meta<typeof AdminUsers>;

export default meta;
type Story = StoryObj<typeof meta>;

export const EveryBadge: Story = {};
export const OnePage: Story = { args: { list: onePage } };
export const NobodyYet: Story = { args: { list: emptyList } };
export const NoMatch: Story = { args: { list: noMatch } };
export const UserCreated: Story = { args: { result: 'user-created' } };
export const Refused: Story = { args: { error: 'AdminRequired' } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const DarkWithNotice: Story = { globals: { theme: 'dark' }, args: { result: 'user-deleted' } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
export const InParis: Story = { args: { timeZone: 'Europe/Paris' } };
