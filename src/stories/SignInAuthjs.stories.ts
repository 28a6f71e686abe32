// Stories of SignIn written the Auth.js way: the `credentials` and `email` fields and the
// `submitButton` content as named slots (Svelte 4 syntax) and as snippets, light and dark, with
// an error. The markup is in SignInAuthjsMarkup.svelte.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import SignInAuthjsMarkup from './SignInAuthjsMarkup.svelte';

const meta = {
	title: 'Components/SignIn/Auth.js markup',
	component: SignInAuthjsMarkup,
	args: { form: 'credentials', syntax: 'slots' },
	argTypes: {
		form: { control: 'inline-radio', options: ['credentials', 'email'] },
		syntax: { control: 'inline-radio', options: ['slots', 'snippets'] }
	}
} satisfies Meta<typeof SignInAuthjsMarkup>;

export default meta;
type Story = StoryObj<typeof meta>;

export const CredentialsSlots: Story = {};
export const CredentialsSnippets: Story = { args: { syntax: 'snippets' } };
export const CredentialsSlotsWithError: Story = { args: { error: 'CredentialsSignin' } };
export const CredentialsSlotsDark: Story = { args: { error: 'CredentialsSignin' }, globals: { theme: 'dark' } };
export const EmailSlots: Story = { args: { form: 'email' } };
export const EmailSnippets: Story = { args: { form: 'email', syntax: 'snippets' } };
export const EmailSnippetsDark: Story = { args: { form: 'email', syntax: 'snippets' }, globals: { theme: 'dark' } };
