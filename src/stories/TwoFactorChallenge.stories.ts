// Stories of TwoFactorChallenge, the second sign-in step's form: empty, after a wrong code, after
// too many tries, with a link to sign in another way, dark, French, with "Trust this browser".

import type { Meta, StoryObj } from '@storybook/sveltekit';
import TwoFactorChallenge from '$lib/components/two-factor/TwoFactorChallenge.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { request } from './fixtures.js';

const meta = {
	title: 'Components/TwoFactorChallenge',
	component: TwoFactorChallenge,
	args: { csrfToken: request.csrfToken }
} satisfies Meta<typeof TwoFactorChallenge>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const WrongCode: Story = { args: { error: 'InvalidSecondFactor' } };
export const TooManyTries: Story = { args: { error: 'RateLimited' } };
export const WithSignInLink: Story = { args: { signInUrl: '/auth/signin?callbackUrl=%2Fdashboard' } };
export const Dark: Story = { globals: { theme: 'dark' }, args: { error: 'InvalidSecondFactor' } };
export const French: Story = { args: { messages: resolveMessages('fr'), error: 'InvalidSecondFactor' } };
export const TrustThisBrowser: Story = { args: { trustDays: 30 } };
export const TrustThisBrowserFrench: Story = { args: { trustDays: 30, messages: resolveMessages('fr') } };
