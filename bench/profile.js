// Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and sums self time per function and per
// origin (kitgate, a package, Node internals, GC), for the "what bounds it" notes.

import { readFileSync } from 'node:fs';

/** Where a script URL comes from: `kitgate`, a package name, `node` internals, or `app`. */
export function originOf(url) {
	if (!url) return '(native/V8)';
	if (url.startsWith('node:')) return 'node internals';
	const modules = url.lastIndexOf('/node_modules/');
	if (modules >= 0) {
		const rest = url.slice(modules + '/node_modules/'.length).split('/');
		return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
	}
	if (url.includes('/dist/')) return 'kitgate';
	if (url.includes('/bench/')) return 'bench app';
	return url;
}

function shortUrl(url) {
	if (!url) return '';
	if (url.startsWith('node:')) return url;
	const modules = url.lastIndexOf('/node_modules/');
	if (modules >= 0) return url.slice(modules + '/node_modules/'.length);
	const dist = url.indexOf('/dist/');
	if (dist >= 0) return `kitgate${url.slice(dist)}`;
	return url.replace(/^file:\/\//, '');
}

/**
 * Self time of a profile: `{ totalMs, functions: [{ name, where, ms, share }], origins: [...] }`,
 * largest first, idle time left out.
 */
export function summariseProfile(path, top = 12) {
	const profile = JSON.parse(readFileSync(path, 'utf8'));
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const selfUs = new Map();
	const { samples = [], timeDeltas = [] } = profile;
	for (let index = 0; index < samples.length; index++) {
		const delta = timeDeltas[index + 1] ?? 0;
		selfUs.set(samples[index], (selfUs.get(samples[index]) ?? 0) + Math.max(0, delta));
	}
	const functions = new Map();
	const origins = new Map();
	let total = 0;
	for (const [id, us] of selfUs) {
		const { callFrame } = byId.get(id);
		if (callFrame.functionName === '(idle)') continue;
		total += us;
		const name = callFrame.functionName || '(anonymous)';
		const where = callFrame.url ? `${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1}` : '';
		const key = `${name}\u0000${where}`;
		functions.set(key, { name, where, us: (functions.get(key)?.us ?? 0) + us });
		const origin = name.startsWith('(') ? name : originOf(callFrame.url);
		origins.set(origin, (origins.get(origin) ?? 0) + us);
	}
	const share = (us) => (total ? us / total : 0);
	const kitgate = inclusiveKitgateTime(byId, selfUs);
	return {
		kitgateShare: share(kitgate.anyUs),
		kitgateInclusive: kitgate.functions
			.slice(0, top)
			.map(({ name, where, us }) => ({ name, where, ms: us / 1000, share: share(us) })),
		totalMs: total / 1000,
		functions: [...functions.values()]
			.sort((a, b) => b.us - a.us)
			.slice(0, top)
			.map(({ name, where, us }) => ({ name, where, ms: us / 1000, share: share(us) })),
		origins: [...origins.entries()]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 8)
			.map(([origin, us]) => ({ origin, ms: us / 1000, share: share(us) }))
	};
}

/**
 * Inclusive time of kitgate's own functions (its `dist/`): for each, the samples with it anywhere
 * on the stack (counted once per sample), plus the time with any kitgate frame on the stack.
 */
function inclusiveKitgateTime(byId, selfUs) {
	const parent = new Map();
	for (const node of byId.values()) for (const child of node.children ?? []) parent.set(child, node.id);
	const functions = new Map();
	let anyUs = 0;
	for (const [id, us] of selfUs) {
		if (byId.get(id).callFrame.functionName === '(idle)') continue;
		const seen = new Set();
		for (let current = id; current !== undefined; current = parent.get(current)) {
			const { callFrame } = byId.get(current);
			if (originOf(callFrame.url) !== 'kitgate') continue;
			const name = callFrame.functionName || '(anonymous)';
			const where = `${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1}`;
			const key = `${name}\u0000${where}`;
			if (seen.has(key)) continue;
			seen.add(key);
			functions.set(key, { name, where, us: (functions.get(key)?.us ?? 0) + us });
		}
		if (seen.size) anyUs += us;
	}
	return { anyUs, functions: [...functions.values()].sort((a, b) => b.us - a.us) };
}
