// The organization components in the three host apps of the stories (src/stories/HostApp.svelte): an
// app with no CSS, one with Tailwind CSS 4's reset, one with a UI library's theme (Skeleton), light and
// dark. The same components are axe-checked and measured in Chromium by organization-in-chromium.test.ts.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import HostApp from './HostApp.svelte';

const meta = {
	title: 'Components/Organizations in host apps',
	component: HostApp,
	args: { host: 'bare', content: 'organizations', data: { basePath: '/auth', providers: [] } },
	parameters: { layout: 'fullscreen' }
} satisfies Meta<typeof HostApp>;

export default meta;
type Story = StoryObj<typeof meta>;

export const SwitcherBare: Story = {};
export const SwitcherTailwindDark: Story = { args: { host: 'tailwind' }, globals: { theme: 'dark' } };
export const SwitcherSkeleton: Story = { args: { host: 'skeleton' } };
export const SettingsBareDark: Story = { args: { content: 'organization-settings' }, globals: { theme: 'dark' } };
export const SettingsTailwind: Story = { args: { host: 'tailwind', content: 'organization-settings' } };
export const SettingsSkeletonDark: Story = { args: { host: 'skeleton', content: 'organization-settings' }, globals: { theme: 'dark' } };
