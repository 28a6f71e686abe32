// Stories of AccountSettings, given the overview a server load would pass: several items of each
// kind, a new user with nothing, a stale sign-in (sensitive changes ask for a new one first), the
// last way in, JWT sessions, features off, the notice of every result and every refusal, dark, French,
// and the second factor (enabled, an enrolment, recovery codes shown once).

import type { Meta, StoryObj } from '@storybook/sveltekit';
import AccountSettings from '$lib/components/account/AccountSettings.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { emptyOverview, fullOverview, jwtOverview, lastWayOverview, restrictedOverview, staleOverview } from '$lib/components/test/account-overviews.js';
import { enabledOverview, enrolment, recoveryCodes, staleEnabledOverview } from '$lib/components/test/two-factor-fixtures.js';

const meta = {
	title: 'Components/AccountSettings',
	component: AccountSettings,
	args: { overview: fullOverview, callbackUrl: '/settings', deleteCallbackUrl: '/' }
} satisfies Meta<typeof AccountSettings>;

export default meta;
type Story = StoryObj<typeof meta>;

export const SeveralOfEach: Story = {};
export const Empty: Story = { args: { overview: emptyOverview } };
export const NeedsRecentSignIn: Story = { args: { overview: staleOverview } };
export const LastWayIn: Story = { args: { overview: lastWayOverview } };
export const JwtSessions: Story = { args: { overview: jwtOverview } };
export const FeaturesOff: Story = { args: { overview: restrictedOverview } };
export const Dark: Story = { globals: { theme: 'dark' }, args: { result: 'passkey-renamed' } };
export const DarkWithError: Story = { globals: { theme: 'dark' }, args: { overview: staleOverview, error: 'LastSignInMethod' } };
export const French: Story = { args: { messages: resolveMessages('fr'), result: 'other-sessions-ended' } };
export const InParis: Story = { args: { timeZone: 'Europe/Paris' } };

/** One story per result and per refusal, each showing its notice (src/stories/coverage.test.ts checks them all). */
export const ResultUnlinked: Story = { args: { result: 'unlinked' } };
export const ResultLinked: Story = { args: { result: 'linked' } };
export const ResultPasskeyAdded: Story = { args: { result: 'passkey-added' } };
export const ResultPasskeyRenamed: Story = { args: { result: 'passkey-renamed' } };
export const ResultPasskeyRemoved: Story = { args: { result: 'passkey-removed' } };
export const ResultSessionEnded: Story = { args: { result: 'session-ended' } };
export const ResultOtherSessionsEnded: Story = { args: { result: 'other-sessions-ended' } };
export const ResultEmailChangeRequested: Story = { args: { result: 'email-change-requested' } };
export const ResultEmailChanged: Story = { args: { result: 'email-changed' } };
export const ResultAccountDeleted: Story = { args: { result: 'account-deleted' } };
export const ErrorMissingCSRF: Story = { args: { error: 'MissingCSRF' } };
export const ErrorInvalidRequest: Story = { args: { error: 'InvalidRequest' } };
export const ErrorLastSignInMethod: Story = { args: { overview: lastWayOverview, error: 'LastSignInMethod' } };
export const ErrorRateLimited: Story = { args: { error: 'RateLimited' } };
export const ErrorVerification: Story = { args: { error: 'Verification' } };
export const ErrorEmailSignin: Story = { args: { error: 'EmailSignin' } };
export const ErrorFreshSignInRequired: Story = { args: { overview: staleOverview, error: 'FreshSignInRequired' } };
export const ErrorSessionRequired: Story = { args: { error: 'SessionRequired' } };
export const ErrorDefault: Story = { args: { error: 'Default' } };

/** The second factor: enabled among the other sections, and its steps, which stand alone. */
export const TwoFactorEnabled: Story = { args: { overview: enabledOverview } };
export const TwoFactorEnrolment: Story = { args: { twoFactorEnrolment: enrolment } };
export const ResultTwoFactorEnabled: Story = { args: { overview: enabledOverview, recoveryCodes, result: 'two-factor-enabled' } };
export const ResultRecoveryCodesRegenerated: Story = { args: { overview: enabledOverview, recoveryCodes, result: 'recovery-codes-regenerated' } };
export const ResultTwoFactorRemoved: Story = { args: { result: 'two-factor-removed' } };
export const ErrorInvalidSecondFactor: Story = { args: { overview: enabledOverview, error: 'InvalidSecondFactor' } };
export const ErrorTwoFactorAlreadyEnabled: Story = { args: { overview: enabledOverview, error: 'TwoFactorAlreadyEnabled' } };
export const ErrorTwoFactorNotEnabled: Story = { args: { error: 'TwoFactorNotEnabled' } };
export const TwoFactorNeedsRecentSignIn: Story = { args: { overview: staleEnabledOverview, error: 'FreshSignInRequired' } };
