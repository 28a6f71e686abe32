// Stories of AdminUserDetail, given the detail a server load would pass: a user with something of
// each kind, a banned user, a user with nothing, another admin and oneself (read-only), dark,
// French, and the notice of every result and every refusal (src/stories/coverage.test.ts checks them all).

import type { Meta, StoryObj } from '@storybook/sveltekit';
import AdminUserDetail from '$lib/components/admin/AdminUserDetail.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { bannedDetail, bareDetail, fullDetail, otherAdminDetail, selfDetail } from '$lib/components/test/admin-views.js';

const meta = {
	title: 'Components/AdminUserDetail',
	component: AdminUserDetail,
	args: { detail: fullDetail, callbackUrl: '/admin/user?id=user-1', listUrl: '/admin' }
} satisfies Meta<typeof AdminUserDetail>;

export default meta;
type Story = StoryObj<typeof meta>;

export const SomethingOfEach: Story = {};
export const Banned: Story = { args: { detail: bannedDetail } };
export const NothingYet: Story = { args: { detail: bareDetail } };
export const AnotherAdmin: Story = { args: { detail: otherAdminDetail } };
export const Themselves: Story = { args: { detail: selfDetail } };
export const Dark: Story = { globals: { theme: 'dark' }, args: { result: 'banned' } };
export const DarkBannedWithError: Story = { globals: { theme: 'dark' }, args: { detail: bannedDetail, error: 'UserBanned' } };
export const French: Story = { args: { messages: resolveMessages('fr'), result: 'two-factor-reset' } };
export const InParis: Story = { args: { timeZone: 'Europe/Paris' } };

/** One story per result and per refusal, each showing its notice. */
export const ResultUserCreated: Story = { args: { result: 'user-created' } };
export const ResultRoleSet: Story = { args: { result: 'role-set' } };
export const ResultBanned: Story = { args: { detail: bannedDetail, result: 'banned' } };
export const ResultUnbanned: Story = { args: { result: 'unbanned' } };
export const ResultSessionEnded: Story = { args: { result: 'session-ended' } };
export const ResultSessionsEnded: Story = { args: { result: 'sessions-ended' } };
export const ResultTwoFactorReset: Story = { args: { result: 'two-factor-reset' } };
export const ResultPasskeyRemoved: Story = { args: { result: 'passkey-removed' } };
export const ResultUserDeleted: Story = { args: { result: 'user-deleted' } };
export const ResultImpersonating: Story = { args: { result: 'impersonating' } };
export const ResultImpersonationStopped: Story = { args: { result: 'impersonation-stopped' } };
export const ErrorMissingCSRF: Story = { args: { error: 'MissingCSRF' } };
export const ErrorInvalidRequest: Story = { args: { error: 'InvalidRequest' } };
export const ErrorAdminRequired: Story = { args: { error: 'AdminRequired' } };
export const ErrorAdminTargetForbidden: Story = { args: { detail: otherAdminDetail, error: 'AdminTargetForbidden' } };
export const ErrorUserNotFound: Story = { args: { error: 'UserNotFound' } };
export const ErrorUserBanned: Story = { args: { detail: bannedDetail, error: 'UserBanned' } };
export const ErrorImpersonationForbidden: Story = { args: { error: 'ImpersonationForbidden' } };
export const ErrorRateLimited: Story = { args: { error: 'RateLimited' } };
export const ErrorDefault: Story = { args: { error: 'Default' } };
