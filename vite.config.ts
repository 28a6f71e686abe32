import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';
import { compilePages } from './scripts/compile-pages.js';

// The built-in pages are compiled to plain JS so the engine runs without Vite (Express, plain Node).
compilePages();

export default defineConfig({
	plugins: [sveltekit()],
	server: { host: '127.0.0.1' },
	preview: { host: '127.0.0.1' },
	test: {
		environment: 'node',
		include: ['src/**/*.test.ts'],
		globalSetup: ['src/lib/server/core/test/global-setup.ts'],
		testTimeout: 20_000,
		hookTimeout: 60_000
	}
});
