// Svelte components for sign-in and sign-out forms, and for passkeys, with the message table they
// read. Export path: `kitgate/components`. Styles: `import 'kitgate/styles.css'` once.
// SignIn and SignOut post to SvelteKit form actions (no JavaScript needed, safe to prerender).

export { default as SignIn } from './SignIn.svelte';
export { default as SignOut } from './SignOut.svelte';
export { default as PasskeySignIn } from './PasskeySignIn.svelte';
export { default as PasskeyRegister } from './PasskeyRegister.svelte';
export { setMessages } from './messages-context.js';
export { passkeyErrorId } from './passkey-errors.js';
export type { AuthorizationParams, CredentialField, FormOptions, Messages, ProviderButtonStyle } from './types.js';
export { messages, resolveMessages, type Locale, type MessageTable } from '../messages/index.js';
