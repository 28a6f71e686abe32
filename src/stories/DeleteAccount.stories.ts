// Stories of DeleteAccount: the form, a stale sign-in (deleting asks for a new one first), off,
// refused, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import DeleteAccount from '$lib/components/account/DeleteAccount.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { fullOverview, restrictedOverview, staleOverview } from '$lib/components/test/account-overviews.js';

const meta = {
	title: 'Components/DeleteAccount',
	component: DeleteAccount,
	args: { overview: fullOverview, callbackUrl: '/' }
} satisfies Meta<typeof DeleteAccount>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const NeedsRecentSignIn: Story = { args: { overview: staleOverview } };
export const Off: Story = { args: { overview: restrictedOverview } };
export const RateLimited: Story = { args: { error: 'RateLimited' } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
