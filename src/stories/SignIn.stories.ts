// Stories of the SignIn component: an OAuth button with brand colour and logo, credentials and
// email fields, an error, a custom button (snippet), French texts, no provider, light and dark.

import { createRawSnippet } from 'svelte';
import type { Meta, StoryObj } from '@storybook/sveltekit';
import SignIn from '$lib/components/SignIn.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { logo } from './fixtures.js';

const meta = {
	title: 'Components/SignIn',
	component: SignIn,
	args: { provider: 'github', providerName: 'GitHub', providerStyle: { brandColor: '#24292f', logo } }
} satisfies Meta<typeof SignIn>;

export default meta;
type Story = StoryObj<typeof meta>;

const credentials = {
	username: { label: 'Username', autocomplete: 'username' },
	password: { label: 'Password', type: 'password', autocomplete: 'current-password' }
};

export const OAuthProvider: Story = {};
export const OAuthProviderDark: Story = { globals: { theme: 'dark' } };
export const LightBrandColor: Story = { args: { provider: 'gitlab', providerName: 'GitLab', providerStyle: { brandColor: '#fca326' } } };
export const WithoutBrandColor: Story = { args: { provider: 'keycloak', providerName: 'Keycloak', providerStyle: undefined } };
export const Credentials: Story = { args: { provider: 'credentials', providerName: 'Password', providerStyle: undefined, credentials } };
export const CredentialsWithError: Story = { args: { ...Credentials.args, error: 'CredentialsSignin' } };
export const CredentialsDark: Story = { args: { ...CredentialsWithError.args }, globals: { theme: 'dark' } };
export const Email: Story = { args: { provider: 'email', providerName: 'Email', providerStyle: undefined, email: true } };
export const AuthorizationParams: Story = { args: { authorizationParams: { prompt: 'login' }, options: { redirectTo: '/account' } } };
export const CustomButton: Story = {
	args: {
		submitButton: createRawSnippet(() => ({ render: () => '<button type="submit" class="kg-button kg-provider">Continue with GitHub →</button>' }))
	}
};
export const NoProvider: Story = { args: { provider: undefined, providerName: undefined, providerStyle: undefined } };
export const French: Story = { args: { ...CredentialsWithError.args, providerName: 'mot de passe', messages: resolveMessages('fr') } };
