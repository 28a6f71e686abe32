import { build } from 'esbuild';

/**
 * `source` (a Worker module, imports resolved from `resolveDir`) bundled as a Worker's bundler
 * would: one ES module, browser-like conditions, so a static node: import fails the bundle instead
 * of reaching workerd.
 *
 * @example
 * const script = await workerBundle(`export default { fetch: () => new Response('ok') }`, ROOT);
 */
export async function workerBundle(source: string, resolveDir: string): Promise<string> {
	const bundle = await build({
		stdin: { contents: source, resolveDir, loader: 'js' },
		bundle: true,
		format: 'esm',
		platform: 'browser',
		conditions: ['workerd', 'worker', 'browser'],
		write: false,
		logLevel: 'silent'
	});
	return bundle.outputFiles[0]!.text;
}
