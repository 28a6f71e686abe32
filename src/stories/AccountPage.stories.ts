// Stories of the built-in account page (GET /auth/account in a browser): AccountSettings in the
// page shell, light and dark, a new user, a stale sign-in, a refusal, after deletion, French, and
// the two-factor steps a form post answers (an enrolment, recovery codes shown once).

import type { Meta, StoryObj } from '@storybook/sveltekit';
import { emptyOverview, fullOverview, staleOverview } from '$lib/components/test/account-overviews.js';
import { enabledOverview, enrolment, recoveryCodes } from '$lib/components/test/two-factor-fixtures.js';
import { logo } from './fixtures.js';
import PagePreview from './PagePreview.svelte';

const links = { callbackUrl: 'https://app.example.com/auth/account', homeUrl: 'https://app.example.com/', signOutUrl: 'https://app.example.com/auth/signout' };

const meta = {
	title: 'Pages/Account',
	component: PagePreview,
	parameters: { layout: 'fullscreen' },
	args: { kind: 'account', props: { ...links, overview: fullOverview } }
} satisfies Meta<typeof PagePreview>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Light: Story = { args: { theme: { colorScheme: 'light' } } };
export const Dark: Story = { args: { theme: { colorScheme: 'dark' }, props: { ...links, overview: fullOverview, result: 'passkey-renamed' } } };
export const NewUser: Story = { args: { props: { ...links, overview: emptyOverview } } };
export const NeedsRecentSignIn: Story = { args: { props: { ...links, overview: staleOverview } } };
export const Refused: Story = { args: { props: { ...links, overview: staleOverview, error: 'LastSignInMethod' } } };
export const Deleted: Story = { args: { props: { ...links, overview: null, result: 'account-deleted' } } };
export const WithLogoAndBrandColor: Story = { args: { theme: { logo, brandColor: '#0f766e' } } };
export const French: Story = { args: { locale: 'fr' } };
export const TwoFactorEnrolment: Story = { args: { props: { ...links, overview: fullOverview, twoFactorEnrolment: enrolment } } };
export const TwoFactorEnrolmentDark: Story = { args: { theme: { colorScheme: 'dark' }, props: { ...links, overview: fullOverview, twoFactorEnrolment: enrolment } } };
export const TwoFactorRecoveryCodes: Story = { args: { props: { ...links, overview: enabledOverview, recoveryCodes, result: 'two-factor-enabled' } } };
