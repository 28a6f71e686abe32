// The stories keep up with the pages and components: every story renders (svelte/server, with the
// args Storybook would give it), every error type with its own text has a story showing that text,
// every account result and refusal has an AccountSettings story showing its notice (every admin
// one an AdminUserDetail story), and every built-in page and exported component has stories,
// light and dark.

import type { Component } from 'svelte';
import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import * as components from '../lib/components/index.js';
import { messages } from '../lib/messages/index.js';
import type { PageKind } from '../lib/server/pages/types.js';
import PagePreview from './PagePreview.svelte';

interface Story {
	args?: Record<string, unknown>;
	globals?: Record<string, unknown>;
}
interface StoryModule {
	default: { title: string; component: Component<Record<string, unknown>>; args?: Record<string, unknown> };
	[name: string]: unknown;
}
interface RenderedStory {
	id: string;
	/** the stories file's `meta.component` */
	component: unknown;
	args: Record<string, unknown>;
	globals: Record<string, unknown>;
	body: string;
}

const storyFiles = import.meta.glob<StoryModule>('./*.stories.ts', { eager: true });

/** Every story of every stories file, rendered on the server with its args merged over the file's (as Storybook does). */
function renderAllStories(): RenderedStory[] {
	const rendered: RenderedStory[] = [];
	for (const { default: meta, ...stories } of Object.values(storyFiles)) {
		for (const [name, story] of Object.entries(stories) as [string, Story][]) {
			const args = { ...meta.args, ...story.args };
			const { body } = render(meta.component, { props: args });
			rendered.push({ id: `${meta.title} / ${name}`, component: meta.component, args, globals: story.globals ?? {}, body });
		}
	}
	return rendered;
}

/** Error types that have a text with this id prefix and suffix in the English table. */
const typesWithText = (prefix: string, suffix = '') =>
	Object.keys(messages.en)
		.filter((id) => id.startsWith(prefix) && id.endsWith(suffix))
		.map((id) => id.slice(prefix.length, id.length - suffix.length));

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const pageKinds = Object.keys({ signin: 1, signout: 1, error: 1, 'verify-request': 1, 'verify-email': 1, account: 1, 'second-factor': 1, 'recovery-code-used': 1, 'admin-users': 1, 'admin-user': 1, organizations: 1, 'organization-settings': 1, 'organization-invitation': 1 } satisfies Record<PageKind, 1>) as PageKind[];
/** Stories of built-in pages (PagePreview) of one kind. */
const pageStories = (stories: RenderedStory[], kind: PageKind) => stories.filter((s) => s.component === PagePreview && s.args.kind === kind);
const pageError = (story: RenderedStory) => (story.args.props as { error?: string }).error;

describe('stories', () => {
	const stories = renderAllStories();

	test('every story renders', () => {
		expect(Object.keys(storyFiles).length).toBeGreaterThan(5);
		expect(stories.length).toBeGreaterThan(Object.keys(storyFiles).length);
		for (const story of stories) expect(story.body.replace(/<!--[^]*?-->/g, '').trim(), story.id).not.toBe('');
	});

	test('every sign-in error with a text has a sign-in page story that shows it', () => {
		const signIn = pageStories(stories, 'signin').filter((s) => s.args.locale === undefined);
		for (const type of typesWithText('signin.error.')) {
			const story = signIn.find((s) => pageError(s) === type);
			expect(story, `a sign-in page story with error ${type}`).toBeDefined();
			expect(story!.body, type).toContain(escapeHtml(messages.en[`signin.error.${type}` as keyof typeof messages.en]));
		}
	});

	test('every error page type with a text has an error page story that shows it', () => {
		const errors = pageStories(stories, 'error').filter((s) => s.args.locale === undefined);
		for (const type of typesWithText('error.', '.title')) {
			const story = errors.find((s) => pageError(s) === type);
			expect(story, `an error page story with error ${type}`).toBeDefined();
			expect(story!.body, type).toContain(escapeHtml(messages.en[`error.${type}.title` as keyof typeof messages.en]));
		}
	});

	test('every account result and refusal with a text has an AccountSettings story that shows it', () => {
		const settings = stories.filter((s) => s.component === components.AccountSettings && s.args.messages === undefined);
		for (const [prefix, arg] of [['account.result.', 'result'], ['account.error.', 'error']] as const) {
			for (const code of typesWithText(prefix)) {
				const story = settings.find((s) => s.args[arg] === code);
				expect(story, `an AccountSettings story with ${arg} ${code}`).toBeDefined();
				expect(story!.body, code).toContain(escapeHtml(messages.en[`${prefix}${code}` as keyof typeof messages.en]));
			}
		}
	});

	test('every admin result and refusal with a text has an AdminUserDetail story that shows it', () => {
		const details = stories.filter((s) => s.component === components.AdminUserDetail && s.args.messages === undefined);
		for (const [prefix, arg] of [['admin.result.', 'result'], ['admin.error.', 'error']] as const) {
			for (const code of typesWithText(prefix)) {
				const story = details.find((s) => s.args[arg] === code);
				expect(story, `an AdminUserDetail story with ${arg} ${code}`).toBeDefined();
				expect(story!.body, code).toContain(escapeHtml(messages.en[`${prefix}${code}` as keyof typeof messages.en]));
			}
		}
	});

	test('every built-in page has stories, light and dark', () => {
		for (const kind of pageKinds) {
			const ofKind = pageStories(stories, kind);
			expect(ofKind.length, kind).toBeGreaterThan(0);
			const schemes = ofKind.map((s) => (s.args.theme as { colorScheme?: string } | undefined)?.colorScheme ?? 'light');
			expect(new Set(schemes), kind).toEqual(new Set(['light', 'dark']));
		}
	});

	test('every exported component has stories of its own, light and dark', () => {
		// capitalised exports that are classes (SessionState) are not components
		const exported = Object.entries(components).filter(([name, value]) => /^[A-Z]/.test(name) && !/^class\b/.test(Function.prototype.toString.call(value)));
		expect(exported.map(([name]) => name)).toContain('SignIn');
		for (const [name, component] of exported) {
			const own = stories.filter((s) => s.component === component);
			expect(own.length, name).toBeGreaterThan(0);
			expect(new Set(own.map((s) => (s.globals.theme === 'dark' ? 'dark' : 'light'))), name).toEqual(new Set(['light', 'dark']));
		}
	});
});
