// Stories of the SignIn component: an OAuth button with brand colour and logo, credentials and
// email fields (from the provider's config, or your own markup as a snippet), an error, the
// button's own content (snippet), French texts, no provider, light and dark. Auth.js's slot and
// snippet markup: SignInAuthjs.stories.ts.

import { createRawSnippet } from 'svelte';
import type { Meta, StoryObj } from '@storybook/sveltekit';
import SignIn from '$lib/components/SignIn.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import type { KitgateData } from '$lib/components/types.js';
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
/** `submitButton` is the content of the form's own submit button. */
export const CustomButtonContent: Story = {
	args: { submitButton: createRawSnippet(() => ({ render: () => '<span>Continue with GitHub →</span>' })) }
};
/** Your own credentials markup as a snippet prop (Auth.js's `credentials` slot); the form keeps its button. */
export const CredentialsSnippet: Story = {
	args: {
		provider: 'credentials',
		providerName: 'PIN',
		providerStyle: undefined,
		credentials: createRawSnippet(() => ({
			render: () => '<label class="kg-field"><span>PIN</span><input name="pin" type="password" inputmode="numeric" autocomplete="one-time-code" required></label>'
		})),
		submitButton: createRawSnippet(() => ({ render: () => '<span>Unlock</span>' }))
	}
};
export const NoProvider: Story = { args: { provider: undefined, providerName: undefined, providerStyle: undefined } };
export const French: Story = { args: { ...CredentialsWithError.args, providerName: 'mot de passe', messages: resolveMessages('fr') } };

/** What `kitgateData(event)` hands to the page: every provider, in config order. */
const data: KitgateData = {
	basePath: '/auth',
	providers: [
		{ id: 'github', name: 'GitHub', type: 'oauth', style: { brandColor: '#24292f', logo } },
		{ id: 'keycloak', name: 'Keycloak', type: 'oauth' },
		{ id: 'credentials', name: 'Credentials', type: 'credentials', credentials },
		{ id: 'email', name: 'Email', type: 'email' },
		{ id: 'passkey', name: 'Passkey', type: 'webauthn' }
	]
};
/** `<SignIn />` without a provider: the whole sign-in, like the built-in page. */
export const WholeSignIn: Story = { args: { provider: undefined, providerName: undefined, providerStyle: undefined, data } };
export const WholeSignInWithError: Story = { args: { ...WholeSignIn.args, error: 'OAuthAccountNotLinked', messages: resolveMessages('en') } };
export const WholeSignInDark: Story = { args: { ...WholeSignIn.args }, globals: { theme: 'dark' } };
/** `provider` picks one form from the data: its name, colours and fields. */
export const OneProviderFromData: Story = { args: { provider: 'credentials', providerName: undefined, providerStyle: undefined, data } };
