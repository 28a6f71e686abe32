// Stories of PasskeyList: two passkeys (named, and known only by their make), none, the last one
// on a stale sign-in, a rename done, a refused removal, a passkey error, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import PasskeyList from '$lib/components/account/PasskeyList.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { emptyOverview, fullOverview, staleOverview } from '$lib/components/test/account-overviews.js';

const meta = {
	title: 'Components/PasskeyList',
	component: PasskeyList,
	args: { overview: fullOverview, callbackUrl: '/settings' }
} satisfies Meta<typeof PasskeyList>;

export default meta;
type Story = StoryObj<typeof meta>;

export const TwoPasskeys: Story = {};
export const Empty: Story = { args: { overview: emptyOverview } };
export const LastPasskeyNeedsRecentSignIn: Story = { args: { overview: staleOverview } };
export const Renamed: Story = { args: { result: 'passkey-renamed' } };
export const Added: Story = { args: { result: 'passkey-added' } };
export const RefusedLastWayIn: Story = { args: { overview: staleOverview, error: 'LastSignInMethod' } };
export const VerificationFailed: Story = { args: { error: 'WebAuthnVerificationError' } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
