// The Express demo: the same flows as the SvelteKit demo, served by Express 5 with kitgate's
// built-in pages. Run with `node examples/express/server.js` after `npm run package`.

import express from 'express';
import { ExpressAuth, getSession } from 'kitgate/express';
import { passkeyPages } from './passkeys.js';
import { authConfig, DEMO_CREDENTIALS, EMAIL_ENABLED, MAILBOX_URL, sessionIsAdmin } from './auth-config.js';

const port = Number(process.env.PORT ?? 3100);
const host = process.env.HOST ?? '127.0.0.1';

const app = express();
// behind a proxy, let Express read X-Forwarded-Proto so HTTPS is detected
app.set('trust proxy', process.env.TRUST_PROXY === 'true');

// Express 5 spells the wildcard "/auth/*splat"; app.use("/auth", …) works too
app.use('/auth/*splat', ExpressAuth(authConfig));

// expose the session to every page, and whether its user is an admin (the nav links the built-in admin pages)
app.use(async (req, res, next) => {
	const session = await getSession(req, authConfig, res);
	res.locals.session = session;
	res.locals.isAdmin = await sessionIsAdmin(session);
	next();
});

/** Escapes text for HTML. */
const escape = (value) =>
	String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** While an admin is signed in as this user: who is who, and the way back (signing out ends the impersonation). */
function impersonationBanner(session) {
	const by = session?.impersonation?.admin;
	if (!by) return '';
	return `<p data-testid="impersonation" style="margin:.5rem 0 0">You are signed in as ${escape(session.user.name ?? session.user.email)} by ${escape(by.name ?? by.email)}. <a href="/auth/signout">Sign out to stop</a></p>`;
}

/** A page of the demo with its nav; `locals` is `res.locals` (the session, and whether its user is an admin). */
function page(title, { session, isAdmin: admin }, body) {
	const user = session?.user;
	// kitgate's built-in organization pages (organizations are on with the adapter, see auth-config.js)
	const organizations = authConfig.organizations ? ' <a href="/auth/organizations">Organizations</a>' : '';
	const nav = user
		? `<a href="/account">Account</a> <a href="/auth/account">Account settings</a>${organizations}${admin ? ' <a href="/auth/admin">Admin</a>' : ''} <span data-testid="signed-in-as">Signed in as ${escape(user.name ?? user.email)}</span> <a href="/auth/signout">Sign out</a>`
		: `<a href="/auth/signin">Sign in</a>`;
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)} · kitgate Express demo</title></head>
<body style="font-family: system-ui, sans-serif; margin: 0"><header style="border-bottom:1px solid #e5e7eb;padding:.75rem 1.5rem"><nav aria-label="Main" style="display:flex;gap:1rem">
<a href="/">kitgate Express demo</a><a href="/protected">Protected page</a>${nav}</nav>${impersonationBanner(session)}</header><main style="padding:1.5rem">${body}</main></body></html>`;
}

app.get('/', (req, res) => {
	const session = res.locals.session;
	const body = session?.user
		? `<h1>kitgate Express demo</h1><p data-testid="session-user">Hello, ${escape(session.user.name)}!</p><pre data-testid="session-json">${escape(JSON.stringify(session, null, 2))}</pre>`
		: `<h1>kitgate Express demo</h1><p data-testid="anonymous">You are not signed in.</p>`;
	res.send(page('Home', res.locals, body));
});

// the account page, where a signed-in user adds and removes passkeys
passkeyPages(app, { config: authConfig, page });

/** The session's active organization and the user's role in it (checked against the membership on every request), when organizations are on. */
function activeOrganization(session) {
	if (!authConfig.organizations) return '';
	const organization = session.organization;
	const text = organization ? `Active organization: ${escape(organization.name)} (${escape(organization.role)}).` : 'No active organization.';
	return `<p data-testid="protected-organization">${text}</p>`;
}

// route protection: anonymous visitors go to the sign-in page
app.get('/protected', (req, res) => {
	const session = res.locals.session;
	if (!session?.user) return res.redirect(`/auth/signin?callbackUrl=${encodeURIComponent(req.originalUrl)}`);
	res.send(
		page(
			'Protected',
			res.locals,
			`<h1>Protected page</h1><p data-testid="protected-user">Only signed-in users see this. You are ${escape(session.user.name)} (${escape(session.user.email)}).</p>${activeOrganization(session)}`
		)
	);
});

// demo only: the mails the local SMTP sink (scripts/demo-smtp.js) received, with their sign-in links
app.get('/dev/mailbox', async (req, res) => {
	if (!EMAIL_ENABLED) return res.send(page('Mailbox', res.locals, '<h1>Demo mailbox</h1><p>Email sign-in is off (KITGATE_DEMO_EMAIL=off).</p>'));
	let mails;
	try {
		const response = await fetch(MAILBOX_URL, { signal: AbortSignal.timeout(3000) });
		if (!response.ok) throw new Error(`HTTP ${response.status}`);
		mails = (await response.json()).messages;
	} catch (error) {
		const text = `The demo mail sink at ${MAILBOX_URL} did not answer (${error.message}). Start it with node scripts/demo-smtp.js.`;
		return res.send(page('Mailbox', res.locals, `<h1>Demo mailbox</h1><p role="alert">${escape(text)}</p>`));
	}
	const items = mails.map(
		(mail) => `<li data-testid="mail" data-to="${escape(mail.envelope.to.join(','))}" style="border:1px solid #e5e7eb;border-radius:.5rem;padding:.75rem 1rem">
<p style="margin:0;color:#4b5563;font-size:.875rem">To <strong>${escape(mail.envelope.to.join(', '))}</strong>, ${escape(mail.receivedAt)}</p>
<p style="margin:.25rem 0;font-weight:600">${escape(mail.subject)}</p>
${mail.links.map((link) => `<p><a data-testid="mail-link" style="word-break:break-all" href="${escape(link)}">${escape(link)}</a></p>`).join('')}
<details><summary>Text of the mail</summary><pre style="white-space:pre-wrap">${escape(mail.text)}</pre></details></li>`
	);
	const body = items.length
		? `<ul style="list-style:none;padding:0;display:grid;gap:1rem">${items.join('')}</ul>`
		: '<p data-testid="mailbox-empty">No mail yet. Ask for a sign-in link on the <a href="/auth/signin">sign-in page</a>.</p>';
	res.send(page('Mailbox', res.locals, `<h1>Demo mailbox</h1><p>Mail the demo sends goes to a local SMTP sink. Open a sign-in link from here.</p>${body}`));
});

// Express 5 hands a failed listen (e.g. EADDRINUSE: the port is taken) to this callback
app.listen(port, host, (error) => {
	if (error) throw error;
	console.log(
		`kitgate Express demo on http://localhost:${port} (user "${DEMO_CREDENTIALS.username}", password "${DEMO_CREDENTIALS.password}"${authConfig.admin ? '; the admin "admin", same password, at /auth/admin' : ''})`
	);
});
