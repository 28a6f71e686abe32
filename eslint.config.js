// Lint: recommended JS, TypeScript and Svelte rules.
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

export default ts.config(
	{
		ignores: ['**/node_modules/', 'bench/reference/', 'bench/.ab/', 'bench/.profiles/', '**/build/', '**/.builds/', 'build-base/', 'dist/', '**/.svelte-kit/', 'node_modules/', 'reports/', 'test-results/', 'storybook-static/', 'src/lib/server/pages/compiled/', '.data/']
	},
	js.configs.recommended,
	...ts.configs.recommended,
	...svelte.configs['flat/recommended'],
	{
		languageOptions: { globals: { ...globals.browser, ...globals.node } }
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts'],
		languageOptions: { parserOptions: { parser: ts.parser } }
	},
	{
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
			// links in the demo are built from `base` on purpose (the base path is part of the test matrix)
			'svelte/no-navigation-without-resolve': 'off'
		}
	}
);
