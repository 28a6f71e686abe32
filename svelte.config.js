import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		// BUILD_DIR lets the e2e suite build a second copy of the demo under a base path
		adapter: adapter({ out: process.env.BUILD_DIR ?? 'build' }),
		// the demo can be served under a base path (e2e checks basePath handling): BASE_PATH=/app
		paths: { base: process.env.BASE_PATH ?? '' },
		// the remote functions demo (src/routes/remote): SvelteKit's remote functions are experimental
		experimental: { remoteFunctions: true }
	}
};

export default config;
