// Stories of the built-in organization pages (GET /auth/organizations, /settings?id=…, /invitation?token=…
// in a browser): the components in the page shell, light and dark, French, each role, each invitation state.

import type { Meta, StoryObj } from '@storybook/sveltekit';
import { adminDetail, emptyOrganizationList, INVITATION_TOKEN, invitationForSomeoneElse, invitationForYou, invitationSignedOut, memberDetail, organizationList, ownerDetail } from '$lib/components/test/organization-views.js';
import PagePreview from './PagePreview.svelte';

const ORIGIN = 'https://app.example.com';
const home = `${ORIGIN}/`;
const list = { list: organizationList, basePath: '/auth', callbackUrl: `${ORIGIN}/auth/organizations`, homeUrl: home };
const settings = { detail: ownerDetail, basePath: '/auth', callbackUrl: `${ORIGIN}/auth/organizations/settings?id=org-1`, listUrl: `${ORIGIN}/auth/organizations`, homeUrl: home };
const back = `callbackUrl=${encodeURIComponent(`${ORIGIN}/auth/organizations/invitation?token=${INVITATION_TOKEN}`)}`;
const invitation = { invitation: invitationForYou, token: INVITATION_TOKEN, basePath: '/auth', signInUrl: `${ORIGIN}/auth/signin?${back}`, signOutUrl: `${ORIGIN}/auth/signout?${back}`, homeUrl: home };

const meta = {
	title: 'Pages/Organizations',
	component: PagePreview,
	parameters: { layout: 'fullscreen' },
	args: { kind: 'organizations', props: list }
} satisfies Meta<typeof PagePreview>;

export default meta;
type Story = StoryObj<typeof meta>;

export const ListLight: Story = { args: { theme: { colorScheme: 'light' } } };
export const ListDark: Story = { args: { theme: { colorScheme: 'dark' }, props: { ...list, result: 'joined' } } };
export const ListEmpty: Story = { args: { props: { ...list, list: emptyOrganizationList } } };
export const ListFrench: Story = { args: { locale: 'fr' } };
export const SettingsOwnerLight: Story = { args: { kind: 'organization-settings', props: settings, theme: { colorScheme: 'light' } } };
export const SettingsOwnerDark: Story = { args: { kind: 'organization-settings', props: { ...settings, result: 'member-removed' }, theme: { colorScheme: 'dark' } } };
export const SettingsAdmin: Story = { args: { kind: 'organization-settings', props: { ...settings, detail: adminDetail } } };
export const SettingsMember: Story = { args: { kind: 'organization-settings', props: { ...settings, detail: memberDetail, error: 'OrganizationForbidden' } } };
export const SettingsFrench: Story = { args: { kind: 'organization-settings', props: settings, locale: 'fr' } };
export const InvitationForYouLight: Story = { args: { kind: 'organization-invitation', props: invitation, theme: { colorScheme: 'light' } } };
export const InvitationSignedOutDark: Story = { args: { kind: 'organization-invitation', props: { ...invitation, invitation: invitationSignedOut }, theme: { colorScheme: 'dark' } } };
export const InvitationAnotherAddress: Story = { args: { kind: 'organization-invitation', props: { ...invitation, invitation: invitationForSomeoneElse } } };
export const InvitationFrench: Story = { args: { kind: 'organization-invitation', props: invitation, locale: 'fr' } };
