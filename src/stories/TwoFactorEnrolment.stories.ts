// Stories of TwoFactorEnrolment, the second sign-in step of a user who must set up a second factor
// first (twoFactor.required): the key and its first code, a refused code, too many tries, the
// recovery codes once confirmed, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import TwoFactorEnrolment from '$lib/components/two-factor/TwoFactorEnrolment.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { enrolment, recoveryCodes } from '$lib/components/test/two-factor-fixtures.js';
import { request } from './fixtures.js';

const meta = {
	title: 'Components/TwoFactorEnrolment',
	component: TwoFactorEnrolment,
	args: { csrfToken: request.csrfToken, action: '/auth/second-factor', enrolment, signInUrl: '/auth/signin?callbackUrl=%2Fdashboard' }
} satisfies Meta<typeof TwoFactorEnrolment>;

export default meta;
type Story = StoryObj<typeof meta>;

export const KeyAndFirstCode: Story = {};
export const WrongFirstCode: Story = { args: { error: 'InvalidSecondFactor' } };
export const TooManyTries: Story = { args: { error: 'RateLimited' } };
export const RecoveryCodes: Story = { args: { recoveryCodes, continueUrl: '/dashboard' } };
export const Dark: Story = { globals: { theme: 'dark' }, args: { error: 'InvalidSecondFactor' } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
