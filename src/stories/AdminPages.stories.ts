// Stories of the built-in admin pages (GET /auth/admin and /auth/admin/user?id=… in a browser):
// AdminUsers and AdminUserDetail in the page shell, light and dark, French, a banned user, another admin.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import { bannedDetail, fullDetail, otherAdminDetail, usersPage } from '$lib/components/test/admin-views.js';
import PagePreview from './PagePreview.svelte';

const ORIGIN = 'https://app.example.com';
const list = { list: usersPage, callbackUrl: `${ORIGIN}/auth/admin`, homeUrl: `${ORIGIN}/` };
const user = { detail: fullDetail, callbackUrl: `${ORIGIN}/auth/admin/user?id=user-1`, listUrl: `${ORIGIN}/auth/admin`, homeUrl: `${ORIGIN}/` };

const meta = {
	title: 'Pages/Admin',
	component: PagePreview,
	parameters: { layout: 'fullscreen' },
	args: { kind: 'admin-users', props: list }
} satisfies Meta<typeof PagePreview>;

export default meta;
type Story = StoryObj<typeof meta>;

export const UsersLight: Story = { args: { theme: { colorScheme: 'light' } } };
export const UsersDark: Story = { args: { theme: { colorScheme: 'dark' }, props: { ...list, result: 'user-deleted' } } };
export const UsersFrench: Story = { args: { locale: 'fr' } };
export const UserLight: Story = { args: { kind: 'admin-user', props: user, theme: { colorScheme: 'light' } } };
export const UserDark: Story = { args: { kind: 'admin-user', props: { ...user, result: 'role-set' }, theme: { colorScheme: 'dark' } } };
export const UserBanned: Story = { args: { kind: 'admin-user', props: { ...user, detail: bannedDetail } } };
export const UserAnotherAdmin: Story = { args: { kind: 'admin-user', props: { ...user, detail: otherAdminDetail, error: 'AdminTargetForbidden' } } };
export const UserFrench: Story = { args: { kind: 'admin-user', props: user, locale: 'fr' } };
