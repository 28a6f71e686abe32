// Stories of OrganizationInvitation (the invitation link's page body): signed in as the invited
// address (Join), signed out (sign in as …), signed in as another address, refused, dark, French.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import OrganizationInvitation from '$lib/components/organization/OrganizationInvitation.svelte';
import { resolveMessages } from '$lib/messages/index.js';
import { INVITATION_TOKEN, invitationForSomeoneElse, invitationForYou, invitationSignedOut } from '$lib/components/test/organization-views.js';

const meta = {
	title: 'Components/OrganizationInvitation',
	component: OrganizationInvitation,
	args: { invitation: invitationForYou, token: INVITATION_TOKEN, signInUrl: '/auth/signin?callbackUrl=%2Fauth%2Forganizations%2Finvitation', signOutUrl: '/auth/signout' }
} satisfies Meta<typeof OrganizationInvitation>;

export default meta;
type Story = StoryObj<typeof meta>;

export const ForYou: Story = {};
export const SignedOut: Story = { args: { invitation: invitationSignedOut } };
export const AnotherAddress: Story = { args: { invitation: invitationForSomeoneElse } };
export const NoInviterNamed: Story = { args: { invitation: { ...invitationForYou, inviterName: null } } };
export const Expired: Story = { args: { invitation: invitationSignedOut, error: 'InvitationExpired' } };
export const WrongAddress: Story = { args: { invitation: invitationForSomeoneElse, error: 'InvitationWrongAddress' } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const DarkSignedOut: Story = { globals: { theme: 'dark' }, args: { invitation: invitationSignedOut } };
export const French: Story = { args: { messages: resolveMessages('fr') } };
