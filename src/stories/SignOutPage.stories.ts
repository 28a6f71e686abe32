// Stories of the built-in sign-out page: light, dark, with a logo and brand colour, in French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import { logo, request } from './fixtures.js';
import PagePreview from './PagePreview.svelte';

const meta = {
	title: 'Pages/Sign out',
	component: PagePreview,
	parameters: { layout: 'fullscreen' },
	args: { kind: 'signout', props: { ...request, action: '/auth/signout' } }
} satisfies Meta<typeof PagePreview>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Light: Story = { args: { theme: { colorScheme: 'light' } } };
export const Dark: Story = { args: { theme: { colorScheme: 'dark' } } };
export const WithLogoAndBrandColor: Story = { args: { theme: { logo, brandColor: '#b91c1c' } } };
export const French: Story = { args: { locale: 'fr' } };
