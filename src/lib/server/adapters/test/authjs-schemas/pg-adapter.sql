-- The schema of @auth/pg-adapter, verbatim (a test fixture; the rest of this file is theirs, the psql line included).
-- Source: nextauthjs/next-auth, packages/adapter-pg/schema.sql, last changed in commit 2f0b85b27cef14d26c8c908e5e5e7c45d41b3256,
-- read at a1a16a5a7780488c7449feece410033f445d0b31. The authjs.dev page docs/pages/getting-started/adapters/pg.mdx
-- (commit d3934392105f8fb49bb6a706e6f83c76a72d8eed) documents the same four statements.
\set ON_ERROR_STOP true

CREATE TABLE verification_token
(
  identifier TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  token TEXT NOT NULL,

  PRIMARY KEY (identifier, token)
);

CREATE TABLE accounts
(
  id SERIAL,
  "userId" INTEGER NOT NULL,
  type VARCHAR(255) NOT NULL,
  provider VARCHAR(255) NOT NULL,
  "providerAccountId" VARCHAR(255) NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at BIGINT,
  id_token TEXT,
  scope TEXT,
  session_state TEXT,
  token_type TEXT,

  PRIMARY KEY (id)
);

CREATE TABLE sessions
(
  id SERIAL,
  "userId" INTEGER NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  "sessionToken" VARCHAR(255) NOT NULL,

  PRIMARY KEY (id)
);

CREATE TABLE users
(
  id SERIAL,
  name VARCHAR(255),
  email VARCHAR(255),
  "emailVerified" TIMESTAMPTZ,
  image TEXT,

  PRIMARY KEY (id)
);
