// Stories of the built-in error page: one per error type with its own text, the generic page,
// light and dark, with a logo, in French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import { logo } from './fixtures.js';
import PagePreview from './PagePreview.svelte';

const links = { signInUrl: '/auth/signin', homeUrl: 'https://app.example.com/' };

const meta = {
	title: 'Pages/Error',
	component: PagePreview,
	parameters: { layout: 'fullscreen' },
	args: { kind: 'error', props: { ...links, error: 'Default' } }
} satisfies Meta<typeof PagePreview>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The error page for error type `error`. */
const page = (error: string): Story => ({ args: { props: { ...links, error } } });

export const Dark: Story = { args: { theme: { colorScheme: 'dark' }, props: { ...links, error: 'AccessDenied' } } };
export const WithLogo: Story = { args: { theme: { logo }, props: { ...links, error: 'Verification' } } };
export const French: Story = { args: { locale: 'fr', props: { ...links, error: 'Verification' } } };
export const ErrorConfiguration: Story = page('Configuration');
export const ErrorAccessDenied: Story = page('AccessDenied');
export const ErrorVerification: Story = page('Verification');
export const ErrorUntrustedHost: Story = page('UntrustedHost');
export const ErrorMissingAdapterMethod: Story = page('MissingAdapterMethod');
export const ErrorMissingCSRF: Story = page('MissingCSRF');
export const ErrorInvalidProvider: Story = page('InvalidProvider');
export const ErrorUnknownAction: Story = page('UnknownAction');
export const ErrorInvalidCallbackUrl: Story = page('InvalidCallbackUrl');
export const ErrorInvalidRequest: Story = page('InvalidRequest');
export const ErrorRateLimited: Story = page('RateLimited');
export const ErrorLastSignInMethod: Story = page('LastSignInMethod');
export const ErrorTwoFactorAlreadyEnabled: Story = page('TwoFactorAlreadyEnabled');
export const ErrorTwoFactorNotEnabled: Story = page('TwoFactorNotEnabled');
export const ErrorAdminRequired: Story = page('AdminRequired');
export const ErrorAdminTargetForbidden: Story = page('AdminTargetForbidden');
export const ErrorUserNotFound: Story = page('UserNotFound');
export const ErrorUserExists: Story = page('UserExists');
export const ErrorImpersonationForbidden: Story = page('ImpersonationForbidden');
export const ErrorDefault: Story = page('Default');
export const ErrorOrganizationNotFound: Story = page('OrganizationNotFound');
export const ErrorOrganizationForbidden: Story = page('OrganizationForbidden');
export const ErrorOrganizationSlugTaken: Story = page('OrganizationSlugTaken');
export const ErrorOrganizationLastOwner: Story = page('OrganizationLastOwner');
export const ErrorOrganizationMemberNotFound: Story = page('OrganizationMemberNotFound');
export const ErrorOrganizationAlreadyMember: Story = page('OrganizationAlreadyMember');
export const ErrorInvitationInvalid: Story = page('InvitationInvalid');
export const ErrorInvitationExpired: Story = page('InvitationExpired');
export const ErrorInvitationRevoked: Story = page('InvitationRevoked');
export const ErrorInvitationUsed: Story = page('InvitationUsed');
export const ErrorInvitationWrongAddress: Story = page('InvitationWrongAddress');
export const InvitationExpiredFrenchDark: Story = { args: { locale: 'fr', theme: { colorScheme: 'dark' }, props: { ...links, error: 'InvitationExpired' } } };
