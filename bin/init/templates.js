// The files `kitgate init` writes into a SvelteKit app: the getting-started guide's (its paths and
// imports), for a TypeScript app or a JavaScript one (JSDoc types), with a password user whose
// password is a random value in .env, so that no app made by this command shares a known password.

/**
 * The files to write, by path, for an app in TypeScript (`ts: true`) or JavaScript.
 * @param {{ ts: boolean }} options
 * @returns {Record<string, string>}
 */
export function appFiles({ ts }) {
	const ext = ts ? 'ts' : 'js';
	const lang = ts ? ' lang="ts"' : '';
	return {
		[`src/auth.${ext}`]: authFile(),
		[`src/lib/server/users.${ext}`]: usersFile(ts),
		[`src/routes/+layout.server.${ext}`]: ts ? LAYOUT_TS : LAYOUT_JS,
		[`src/routes/signin/+page.server.${ext}`]: ts ? SIGNIN_TS : SIGNIN_JS,
		'src/routes/signin/+page.svelte': signInPage(lang),
		[`src/routes/signout/+page.server.${ext}`]: ts ? SIGNOUT_TS : SIGNOUT_JS,
		'src/routes/signout/+page.svelte': signOutPage(lang)
	};
}

/** The hook of an app that has none yet. */
export const NEW_HOOKS = "export { handle } from './auth';\n";

/** The variable that holds the stand-in user's password (in .env). */
export const DEMO_PASSWORD_VARIABLE = 'DEMO_USER_PASSWORD';

function authFile() {
	// the same text in TypeScript and JavaScript: every type is inferred
	return `import { SvelteKitAuth } from 'kitgate/sveltekit';
import Credentials from 'kitgate/providers/credentials';
import { SQLiteAdapter } from 'kitgate/adapters/sqlite';
import { checkPassword } from '$lib/server/users';

export const { handle, signIn, signOut } = SvelteKitAuth({
	// users, accounts and sessions in .data/auth.sqlite (created on first use)
	adapter: SQLiteAdapter({ filename: '.data/auth.sqlite' }),
	providers: [
		Credentials({
			credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
			authorize: ({ username, password }) => checkPassword(username, password)
		})
		// your identity provider: OIDC({ id: 'oidc', name: 'Company SSO' }) from 'kitgate/providers/oidc',
		// with AUTH_OIDC_ID, AUTH_OIDC_SECRET and AUTH_OIDC_ISSUER in .env (docs/providers.md)
	],
	callbacks: {
		// session.user.id for your API routes: the stored user's id
		session: ({ session, user, token }) => ({ ...session, user: { ...session.user, id: user?.id ?? token?.sub } })
	}
});
`;
}

/** @param {boolean} ts */
function usersFile(ts) {
	const hashType = ts ? ': Promise<string> | undefined' : '';
	const signature = ts ? '(username: unknown, password: unknown)' : '(username, password)';
	const doc = ts
		? '/** The user with this name and password, or null. */'
		: '/**\n * The user with this name and password, or null.\n * @param {unknown} username\n * @param {unknown} password\n */';
	return `import { env } from '$env/dynamic/private';
import { hashPassword, verifyPassword } from 'kitgate';

// a stand-in for your users table: one user, \`ada\`, whose password is ${DEMO_PASSWORD_VARIABLE} in .env
// (\`kitgate init\` wrote a random one); without that variable nobody signs in with a password
const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
// everyone knows the name \`ada\`: a password shorter than this (or only spaces) turns her off, not on
const SHORTEST_PASSWORD = 16;
${ts ? '' : '/** @type {Promise<string> | undefined} */\n'}let adaPasswordHash${hashType};

${doc}
export async function checkPassword${signature} {
	const adaPassword = (env.${DEMO_PASSWORD_VARIABLE} ?? '').trim().length >= SHORTEST_PASSWORD ? env.${DEMO_PASSWORD_VARIABLE} : undefined;
	const known = username === ada.id && adaPassword ? ada : undefined;
	if (known && adaPassword) adaPasswordHash ??= hashPassword(adaPassword);
	// verify also for an unknown user: both answers take the same time
	const valid = await verifyPassword(String(password), known ? await adaPasswordHash : undefined);
	return valid && known ? { ...known } : null;
}
`;
}

const LAYOUT_TS = `import { kitgateData } from 'kitgate/sveltekit';
import type { LayoutServerLoad } from './$types';

export const load: LayoutServerLoad = async (event) => ({
	session: await event.locals.auth(),
	// what the components show: your providers (names, kinds, fields; never a secret), the last sign-in error
	kitgate: await kitgateData(event)
});
`;

const LAYOUT_JS = `import { kitgateData } from 'kitgate/sveltekit';

/** @type {import('./$types').LayoutServerLoad} */
export const load = async (event) => ({
	session: await event.locals.auth(),
	// what the components show: your providers (names, kinds, fields; never a secret), the last sign-in error
	kitgate: await kitgateData(event)
});
`;

const SIGNIN_TS = `import { fail } from '@sveltejs/kit';
import { CredentialsSignin } from 'kitgate';
import { signIn } from '../../auth';
import type { Actions } from './$types';

export const actions: Actions = {
	default: async (event) => {
		try {
			return await signIn(event);
		} catch (error) {
			// a wrong password is thrown to the action; show it on the page
			if (error instanceof CredentialsSignin) return fail(401, { error: 'CredentialsSignin' });
			throw error;
		}
	}
};
`;

const SIGNIN_JS = `import { fail } from '@sveltejs/kit';
import { CredentialsSignin } from 'kitgate';
import { signIn } from '../../auth';

/** @type {import('./$types').Actions} */
export const actions = {
	default: async (event) => {
		try {
			return await signIn(event);
		} catch (error) {
			// a wrong password is thrown to the action; show it on the page
			if (error instanceof CredentialsSignin) return fail(401, { error: 'CredentialsSignin' });
			throw error;
		}
	}
};
`;

const SIGNOUT_TS = `import { signOut } from '../../auth';
import type { Actions } from './$types';

export const actions: Actions = { default: signOut };
`;

const SIGNOUT_JS = `import { signOut } from '../../auth';

/** @type {import('./$types').Actions} */
export const actions = { default: signOut };
`;

/** @param {string} lang */
function signInPage(lang) {
	return `<script${lang}>
	import 'kitgate/styles.css';
	import { SignIn } from 'kitgate/components';
</script>

<h1>Sign in</h1>
<SignIn />
`;
}

/** @param {string} lang */
function signOutPage(lang) {
	return `<script${lang}>
	import 'kitgate/styles.css';
	import { resolve } from '$app/paths';
	import { SignOut } from 'kitgate/components';

	let { data } = $props();
</script>

{#if data.session}
	<h1>Sign out</h1>
	<p>Signed in as <span data-testid="signed-in-as">{data.session.user?.email ?? data.session.user?.name}</span></p>
	<SignOut />
{:else}
	<h1>You are signed out</h1>
	<p><a href={resolve('/signin')}>Sign in</a></p>
{/if}
`;
}
