// Stories of ActiveSessions: three database sessions (one on an unknown browser), this device only,
// JWT sessions, ended sessions, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import ActiveSessions from '$lib/components/account/ActiveSessions.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { emptyOverview, fullOverview, jwtOverview } from '$lib/components/test/account-overviews.js';

const meta = {
	title: 'Components/ActiveSessions',
	component: ActiveSessions,
	args: { overview: fullOverview, callbackUrl: '/settings' }
} satisfies Meta<typeof ActiveSessions>;

export default meta;
type Story = StoryObj<typeof meta>;

export const ThreeSessions: Story = {};
export const ThisDeviceOnly: Story = { args: { overview: emptyOverview } };
export const JwtSessions: Story = { args: { overview: jwtOverview } };
export const SessionEnded: Story = { args: { result: 'session-ended' } };
export const OthersEnded: Story = { args: { overview: emptyOverview, result: 'other-sessions-ended' } };
export const RefusedUnknownSession: Story = { args: { error: 'InvalidRequest' } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const French: Story = { args: { messages: resolveMessages('fr'), timeZone: 'Europe/Paris' } };
