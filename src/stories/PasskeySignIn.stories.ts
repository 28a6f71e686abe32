// Stories of the PasskeySignIn component: with and without the email field, dark, French.
// (The button enables itself once the page has hydrated, as in an app. Passkey autofill is off:
// there is no kitgate server here to give it a challenge, and it shows nothing of its own.)

import type { Meta, StoryObj } from '@storybook/sveltekit';
import PasskeySignIn from '$lib/components/PasskeySignIn.svelte';
import { resolveMessages } from '$lib/messages/index.js';

const meta = {
	title: 'Components/PasskeySignIn',
	component: PasskeySignIn,
	args: { autofill: false }
} satisfies Meta<typeof PasskeySignIn>;

export default meta;
type Story = StoryObj<typeof meta>;

export const SavedPasskey: Story = {};
export const WithEmail: Story = { args: { withEmail: true } };
export const Dark: Story = { args: { withEmail: true }, globals: { theme: 'dark' } };
export const French: Story = { args: { withEmail: true, messages: resolveMessages('fr') } };
