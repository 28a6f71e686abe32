// Option keys a configuration object may have: lists checked against their types at compile time,
// the key a misspelt one most likely meant (`clientSecert` → `clientSecret`), and the start-up check
// of a provider factory's options. Used by the config resolver and the built-in providers.

import { InvalidConfiguration } from '../errors.js';
import type { Provider } from '../types.js';
import { PROVIDER_WITH_ENV } from './env.js';

/** What `exactKeys` reports when the list misses keys of the type. */
interface MissingKeys<K> {
	'the list misses these keys of the type': K;
}

/**
 * Returns a function that takes the list of every key of `T` and returns it unchanged. A list
 * that misses a key of `T`, or names one `T` does not have, is a type error: the list and the type
 * cannot drift apart.
 *
 * @example
 * const KEYS = exactKeys<{ a?: string; b: number }>()(['a', 'b']); // ['a'] alone does not compile
 */
export function exactKeys<T>() {
	return <const K extends readonly (keyof T & string)[]>(
		keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : MissingKeys<Exclude<keyof T, K[number]>>)
	): K => keys;
}

/** Lower case without `_` and `-`: `client_id`, `clientID` and `clientId` compare equal. */
function folded(key: string): string {
	return key.toLowerCase().replace(/[_-]/g, '');
}

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b` (optimal string alignment). */
function editDistance(a: string, b: string): number {
	const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
	for (let j = 1; j <= b.length; j++) rows[0][j] = j;
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
		}
	}
	return rows[a.length][b.length];
}

/**
 * The accepted key `key` most likely meant: one that differs only in case, `_` or `-`, else the
 * closest within two edits (one for keys of five characters or fewer); undefined when none is close.
 *
 * @example
 * closestKey('clientSecert', ['clientId', 'clientSecret']); // 'clientSecret'
 * closestKey('clientID', ['clientId', 'clientSecret']); // 'clientId'
 */
export function closestKey(key: string, accepted: readonly string[]): string | undefined {
	const wanted = folded(key);
	const same = accepted.find((candidate) => folded(candidate) === wanted);
	if (same !== undefined) return same;
	const limit = wanted.length <= 5 ? 1 : 2;
	let best: { key: string; distance: number } | undefined;
	for (const candidate of accepted) {
		const distance = editDistance(wanted, folded(candidate));
		if (distance <= limit && (!best || distance < best.distance)) best = { key: candidate, distance };
	}
	return best?.key;
}

/**
 * The own keys of `options` that are not in `accepted`, each with the key it most likely meant.
 * Compared as strings against the list: `constructor`, `__proto__` or `toString` given as own keys
 * are unknown like any other.
 *
 * @example
 * unknownKeys({ clientID: 'x', issuer: 'https://sso.example.com' }, ['clientId', 'issuer']); // [{ key: 'clientID', meant: 'clientId' }]
 */
export function unknownKeys(options: object, accepted: readonly string[]): { key: string; meant?: string }[] {
	const known = new Set(accepted);
	return Object.keys(options)
		.filter((key) => !known.has(key))
		.map((key) => ({ key, meant: closestKey(key, accepted) }));
}

/**
 * A sentence naming each unknown key and the key it most likely meant.
 *
 * @example
 * describeUnknownKeys([{ key: 'clientSecert', meant: 'clientSecret' }]); // 'unknown option `clientSecert` (did you mean `clientSecret`?)'
 */
export function describeUnknownKeys(unknown: { key: string; meant?: string }[]): string {
	const parts = unknown.map(({ key, meant }) => `\`${key}\`${meant ? ` (did you mean \`${meant}\`?)` : ''}`);
	return `unknown option${unknown.length > 1 ? 's' : ''} ${parts.join(', ')}`;
}

/**
 * `provider`, which refuses, when the config is resolved (never while an app is built), an option
 * of `options` that is not in `accepted`, naming the option it most likely meant. For factories
 * that read no environment (credentials, passkey); the others check in their own rebuild.
 *
 * @example
 * return checkedWhenResolved({ id: 'passkey', name: 'Passkey', ...options, type: 'webauthn' }, options, PASSKEY_OPTION_KEYS);
 */
export function checkedWhenResolved<T extends Provider>(provider: T, options: object, accepted: readonly string[]): T {
	const check = () => {
		const unknown = unknownKeys(options, accepted);
		if (unknown.length > 0) {
			throw new InvalidConfiguration(`Provider "${provider.id}": ${describeUnknownKeys(unknown)}. A misspelt option would be ignored.`);
		}
		return provider;
	};
	Object.defineProperty(provider, PROVIDER_WITH_ENV, { value: check });
	return provider;
}
