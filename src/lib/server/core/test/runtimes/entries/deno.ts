// Deno entry: Deno.serve on 127.0.0.1 and the port the test gives.
import { runtimeApp, type RuntimeEnv } from '../runtime-app.js';

declare const Deno: {
	env: { toObject(): Record<string, string> };
	serve(options: { hostname: string; port: number; onListen(address: { port: number }): void }, handler: (request: Request) => Promise<Response>): unknown;
};
const env = Deno.env.toObject();
Deno.serve({ hostname: '127.0.0.1', port: Number(env.PORT), onListen: ({ port }) => console.log(`listening on ${port}`) }, runtimeApp(env as unknown as RuntimeEnv));
