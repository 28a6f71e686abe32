// Types of SvelteKit's internal paths module, which its renderer calls to set `base` for a page
// (`override`) and to restore it (`reset`); the component tests call them to render under a base path.
declare module '$app/paths/internal/server' {
	export function override(paths: { base: string; assets: string }): void;
	export function reset(): void;
}
