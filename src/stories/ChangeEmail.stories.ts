// Stories of ChangeEmail: a confirmed address, an unconfirmed one, none with changes off, a stale
// sign-in, a link sent, a link refused, mail not sent, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import ChangeEmail from '$lib/components/account/ChangeEmail.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { emptyOverview, fullOverview, restrictedOverview, staleOverview } from '$lib/components/test/account-overviews.js';

const meta = {
	title: 'Components/ChangeEmail',
	component: ChangeEmail,
	args: { overview: fullOverview, callbackUrl: '/settings' }
} satisfies Meta<typeof ChangeEmail>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Confirmed: Story = {};
export const NotConfirmed: Story = { args: { overview: emptyOverview } };
export const Off: Story = { args: { overview: restrictedOverview } };
export const NeedsRecentSignIn: Story = { args: { overview: staleOverview } };
export const LinkSent: Story = { args: { result: 'email-change-requested' } };
export const Changed: Story = { args: { result: 'email-changed' } };
export const LinkRefused: Story = { args: { error: 'Verification' } };
export const NotSent: Story = { args: { error: 'EmailSignin' } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
