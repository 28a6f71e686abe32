import { describe, expect, test } from 'vitest';
import { MemoryAdapter } from '../../adapters/memory.js';
import { encodeJwt } from '../crypto/jwt.js';
import { checkSession } from '../session-check.js';
import { TEST_SECRET } from '../test/client.js';
import { OWNER_CLAIM } from './jwt-session-list.js';
import { SUBJECT_CLAIM } from './session-subject.js';
import { ACTIVE_ORGANIZATION_CLAIM, activeOrganizationIdOf, sessionOrganizationView } from './session-organization.js';
import type { Adapter, AdapterUser, AuthConfig, JWT } from '../types.js';

const NOW = Date.UTC(2031, 5, 1, 12);
const user: AdapterUser = { id: 'user-1', email: 'ada@example.com', emailVerified: null, name: 'Ada', image: null };

describe('the id of the active organization (pure)', () => {
	test('a JWT claim or the session row; anything but a non-empty string is none', () => {
		expect(activeOrganizationIdOf({ strategy: 'jwt', token: { [ACTIVE_ORGANIZATION_CLAIM]: 'org-1' }, expires: NOW })).toBe('org-1');
		expect(activeOrganizationIdOf({ strategy: 'database', user, sessionToken: 't', expires: NOW, activeOrganizationId: 'org-2' })).toBe('org-2');
		expect(activeOrganizationIdOf({ strategy: 'database', user, sessionToken: 't', expires: NOW })).toBeNull();
		for (const value of [7, '', null, ['org-1'], { id: 'org-1' }, 'x'.repeat(256)]) {
			expect(activeOrganizationIdOf({ strategy: 'jwt', token: { [ACTIVE_ORGANIZATION_CLAIM]: value }, expires: NOW }), JSON.stringify(value)).toBeNull();
		}
	});

	test('the view of a membership shows the organization and the role, a missing logo as null', () => {
		const organization = { id: 'org-1', name: 'Acme', slug: 'acme', logo: undefined as unknown as null, metadata: null, createdAt: new Date(NOW) };
		const member = { id: 'm-1', organizationId: 'org-1', userId: 'user-1', role: 'admin', createdAt: new Date(NOW) };
		expect(sessionOrganizationView({ organization, member })).toEqual({ id: 'org-1', name: 'Acme', slug: 'acme', logo: null, role: 'admin' });
	});
});

describe('session.organization on a JWT read (engine)', () => {
	/** A memory adapter with Ada, an organization she is an admin of, and the getMembership calls counted. */
	async function world() {
		const raw = MemoryAdapter();
		await raw.createUser(user);
		await raw.createOrganization({ id: 'org-1', name: 'Acme', slug: 'acme', logo: 'https://example.com/acme.png', metadata: null, createdAt: new Date(NOW) });
		await raw.createMember({ id: 'm-1', organizationId: 'org-1', userId: 'user-1', role: 'admin', createdAt: new Date(NOW) });
		const asked: [string, string][] = [];
		const adapter: Adapter = {
			...raw,
			getMembership: (organizationId: string, userId: string) => {
				asked.push([organizationId, userId]);
				return raw.getMembership(organizationId, userId);
			}
		};
		return { adapter, asked };
	}

	const configOf = (adapter: Adapter, overrides: Partial<AuthConfig> = {}): AuthConfig => ({
		secret: TEST_SECRET,
		trustHost: true,
		adapter,
		providers: [],
		session: { strategy: 'jwt' },
		now: () => NOW,
		...overrides
	});

	async function readWith(config: AuthConfig, token: JWT) {
		const value = await encodeJwt({ token, secret: TEST_SECRET, salt: 'kitgate.session-token', maxAge: 3600, now: NOW });
		const headers = new Headers({ cookie: `kitgate.session-token=${value}` });
		return checkSession({ url: 'http://localhost:3000/', headers }, config);
	}

	const adaToken = (claims: JWT = {}): JWT => ({ sub: 'user-1', name: 'Ada', email: 'ada@example.com', [SUBJECT_CLAIM]: 'user', ...claims });

	test('with organizations on, a member sees the organization with the role', async () => {
		const { adapter, asked } = await world();
		const { session } = await readWith(configOf(adapter, { organizations: {} }), adaToken({ [ACTIVE_ORGANIZATION_CLAIM]: 'org-1' }));
		expect(session?.organization).toEqual({ id: 'org-1', name: 'Acme', slug: 'acme', logo: 'https://example.com/acme.png', role: 'admin' });
		expect(asked).toEqual([['org-1', 'user-1']]);
	});

	test("a credentials session's memberships are its stored user's (the owner claim), not authorize()'s id", async () => {
		const { adapter, asked } = await world();
		const token = adaToken({ sub: 'authorize-42', [SUBJECT_CLAIM]: { credentials: 'credentials', email: 'ada@example.com' }, [OWNER_CLAIM]: 'user-1', [ACTIVE_ORGANIZATION_CLAIM]: 'org-1' });
		const { session } = await readWith(configOf(adapter, { organizations: {} }), token);
		expect(session?.organization?.role).toBe('admin');
		expect(asked).toEqual([['org-1', 'user-1']]);
	});

	test('without an active id nothing is asked; another user\u2019s token with the id shows nothing', async () => {
		const { adapter, asked } = await world();
		const config = configOf(adapter, { organizations: {} });
		expect((await readWith(config, adaToken())).session?.organization).toBeUndefined();
		expect(asked).toEqual([]);
		const { session } = await readWith(config, adaToken({ sub: 'user-2', [ACTIVE_ORGANIZATION_CLAIM]: 'org-1' }));
		expect(session?.user).toBeDefined();
		expect(session?.organization).toBeUndefined();
	});

	test('without organizations in the config nothing is asked and an organization the app sets is its own', async () => {
		const { adapter, asked } = await world();
		const plain = await readWith(configOf(adapter), adaToken({ [ACTIVE_ORGANIZATION_CLAIM]: 'org-1' }));
		expect(plain.session?.user?.email).toBe('ada@example.com');
		expect(plain.session && 'organization' in plain.session).toBe(false);
		const own = { id: 'team-x', name: 'X', slug: 'x', logo: null, role: 'lead' };
		const shaped = await readWith(
			configOf(adapter, { callbacks: { session: ({ session }) => ({ ...session, organization: own }) } }),
			adaToken({ [ACTIVE_ORGANIZATION_CLAIM]: 'org-1' })
		);
		expect(shaped.session?.organization).toEqual(own);
		expect(asked).toEqual([]);
	});
});
