// kitgate's components in the three host apps the real-app tests build (e2e-apps/components.spec.ts):
// an app with no CSS, one with Tailwind CSS 4's reset, one with a UI library's theme (Skeleton),
// light and dark; the header with UserButton (menu open) or SignOut; the whole SignIn from data.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import type { KitgateData } from '$lib/components/types.js';
import HostApp from './HostApp.svelte';
import { logo } from './fixtures.js';

/** What `kitgateData(event)` gives for the getting-started guide's config, plus GitHub and a passkey. */
const data: KitgateData = {
	basePath: '/auth',
	accountUrl: '/auth/account',
	providers: [
		{ id: 'github', name: 'GitHub', type: 'oauth', style: { brandColor: '#24292f', logo } },
		{ id: 'oidc', name: 'Company SSO', type: 'oauth' },
		{ id: 'credentials', name: 'Credentials', type: 'credentials', credentials: { username: { label: 'Username', required: false }, password: { label: 'Password', type: 'password', required: false } } },
		{ id: 'email', name: 'Email', type: 'email' },
		{ id: 'passkey', name: 'Passkey', type: 'webauthn' }
	]
};

const meta = {
	title: 'Components/In host apps',
	component: HostApp,
	args: { host: 'bare', data },
	parameters: { layout: 'fullscreen' }
} satisfies Meta<typeof HostApp>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Bare: Story = {};
export const BareDark: Story = { globals: { theme: 'dark' } };
export const BareWithSignOutAndError: Story = { args: { header: 'signout', error: 'CredentialsSignin' } };
export const Tailwind: Story = { args: { host: 'tailwind', open: true } };
export const TailwindDark: Story = { args: { host: 'tailwind', open: true }, globals: { theme: 'dark' } };
export const Skeleton: Story = { args: { host: 'skeleton', open: true } };
export const SkeletonDark: Story = { args: { host: 'skeleton', open: true }, globals: { theme: 'dark' } };
