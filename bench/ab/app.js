// The Express app of bench/ab/ab.js: bench/apps/kitgate.js importing kitgate from a copy of dist/
// named by AB_DIST (bench/.ab/A or bench/.ab/B), so that two builds run side by side.
import express from 'express';
import { addBenchRoute, authorize, CREDENTIAL_FIELDS, listen, SECRET } from '../apps/shared.js';
const dist = process.env.AB_DIST;
const { ExpressAuth, getSession } = await import(`${dist}/server/express/index.js`);
const { default: Credentials } = await import(`${dist}/server/providers/credentials.js`);
const config = { secret: SECRET, trustHost: true, basePath: '/auth', providers: [Credentials({ credentials: CREDENTIAL_FIELDS, authorize })], session: { strategy: 'jwt' } };
const app = express();
addBenchRoute(app);
app.use('/auth', ExpressAuth(config));
app.get('/protected', async (req, res) => {
	const session = await getSession(req, config, res);
	if (!session?.user) return res.status(401).json({ error: 'unauthenticated' });
	res.json({ message: 'protected', user: session.user });
});
listen(app, { sessionCookie: 'kitgate.session-token' });
