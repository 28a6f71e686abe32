// Stories of ConnectedAccounts: an OAuth and an email account with providers to connect, nothing
// connected, the last way in, a stale sign-in, a refused unlink, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import ConnectedAccounts from '$lib/components/account/ConnectedAccounts.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { emptyOverview, fullOverview, lastWayOverview, staleOverview } from '$lib/components/test/account-overviews.js';

const meta = {
	title: 'Components/ConnectedAccounts',
	component: ConnectedAccounts,
	args: { overview: fullOverview, callbackUrl: '/settings' }
} satisfies Meta<typeof ConnectedAccounts>;

export default meta;
type Story = StoryObj<typeof meta>;

export const SeveralAccounts: Story = {};
export const Empty: Story = { args: { overview: emptyOverview } };
export const LastWayIn: Story = { args: { overview: lastWayOverview } };
export const NeedsRecentSignIn: Story = { args: { overview: staleOverview } };
export const Unlinked: Story = { args: { result: 'unlinked' } };
export const RefusedLastWayIn: Story = { args: { overview: lastWayOverview, error: 'LastSignInMethod' } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
