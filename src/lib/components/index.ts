// Svelte components for sign-in and sign-out forms. Export path: `kitgate/components`.
// They post to SvelteKit form actions, so they work without JavaScript and in prerendered pages.

export { default as SignIn } from './SignIn.svelte';
export { default as SignOut } from './SignOut.svelte';
