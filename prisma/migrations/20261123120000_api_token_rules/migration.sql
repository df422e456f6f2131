-- API tokens with rules: a scope (read or full), the address of the last use,
-- and an expiry on every token (tokens made before this get created + 90 days).
CREATE TYPE "ApiTokenScope" AS ENUM ('read', 'full');

ALTER TABLE "api_tokens" ADD COLUMN "scope" "ApiTokenScope" NOT NULL DEFAULT 'read';
-- Tokens made before scopes existed acted with their owner's full rights; they keep them until they expire.
UPDATE "api_tokens" SET "scope" = 'full';

ALTER TABLE "api_tokens" ADD COLUMN "last_used_ip" TEXT;

UPDATE "api_tokens" SET "expires_at" = "created_at" + INTERVAL '90 days' WHERE "expires_at" IS NULL;
ALTER TABLE "api_tokens" ALTER COLUMN "expires_at" SET NOT NULL;
