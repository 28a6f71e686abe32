// Stories of TwoFactorSetup in every step: not enrolled, enrolment started with the QR code,
// recovery codes shown once, enabled with N codes left (and one, and none), a removal that needs a
// recent sign-in, a wrong code, an adapter without second factors, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import TwoFactorSetup from '$lib/components/two-factor/TwoFactorSetup.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { fullOverview, restrictedOverview } from '$lib/components/test/account-overviews.js';
import { enabledOverview, enrolment, oneCodeLeftOverview, recoveryCodes, staleEnabledOverview } from '$lib/components/test/two-factor-fixtures.js';

const meta = {
	title: 'Components/TwoFactorSetup',
	component: TwoFactorSetup,
	args: { overview: fullOverview, callbackUrl: '/settings' }
} satisfies Meta<typeof TwoFactorSetup>;

export default meta;
type Story = StoryObj<typeof meta>;

export const NotEnrolled: Story = {};
export const EnrolmentStarted: Story = { args: { enrolment } };
export const WrongFirstCode: Story = { args: { enrolment, error: 'InvalidSecondFactor' } };
export const RecoveryCodesShown: Story = { args: { overview: enabledOverview, recoveryCodes, result: 'two-factor-enabled' } };
export const EnabledSevenCodesLeft: Story = { args: { overview: enabledOverview } };
export const EnabledOneCodeLeft: Story = { args: { overview: oneCodeLeftOverview } };
export const EnabledNoCodesLeft: Story = { args: { overview: { ...enabledOverview, twoFactor: { ...enabledOverview.twoFactor!, recoveryCodesLeft: 0 } } } };
export const RemovalNeedsRecentSignIn: Story = { args: { overview: staleEnabledOverview } };
export const WrongCode: Story = { args: { overview: enabledOverview, error: 'InvalidSecondFactor' } };
export const Removed: Story = { args: { result: 'two-factor-removed' } };
export const Unavailable: Story = { args: { overview: restrictedOverview } };
export const Dark: Story = { globals: { theme: 'dark' }, args: { enrolment } };
export const DarkEnabled: Story = { globals: { theme: 'dark' }, args: { overview: enabledOverview } };
export const French: Story = { args: { messages: resolveMessages('fr'), overview: enabledOverview } };
export const FrenchEnrolment: Story = { args: { messages: resolveMessages('fr'), enrolment } };
