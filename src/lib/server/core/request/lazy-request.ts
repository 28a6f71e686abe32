// A Web Request built only when an app callback first reads it: `authorize(credentials)`, which
// does not declare the request, still gets one on every sign-in (building one with its body costs
// more than the rest of a sign-in's bookkeeping).

/** Node's `util.inspect.custom`, by its registered name (no `node:util` import: the engine runs on Workers too). */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * A stand-in for the Request `build()` returns, built on first use: `instanceof Request` holds,
 * and every property and method (symbol-keyed internals included) is the built Request's, so
 * `new Request(request)` and `fetch(request)` take it as well. Not a Request for `Object.freeze`
 * or `structuredClone`: callbacks that declare the request get a real one (credentials.ts).
 *
 * @example
 * const request = lazyRequest(() => new Request(url, { method: 'POST', headers, body }));
 */
export function lazyRequest(build: () => Request): Request {
	let built: Request | undefined;
	const real = () => (built ??= build());
	// util.inspect with showProxy (`console.log('%o', request)`) looks at the target itself: it shows the real one
	const show = (_depth: unknown, options: unknown, inspect?: (value: unknown, options: unknown) => string) => (typeof inspect === 'function' ? inspect(real(), options) : real());
	const target = Object.create(Request.prototype, { [INSPECT]: { value: show } }) as Request;
	return new Proxy(target, {
		get(_target, property) {
			const request = real();
			const value: unknown = Reflect.get(request, property, request);
			// methods run on the real Request (its internal slots), not on the stand-in
			return typeof value === 'function' && property !== 'constructor' ? (value as (...args: unknown[]) => unknown).bind(request) : value;
		},
		has: (_target, property) => Reflect.has(real(), property),
		set: (_target, property, value) => Reflect.set(real(), property, value),
		ownKeys: () => Reflect.ownKeys(real()),
		getOwnPropertyDescriptor(_target, property) {
			const descriptor = Reflect.getOwnPropertyDescriptor(real(), property);
			// a proxy may not report a property as non-configurable unless its target has it so
			return descriptor ? { ...descriptor, configurable: true } : undefined;
		}
	});
}
