// Stories of the built-in sign-in page: every provider type, light and dark, with and without a
// logo, in French, and one story per sign-in error type (the alert above the forms).

import type { Meta, StoryObj } from '@storybook/sveltekit';
import { everyProvider, logo, request } from './fixtures.js';
import PagePreview from './PagePreview.svelte';

const meta = {
	title: 'Pages/Sign in',
	component: PagePreview,
	parameters: { layout: 'fullscreen' },
	args: { kind: 'signin', props: { providers: everyProvider, ...request } }
} satisfies Meta<typeof PagePreview>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The sign-in page with an error alert of type `error`. */
const withError = (error: string): Story => ({ args: { props: { providers: everyProvider, ...request, error } } });

export const EveryProviderLight: Story = { args: { theme: { colorScheme: 'light' } } };
export const EveryProviderDark: Story = { args: { theme: { colorScheme: 'dark' } } };
export const WithLogoAndBrandColor: Story = { args: { theme: { logo, brandColor: '#0f766e' } } };
export const WithLogoDark: Story = { args: { theme: { logo, colorScheme: 'dark' } } };
export const OnlyCredentials: Story = { args: { props: { providers: everyProvider.filter((p) => p.type === 'credentials'), ...request } } };
export const French: Story = { args: { locale: 'fr', props: { providers: everyProvider, ...request, error: 'CredentialsSignin' } } };
export const ErrorInDark: Story = { args: { theme: { colorScheme: 'dark' }, props: { providers: everyProvider, ...request, error: 'OAuthAccountNotLinked' } } };
export const ErrorOAuthSignin: Story = withError('OAuthSignin');
export const ErrorOAuthCallbackError: Story = withError('OAuthCallbackError');
export const ErrorInvalidCheck: Story = withError('InvalidCheck');
export const ErrorCallbackRouteError: Story = withError('CallbackRouteError');
export const ErrorOAuthAccountNotLinked: Story = withError('OAuthAccountNotLinked');
export const ErrorEmailSignin: Story = withError('EmailSignin');
export const ErrorCredentialsSignin: Story = withError('CredentialsSignin');
export const ErrorMissingCSRF: Story = withError('MissingCSRF');
export const ErrorSessionRequired: Story = withError('SessionRequired');
export const ErrorUserBanned: Story = withError('UserBanned');
export const ErrorJWTSessionError: Story = withError('JWTSessionError');
export const ErrorAccessDenied: Story = withError('AccessDenied');
export const ErrorVerification: Story = withError('Verification');
export const ErrorInvalidProvider: Story = withError('InvalidProvider');
export const ErrorWebAuthnVerificationError: Story = withError('WebAuthnVerificationError');
export const ErrorRateLimited: Story = withError('RateLimited');
/** Where a sensitive account change (removing the last passkey, deleting the account) sends a stale sign-in. */
export const ErrorFreshSignInRequired: Story = withError('FreshSignInRequired');
/** Where the second sign-in step sends a browser whose pending sign-in is gone (issue 19). */
export const ErrorSecondFactorExpired: Story = withError('SecondFactorExpired');
export const ErrorInvalidSecondFactor: Story = withError('InvalidSecondFactor');
export const ErrorDefault: Story = withError('Default');
