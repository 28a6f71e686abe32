// Reading server-rendered HTML in the component tests: the inputs and buttons of a form, as
// plain values (Svelte's hydration comments removed).

/** The HTML without Svelte's hydration markers (`<!--[-->`, `<!--]-->`, …). */
export function withoutMarkers(html: string): string {
	return html.replace(/<!--[^>]*-->/g, '');
}

/** The `<input>` tags of some HTML, as attribute maps. */
export function inputs(html: string): Record<string, string>[] {
	return [...html.matchAll(/<input([^>]*)\/?>/g)].map(([, attributes]) =>
		Object.fromEntries([...attributes.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, name, value]) => [name, value ?? '']))
	);
}

/** The `<button>` elements of some HTML: their opening tag's attributes and their inner HTML. */
export function buttons(html: string): { attributes: string; content: string }[] {
	return [...withoutMarkers(html).matchAll(/<button([^>]*)>([\s\S]*?)<\/button>/g)].map(([, attributes, content]) => ({
		attributes: attributes.trim(),
		content: content.trim()
	}));
}
