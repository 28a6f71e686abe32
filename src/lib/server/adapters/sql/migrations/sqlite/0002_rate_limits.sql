-- kitgate schema 0002 (SQLite): rate-limit counters and revocations of JWT sessions, for
-- SqlRateLimitStore (kitgate/adapters/rate-limit-store): several servers share limits and revocations.
CREATE TABLE IF NOT EXISTS rate_limits (
	key TEXT NOT NULL PRIMARY KEY,
	count INTEGER NOT NULL,
	reset_at INTEGER NOT NULL
);

CREATE INDEX IF NOT EXISTS rate_limits_reset_at_idx ON rate_limits (reset_at);

CREATE TABLE IF NOT EXISTS session_revocations (
	user_id TEXT NOT NULL PRIMARY KEY,
	revoked_at INTEGER NOT NULL,
	keep_until INTEGER NOT NULL
);

CREATE INDEX IF NOT EXISTS session_revocations_keep_until_idx ON session_revocations (keep_until);
