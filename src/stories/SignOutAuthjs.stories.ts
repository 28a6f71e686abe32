// Stories of SignOut written the Auth.js way: the `submitButton` content as a named slot
// (Svelte 4 syntax) and as a snippet, light and dark. The markup is in SignOutAuthjsMarkup.svelte.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import SignOutAuthjsMarkup from './SignOutAuthjsMarkup.svelte';

const meta = {
	title: 'Components/SignOut/Auth.js markup',
	component: SignOutAuthjsMarkup,
	args: { syntax: 'slots' },
	argTypes: { syntax: { control: 'inline-radio', options: ['slots', 'snippets'] } }
} satisfies Meta<typeof SignOutAuthjsMarkup>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Slot: Story = {};
export const Snippet: Story = { args: { syntax: 'snippets' } };
export const SlotDark: Story = { globals: { theme: 'dark' } };
