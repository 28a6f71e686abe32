// A browser stand-in for the identity provider's side of OAuth tests: follows its redirects with
// `fetch`, keeps its cookies, fills oidc-provider's development login and consent forms.

/** Options of one login at the IdP. */
export interface IdpLoginOptions {
	/** What to type into the login form (the account id); default `demo`. */
	login?: string;
	/** Click "Cancel" instead of logging in: the IdP answers `error=access_denied`. */
	abort?: boolean;
	/** The IdP's cookies; reuse one to stay logged in at the IdP between sign-ins. */
	jar?: Map<string, string>;
}

const MAX_STEPS = 20;

/**
 * Walks from `authorizationUrl` through the IdP until it redirects to another origin (the app's
 * callback) and returns that URL, e.g. `http://localhost:3000/auth/callback/idp?code=…&state=…`.
 *
 * @example
 * const callback = await loginAtIdp(response.headers.get('location')!);
 * await client.request(callback);
 */
export async function loginAtIdp(authorizationUrl: string, options: IdpLoginOptions = {}): Promise<string> {
	const result = await walkIdp(authorizationUrl, options);
	if ('post' in result) throw new Error(`The IdP answered with a form post to ${result.post.action}; use loginAtIdpFormPost`);
	return result.redirect;
}

/**
 * Like `loginAtIdp` for `response_mode=form_post`: returns the auto-submitted form the IdP sends
 * back (its action is the app's callback) instead of a redirect.
 *
 * @example
 * const { action, fields } = await loginAtIdpFormPost(url);
 * await client.request(action, { form: fields });
 */
export async function loginAtIdpFormPost(
	authorizationUrl: string,
	options: IdpLoginOptions = {}
): Promise<{ action: string; fields: Record<string, string> }> {
	const result = await walkIdp(authorizationUrl, options);
	if ('redirect' in result) throw new Error(`The IdP redirected to ${result.redirect} instead of posting a form`);
	return result.post;
}

async function walkIdp(
	authorizationUrl: string,
	options: IdpLoginOptions
): Promise<{ redirect: string } | { post: { action: string; fields: Record<string, string> } }> {
	const jar = options.jar ?? new Map<string, string>();
	const idpOrigin = new URL(authorizationUrl).origin;
	let url = authorizationUrl;
	let form: Record<string, string> | undefined;
	for (let step = 0; step < MAX_STEPS; step++) {
		const response = await fetch(url, {
			method: form ? 'POST' : 'GET',
			redirect: 'manual',
			headers: {
				cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
				...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {})
			},
			body: form ? new URLSearchParams(form).toString() : undefined
		});
		keepCookies(jar, response);
		form = undefined;
		const location = response.headers.get('location');
		if (response.status >= 300 && response.status < 400 && location) {
			const next = new URL(location, url);
			if (next.origin !== idpOrigin) return { redirect: next.href };
			url = next.href;
			continue;
		}
		const html = await response.text();
		if (response.status !== 200) throw new Error(`IdP answered ${response.status} at ${url}: ${html.slice(0, 300)}`);
		const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
		if (action && new URL(unescapeHtml(action), url).origin !== idpOrigin) {
			const fields: Record<string, string> = {};
			for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[name] = unescapeHtml(value);
			return { post: { action: new URL(unescapeHtml(action), url).href, fields } };
		}
		const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
		if (!action || !prompt) throw new Error(`No login or consent form at ${url}: ${html.slice(0, 300)}`);
		if (options.abort) {
			const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
			if (!abort) throw new Error(`No cancel link at ${url}`);
			url = new URL(unescapeHtml(abort), url).href;
			continue;
		}
		url = new URL(unescapeHtml(action), url).href;
		form = prompt === 'login' ? { prompt, login: options.login ?? 'demo', password: 'any-password' } : { prompt };
	}
	throw new Error(`The IdP did not redirect back within ${MAX_STEPS} steps`);
}

function keepCookies(jar: Map<string, string>, response: Response): void {
	for (const line of response.headers.getSetCookie()) {
		const [pair] = line.split(';');
		const name = pair.slice(0, pair.indexOf('='));
		const value = pair.slice(pair.indexOf('=') + 1);
		const expired = /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line) || value === '';
		if (expired) jar.delete(name);
		else jar.set(name, value);
	}
}

function unescapeHtml(value: string): string {
	return value.replaceAll('&amp;', '&').replaceAll('&#x2F;', '/').replaceAll('&#47;', '/');
}
