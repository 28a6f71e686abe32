// Stories of OrganizationMembers, given the detail a server load would pass: the owner's view (every
// change, invitations pending, expired and revoked), an admin's, a member's, the last owner, every
// result and refusal, dark, French, Paris time.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import OrganizationMembers from '$lib/components/organization/OrganizationMembers.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { adminDetail, memberDetail, ownerDetail } from '$lib/components/test/organization-views.js';

const meta = {
	title: 'Components/OrganizationMembers',
	component: OrganizationMembers,
	args: { detail: ownerDetail, callbackUrl: '/org/settings?id=org-1' }
} satisfies Meta<typeof OrganizationMembers>;

export default meta;
type Story = StoryObj<typeof meta>;

export const OwnerView: Story = {};
export const AdminView: Story = { args: { detail: adminDetail } };
export const MemberView: Story = { args: { detail: memberDetail } };
export const LastOwner: Story = { args: { detail: { ...ownerDetail, members: ownerDetail.members.map((member) => (member.you ? { ...member, canRemove: false } : member)) }, error: 'OrganizationLastOwner' } };
export const NoInvitations: Story = { args: { detail: { ...ownerDetail, invitations: [] } } };
export const Invited: Story = { args: { result: 'invited' } };
export const InvitationRevoked: Story = { args: { result: 'invitation-revoked' } };
export const RoleChanged: Story = { args: { result: 'role-changed' } };
export const MemberRemoved: Story = { args: { result: 'member-removed' } };
export const AlreadyMember: Story = { args: { error: 'OrganizationAlreadyMember' } };
export const Forbidden: Story = { args: { detail: adminDetail, error: 'OrganizationForbidden' } };
export const MemberGone: Story = { args: { error: 'OrganizationMemberNotFound' } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const DarkMember: Story = { globals: { theme: 'dark' }, args: { detail: memberDetail } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
export const InParis: Story = { args: { timeZone: 'Europe/Paris' } };
