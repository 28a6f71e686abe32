// The ceiling: Express 5 serving the same routes with no cryptography. A plain cookie value is
// the session, the CSRF token is a constant, and the sign-in page is a static string.

import express from 'express';
import { parse as parseCookies } from 'cookie';
import { addBenchRoute, authorize, BENCH_USER, listen } from './shared.js';

const SESSION_COOKIE = 'bare.session-token';
const CSRF_COOKIE = 'bare.csrf-token';
const SESSION_VALUE = 'bare-session-7f3a9c2e5b1d4f6a8c0e2b4d6f8a0c1e';
const CSRF_TOKEN = 'bare-csrf-3e5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e';
const MAX_AGE_MS = 30 * 86400_000;

/** A static sign-in page, padded to BARE_PAGE_BYTES (the size of kitgate's page) when given. */
function signInPage() {
	const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in</title>
<style>body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f9fafb}main{background:#fff;padding:2rem;border-radius:.5rem;box-shadow:0 1px 3px rgba(0,0,0,.1);width:20rem}label{display:block;margin:.5rem 0}input{width:100%;padding:.5rem;border:1px solid #d1d5db;border-radius:.25rem}button{width:100%;margin-top:1rem;padding:.6rem;background:#4f46e5;color:#fff;border:0;border-radius:.25rem}</style></head>
<body><main><h1>Sign in</h1><form method="POST" action="/auth/callback/credentials"><input type="hidden" name="csrfToken" value="${CSRF_TOKEN}"><label>Username<input name="username" autocomplete="username" required></label><label>Password<input name="password" type="password" autocomplete="current-password" required></label><button type="submit">Sign in with Credentials</button></form></main></body></html>`;
	const target = Number(process.env.BARE_PAGE_BYTES ?? 0);
	const missing = target - Buffer.byteLength(html) - '<!---->'.length;
	return missing > 0 ? html.replace('</body>', `<!--${'.'.repeat(missing)}--></body>`) : html;
}

const PAGE = signInPage();

function sessionOf(req) {
	const cookies = parseCookies(req.headers.cookie ?? '');
	if (cookies[SESSION_COOKIE] !== SESSION_VALUE) return null;
	const { name, email, image } = BENCH_USER;
	return { user: { name, email, image }, expires: new Date(Date.now() + MAX_AGE_MS).toISOString() };
}

const cookieOptions = { httpOnly: true, sameSite: 'lax', path: '/' };
const app = express();
addBenchRoute(app);
app.get('/auth/session', (req, res) => res.json(sessionOf(req)));
app.get('/auth/csrf', (req, res) => {
	res.cookie(CSRF_COOKIE, CSRF_TOKEN, cookieOptions);
	res.json({ csrfToken: CSRF_TOKEN });
});
app.get('/auth/signin', (req, res) => res.type('html').send(PAGE));
app.post('/auth/callback/credentials', express.urlencoded({ extended: false }), (req, res) => {
	const cookies = parseCookies(req.headers.cookie ?? '');
	const csrfOk = cookies[CSRF_COOKIE] === CSRF_TOKEN && req.body?.csrfToken === CSRF_TOKEN;
	const user = csrfOk ? authorize(req.body) : null;
	if (!user) return res.redirect(302, '/auth/signin?error=CredentialsSignin');
	res.cookie(SESSION_COOKIE, SESSION_VALUE, { ...cookieOptions, maxAge: MAX_AGE_MS });
	res.redirect(302, '/');
});
app.get('/protected', (req, res) => {
	const session = sessionOf(req);
	if (!session) return res.status(401).json({ error: 'unauthenticated' });
	res.json({ message: 'protected', user: session.user });
});

listen(app, { sessionCookie: SESSION_COOKIE });
