// Storybook for kitgate's built-in pages and components (`npm run storybook`, `npm run build-storybook`).
// Stories live in src/stories (outside src/lib, so svelte-package never ships them).
import type { StorybookConfig } from '@storybook/sveltekit';

const config: StorybookConfig = {
	stories: ['../src/stories/**/*.stories.ts'],
	addons: [],
	framework: { name: '@storybook/sveltekit', options: {} },
	core: { disableTelemetry: true }
};

export default config;
