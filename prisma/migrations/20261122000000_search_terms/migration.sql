-- Search without trigram indexes on risk_rows. Those two GIN indexes (user
-- name, risk description) cost more than every other index together when a
-- file loads (psql \copy of 200k rows: 16k rows/s with them, 40k without).
-- What people search for (user ids and names, roles, risk ids and
-- descriptions) has few distinct values next to the number of rows, so those
-- values are kept once in risk_terms by a statement trigger; a search finds
-- the matching values there and the rows through risk_rows' btree indexes.
DROP INDEX IF EXISTS "risk_rows_user_name_trgm_idx";
DROP INDEX IF EXISTS "risk_rows_risk_description_trgm_idx";

CREATE TABLE "risk_terms" (
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "risk_terms_pkey" PRIMARY KEY ("kind","value","label")
);

-- Few rows (tens of thousands for millions of risk rows), but ILIKE over them
-- costs ~100 ms without these (non-C collation); with them a search is ~3 ms.
CREATE INDEX "risk_terms_value_trgm_idx" ON "risk_terms" USING GIN ("value" gin_trgm_ops);
CREATE INDEX "risk_terms_label_trgm_idx" ON "risk_terms" USING GIN ("label" gin_trgm_ops);

-- Bumped whenever the set of live risk rows may change: cached counts key on it.
CREATE TABLE "risk_data_version" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "risk_data_version_pkey" PRIMARY KEY ("id")
);
INSERT INTO "risk_data_version" ("id", "version") VALUES (1, 0);

INSERT INTO "risk_terms" ("kind", "value", "label")
SELECT DISTINCT 'user', "user_id", "user_name" FROM "risk_rows"
UNION SELECT DISTINCT 'role', "role_profile", '' FROM "risk_rows"
UNION SELECT DISTINCT 'risk', "access_risk_id", "risk_description" FROM "risk_rows"
ON CONFLICT DO NOTHING;

CREATE FUNCTION "risk_rows_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "risk_terms" ("kind", "value", "label")
  SELECT DISTINCT 'user', "user_id", "user_name" FROM new_rows
  UNION SELECT DISTINCT 'role', "role_profile", '' FROM new_rows
  UNION SELECT DISTINCT 'risk', "access_risk_id", "risk_description" FROM new_rows
  ON CONFLICT DO NOTHING;
  UPDATE "risk_data_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;

CREATE FUNCTION "risk_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "risk_data_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;

CREATE TRIGGER "risk_rows_after_insert" AFTER INSERT ON "risk_rows"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "risk_rows_after_insert"();
CREATE TRIGGER "risk_rows_after_delete" AFTER DELETE ON "risk_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "risk_data_changed"();
CREATE TRIGGER "uploads_live_changed" AFTER UPDATE OF "live" ON "uploads"
  FOR EACH STATEMENT EXECUTE FUNCTION "risk_data_changed"();
