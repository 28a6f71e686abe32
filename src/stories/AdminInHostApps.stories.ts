// The admin components in the three host apps of the stories (src/stories/HostApp.svelte): an app
// with no CSS, one with Tailwind CSS 4's reset, one with a UI library's theme (Skeleton), light and
// dark. The same pages are axe-checked and measured in Chromium by admin-in-chromium.test.ts.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import HostApp from './HostApp.svelte';

const meta = {
	title: 'Components/Admin in host apps',
	component: HostApp,
	args: { host: 'bare', content: 'admin-users', data: { basePath: '/auth', providers: [] } },
	parameters: { layout: 'fullscreen' }
} satisfies Meta<typeof HostApp>;

export default meta;
type Story = StoryObj<typeof meta>;

export const UsersBare: Story = {};
export const UsersBareDark: Story = { globals: { theme: 'dark' } };
export const UsersTailwind: Story = { args: { host: 'tailwind' } };
export const UsersSkeletonDark: Story = { args: { host: 'skeleton' }, globals: { theme: 'dark' } };
export const UserBare: Story = { args: { content: 'admin-user' } };
export const UserTailwindDark: Story = { args: { host: 'tailwind', content: 'admin-user' }, globals: { theme: 'dark' } };
export const UserSkeleton: Story = { args: { host: 'skeleton', content: 'admin-user' } };
