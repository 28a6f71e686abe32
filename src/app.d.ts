// See https://svelte.dev/docs/kit/types#app.d.ts
// `App.Locals.auth` is declared by kitgate/sveltekit.
import '$lib/server/sveltekit/index.js';

declare global {
	namespace App {
		interface PageData {
			session?: import('$lib/index.js').Session | null;
		}
	}
}

export {};
