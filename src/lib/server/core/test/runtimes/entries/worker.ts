// Cloudflare Workers entry (module syntax): the bindings are the app's environment.
import { runtimeApp, type RuntimeEnv } from '../runtime-app.js';

let app: ((request: Request) => Promise<Response>) | undefined;

export default {
	fetch(request: Request, env: RuntimeEnv): Promise<Response> {
		// made on the first request: a Worker may not use its bindings (or randomness) at load
		return (app ??= runtimeApp(env))(request);
	}
};
