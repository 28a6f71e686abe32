// Stories of the SignOut component: default, dark, the button's content (snippet), French texts.
// Auth.js's slot and snippet markup: SignOutAuthjs.stories.ts.

import { createRawSnippet } from 'svelte';
import type { Meta, StoryObj } from '@storybook/sveltekit';
import SignOut from '$lib/components/SignOut.svelte';
import { resolveMessages } from '$lib/messages/index.js';

const meta = {
	title: 'Components/SignOut',
	component: SignOut,
	args: {}
} satisfies Meta<typeof SignOut>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Dark: Story = { globals: { theme: 'dark' } };
export const WithRedirect: Story = { args: { options: { redirectTo: '/goodbye' } } };
/** `submitButton` is the content of the form's own submit button. */
export const CustomButtonContent: Story = {
	args: { submitButton: createRawSnippet(() => ({ render: () => '<span>Log out →</span>' })) }
};
export const French: Story = { args: { messages: resolveMessages('fr') } };
