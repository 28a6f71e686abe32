// Stories of the UserButton component: initials, an image, a long name, no account link, the menu
// open, French texts, light and dark. Its place in a host app's header: InHostApps.stories.ts.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import UserButton from '$lib/components/UserButton.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { logo } from './fixtures.js';

const session = { user: { name: 'Ada Lovelace', email: 'ada@example.com', image: null } };

const meta = {
	title: 'Components/UserButton',
	component: UserButton,
	args: { session, accountHref: '/auth/account' },
	parameters: { layout: 'centered' }
} satisfies Meta<typeof UserButton>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Initials: Story = {};
export const Open: Story = { args: { open: true } };
export const OpenDark: Story = { args: { open: true }, globals: { theme: 'dark' } };
export const WithImage: Story = { args: { session: { user: { ...session.user, image: logo } }, open: true } };
export const LongNameAndEmailOnly: Story = {
	args: { session: { user: { name: null, email: 'a.very.long.address.for.a.menu@subdomain.example.com', image: null } }, open: true }
};
export const WithoutAccountLink: Story = { args: { accountHref: null, open: true } };
export const French: Story = { args: { open: true, messages: resolveMessages('fr') } };
