// Stories of the SignOut component: default, dark, a custom button (snippet), French texts.

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
export const CustomButton: Story = {
	args: { submitButton: createRawSnippet(() => ({ render: () => '<button type="submit" class="kg-button kg-provider">Log out</button>' })) }
};
export const French: Story = { args: { messages: resolveMessages('fr') } };
