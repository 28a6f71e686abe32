// Stories of the page a sign-in link opens (confirm with a button): light, dark, with a logo, in French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import { logo, request } from './fixtures.js';
import PagePreview from './PagePreview.svelte';

const link = { ...request, action: '/auth/callback/email', token: 'one-time-token', email: 'reader@example.com', host: 'app.example.com' };

const meta = {
	title: 'Pages/Verify email',
	component: PagePreview,
	parameters: { layout: 'fullscreen' },
	args: { kind: 'verify-email', props: link }
} satisfies Meta<typeof PagePreview>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Light: Story = { args: { theme: { colorScheme: 'light' } } };
export const Dark: Story = { args: { theme: { colorScheme: 'dark' } } };
export const WithLogo: Story = { args: { theme: { logo } } };
export const French: Story = { args: { locale: 'fr' } };
