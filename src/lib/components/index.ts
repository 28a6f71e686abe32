// Svelte components for sign-in and sign-out forms, and for passkeys. Export path: `kitgate/components`.
// SignIn and SignOut post to SvelteKit form actions (no JavaScript needed); the passkey components
// render without JavaScript too, and explain that passkeys need it.

export { default as SignIn } from './SignIn.svelte';
export { default as SignOut } from './SignOut.svelte';
export { default as PasskeySignIn } from './PasskeySignIn.svelte';
export { default as PasskeyRegister } from './PasskeyRegister.svelte';
export { defaultPasskeyTexts, passkeyErrorText, type PasskeyTexts } from './passkey-texts.js';
