// The Auth.js target: `@auth/express` on Express 5 with the same configuration as the kitgate app
// (credentials provider, JWT strategy, basePath /auth, same secret). Lives here so that
// `@auth/express` and `express` resolve from this folder's own node_modules.

import express from 'express';
import { ExpressAuth, getSession } from '@auth/express';
import Credentials from '@auth/express/providers/credentials';
import { addBenchRoute, authorize, CREDENTIAL_FIELDS, listen, SECRET } from '../apps/shared.js';

const config = {
	secret: SECRET,
	trustHost: true,
	basePath: '/auth',
	providers: [Credentials({ credentials: CREDENTIAL_FIELDS, authorize })],
	session: { strategy: 'jwt' }
};

const app = express();
addBenchRoute(app);
// Express 5: mount on the prefix (the `/auth/*` form of the Auth.js docs is Express 4 syntax)
app.use('/auth', ExpressAuth(config));
app.get('/protected', async (req, res) => {
	const session = await getSession(req, config);
	if (!session?.user) return res.status(401).json({ error: 'unauthenticated' });
	res.json({ message: 'protected', user: session.user });
});

listen(app, { sessionCookie: 'authjs.session-token' });
