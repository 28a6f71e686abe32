// Stories of the PasskeyRegister component, given the list a server load would pass: several
// passkeys, none, signed out, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import PasskeyRegister from '$lib/components/PasskeyRegister.svelte';
import { resolveMessages } from '$lib/messages/index.js';

const passkeys = [
	{ credentialID: 'Zm9vYmFyLXN5bmNlZC0xMjM0NTY', credentialDeviceType: 'multiDevice', credentialBackedUp: true, transports: ['internal', 'hybrid'] },
	{ credentialID: 'YmF6cXV4LWtleS05ODc2NTQ', credentialDeviceType: 'singleDevice', credentialBackedUp: false, transports: ['usb'] }
];

const meta = {
	title: 'Components/PasskeyRegister',
	component: PasskeyRegister,
	args: { passkeys }
} satisfies Meta<typeof PasskeyRegister>;

export default meta;
type Story = StoryObj<typeof meta>;

export const TwoPasskeys: Story = {};
export const NoPasskeys: Story = { args: { passkeys: [] } };
export const SignedOut: Story = { args: { passkeys: null } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
