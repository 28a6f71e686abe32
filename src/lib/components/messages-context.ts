// Which message table the components read: the one a layout set with `setMessages`, on top of
// English. Export path: `kitgate/components` (`setMessages`).

import { getContext, setContext } from 'svelte';

/** The context key; a global symbol, so two copies of kitgate in one app still agree. */
export const MESSAGES_KEY = Symbol.for('kitgate.messages');

/**
 * Makes every kitgate component below this one use `table` (a whole language, or a few
 * overrides keyed by message id). Call it during a component's initialisation, e.g. in the
 * root layout.
 *
 * @example
 * <script>
 *   import { setMessages, resolveMessages } from 'kitgate/components';
 *   setMessages(resolveMessages('fr'));
 * </script>
 */
export function setMessages(table: Readonly<Record<string, string>>): void {
	setContext(MESSAGES_KEY, table);
}

/**
 * The table set by an ancestor with `setMessages`, if any. Components call it during initialisation.
 *
 * @example const inherited = inheritedMessages();
 */
export function inheritedMessages(): Readonly<Record<string, string>> | undefined {
	return getContext<Readonly<Record<string, string>> | undefined>(MESSAGES_KEY);
}
