// Whether a session's sign-in is recent enough for a sensitive account change. Pure.

/**
 * True when a sign-in at `signedInAt` (ms; null or undefined when unknown) is at most `maxAgeSeconds` old at
 * `now`. An unknown sign-in time is never recent, nor is one in the future beyond a minute of clock skew. Pure.
 *
 * @example
 * isFreshSignIn(Date.now() - 60_000, Date.now(), 600); // true
 * isFreshSignIn(null, Date.now(), 600); // false
 */
export function isFreshSignIn(signedInAt: number | null | undefined, now: number, maxAgeSeconds: number): boolean {
	if (typeof signedInAt !== 'number' || !Number.isFinite(signedInAt)) return false;
	if (signedInAt > now + 60_000) return false;
	return now - signedInAt <= maxAgeSeconds * 1000;
}
