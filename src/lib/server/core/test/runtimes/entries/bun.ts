// Bun entry: Bun.serve on 127.0.0.1 and the port the test gives.
import { runtimeApp, type RuntimeEnv } from '../runtime-app.js';

declare const Bun: { serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): { port: number } };
const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT), fetch: runtimeApp(process.env as unknown as RuntimeEnv) });
console.log(`listening on ${server.port}`);
