// When an upstream access token is due for a refresh (isDue, token-refresh.ts): within the skew of
// its expires_at, never without one.

import { expect, test } from 'vitest';
import { isDue } from './token-refresh.js';

test('isDue: within the skew of expires_at (pure)', () => {
	expect(isDue(1000, 900_000, 60)).toBe(false);
	expect(isDue(1000, 940_000, 60)).toBe(true);
	expect(isDue(undefined, Date.now(), 60)).toBe(false);
});
