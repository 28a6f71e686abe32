// Stories of the built-in second sign-in step (GET /auth/second-factor) and of the page after a
// sign-in with a recovery code: light, dark, a refused code, too many tries, codes left (several,
// one, none), with a logo, in French; with "Trust this browser"; the forced enrolment of
// twoFactor.required (the key, a refused first code, the recovery codes, dark, French); with "Use a
// passkey" (disabled here: its script runs only in the built-in page).

import type { Meta, StoryObj } from '@storybook/sveltekit';
import { enrolment, recoveryCodes } from '$lib/components/test/two-factor-fixtures.js';
import { logo, request } from './fixtures.js';
import PagePreview from './PagePreview.svelte';

const challenge = { action: 'https://app.example.com/auth/second-factor', signInUrl: 'https://app.example.com/auth/signin?callbackUrl=%2Fdashboard', csrfToken: request.csrfToken };
const recovered = (remaining: number) => ({ remaining, continueUrl: 'https://app.example.com/dashboard', accountUrl: 'https://app.example.com/auth/account' });

const meta = {
	title: 'Pages/Second factor',
	component: PagePreview,
	parameters: { layout: 'fullscreen' },
	args: { kind: 'second-factor', props: challenge }
} satisfies Meta<typeof PagePreview>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Light: Story = { args: { theme: { colorScheme: 'light' } } };
export const Dark: Story = { args: { theme: { colorScheme: 'dark' }, props: { ...challenge, error: 'InvalidSecondFactor' } } };
export const WrongCode: Story = { args: { props: { ...challenge, error: 'InvalidSecondFactor' } } };
export const TooManyTries: Story = { args: { props: { ...challenge, error: 'RateLimited' } } };
export const WithLogo: Story = { args: { theme: { logo } } };
export const French: Story = { args: { locale: 'fr', props: { ...challenge, error: 'InvalidSecondFactor' } } };
export const RecoveryCodeUsed: Story = { args: { kind: 'recovery-code-used', props: recovered(9) } };
export const RecoveryCodeUsedDark: Story = { args: { kind: 'recovery-code-used', theme: { colorScheme: 'dark' }, props: recovered(1) } };
export const RecoveryCodeUsedLastOne: Story = { args: { kind: 'recovery-code-used', props: recovered(0) } };
export const RecoveryCodeUsedFrench: Story = { args: { kind: 'recovery-code-used', locale: 'fr', props: recovered(4) } };
export const TrustThisBrowser: Story = { args: { props: { ...challenge, trustDays: 30 } } };
export const WithPasskey: Story = { args: { props: { ...challenge, trustDays: 30, passkey: { url: 'https://app.example.com/auth/second-factor/passkey' } } } };
export const Enrolment: Story = { args: { props: { ...challenge, enrolment } } };
export const EnrolmentWrongCode: Story = { args: { props: { ...challenge, enrolment, error: 'InvalidSecondFactor' } } };
export const EnrolmentRecoveryCodes: Story = { args: { props: { ...challenge, recoveryCodes: [...recoveryCodes], continueUrl: 'https://app.example.com/dashboard' } } };
export const EnrolmentDark: Story = { args: { theme: { colorScheme: 'dark' }, props: { ...challenge, enrolment } } };
export const EnrolmentFrench: Story = { args: { locale: 'fr', props: { ...challenge, enrolment } } };
