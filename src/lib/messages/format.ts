// Placeholder filling for message texts (`Sign in with {provider}`). Neutral: used by the built-in
// pages on the server and by the components in the browser. Export path: `kitgate/components`.

/**
 * Replaces `{name}` placeholders with `values.name`; unknown placeholders are left as written.
 *
 * @example format('Sign in with {provider}', { provider: 'GitHub' }) // 'Sign in with GitHub'
 */
export function format(template: string, values: Record<string, string> = {}): string {
	return template.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
		Object.hasOwn(values, name) ? values[name] : placeholder
	);
}
