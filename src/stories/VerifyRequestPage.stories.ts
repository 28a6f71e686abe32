// Stories of the built-in "check your email" page: with and without the link lifetime, light,
// dark, with a logo, in French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import { logo } from './fixtures.js';
import PagePreview from './PagePreview.svelte';

const meta = {
	title: 'Pages/Verify request',
	component: PagePreview,
	parameters: { layout: 'fullscreen' },
	args: { kind: 'verify-request', props: { homeUrl: 'https://app.example.com/', linkLifetime: '24 hours' } }
} satisfies Meta<typeof PagePreview>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Light: Story = { args: { theme: { colorScheme: 'light' } } };
export const Dark: Story = { args: { theme: { colorScheme: 'dark' } } };
export const WithoutLifetime: Story = { args: { props: { homeUrl: 'https://app.example.com/' } } };
export const WithLogo: Story = { args: { theme: { logo } } };
export const French: Story = { args: { locale: 'fr', props: { homeUrl: 'https://app.example.com/', linkLifetime: '24 heures' } } };
