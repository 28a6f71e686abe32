// The SvelteKit form actions over HTTP (the built test app): what Auth.js-style forms post reaches
// the provider — `authorizationParams.<name>` and `authorizationParams-<name>` fields become
// parameters of the authorization request; a stray `redirect` field is not a credential.

import { afterAll, beforeAll, expect, test } from 'vitest';
import { Browser, startApp, type AppServer } from '../core/test/integrations.js';
import { attackConfig, startIdpFor } from '../core/test/attacks/flows.js';

let app: AppServer;
let idp: Awaited<ReturnType<typeof startIdpFor>>;
beforeAll(async () => {
	app = await startApp('sveltekit');
	idp = await startIdpFor([app.origin], ['idp']);
	app.use(attackConfig(undefined, 'jwt', { providers: [idp.provider('idp')] }));
});
afterAll(async () => {
	await Promise.all([app.close(), idp.close()]);
});

test.each(['authorizationParams.login_hint', 'authorizationParams-login_hint'])('the sign-in action passes %s to the identity provider', async (field) => {
	const answer = await new Browser().request(`${app.origin}/signin`, { form: { providerId: 'idp', [field]: 'ada@example.com', redirect: 'false' }, headers: { accept: 'text/html' } });
	expect(answer.status).toBe(303);
	const authorization = new URL(answer.headers.get('location') as string);
	expect(authorization.origin).toBe(idp.issuer);
	expect(authorization.searchParams.get('login_hint')).toBe('ada@example.com');
	expect(authorization.searchParams.has('redirect')).toBe(false);
});
