-- Single sign-on (OpenID Connect): a session remembers how it was started, so
-- GET /api/auth/user answers only for sessions from the identity provider and
-- sign-out can end the provider's session too (RP-initiated logout needs the
-- ID token as id_token_hint). Existing sessions were all password sign-ins.
CREATE TYPE "AuthMethod" AS ENUM ('password', 'oidc');

ALTER TABLE "sessions" ADD COLUMN "auth_method" "AuthMethod" NOT NULL DEFAULT 'password';
ALTER TABLE "sessions" ADD COLUMN "id_token" TEXT;
