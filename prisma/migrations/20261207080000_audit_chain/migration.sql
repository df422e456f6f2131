-- The audit trail as a hash chain: every event carries its place in the one
-- chain of the installation (chain_seq), the previous event's hash and its own
-- (SHA-256 over the previous hash and the event's canonical form), written by
-- the database as the event is inserted (prisma/functions/audit_events_chain.sql).
-- The events already there are chained here, in id order, from 64 zeros.
ALTER TABLE "audit_events" ADD COLUMN "chain_seq" BIGINT;
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "hash" TEXT;

-- The head of the chain: the last event's place and hash, one row, locked by
-- each transaction that appends to the chain until it commits.
CREATE TABLE "audit_chain_head" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "audit_chain_head_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "audit_chain_head_one_row" CHECK ("id")
);

-- The bodies below are those of prisma/functions (the backfill runs them).
CREATE OR REPLACE FUNCTION "audit_canonical_json"("j" JSONB) RETURNS TEXT
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  t TEXT;
BEGIN
  IF "j" IS NULL THEN
    RETURN 'null';
  END IF;
  t := "j"::text;
  IF t !~ '[.]|[0-9]{16}' OR regexp_replace(t, '"(?:[^"\\]|\\.)*"', '', 'g') !~ '[.]|[0-9]{16}' THEN
    RETURN t;
  END IF;
  CASE jsonb_typeof("j")
    WHEN 'object' THEN
      RETURN '{' || coalesce((SELECT string_agg(to_jsonb(e."key")::text || ': ' || "audit_canonical_json"(e."value"), ', ' ORDER BY e."n")
                                FROM jsonb_each("j") WITH ORDINALITY e("key", "value", "n")), '') || '}';
    WHEN 'array' THEN
      RETURN '[' || coalesce((SELECT string_agg("audit_canonical_json"(e."value"), ', ' ORDER BY e."n")
                                FROM jsonb_array_elements("j") WITH ORDINALITY e("value", "n")), '') || ']';
    WHEN 'number' THEN
      RETURN "audit_canonical_number"("j"::numeric);
    ELSE
      RETURN t;
  END CASE;
END;
$$;

CREATE OR REPLACE FUNCTION "audit_canonical_number"("n" NUMERIC) RETURNS TEXT
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET extra_float_digits = 1 AS $$
BEGIN
  IF "n" = 0 OR (abs("n") < 1e308 AND abs("n") > 1e-307) THEN
    RETURN "n"::float8::text::numeric::text;
  END IF;
  BEGIN
    RETURN "n"::float8::text::numeric::text;
  EXCEPTION WHEN numeric_value_out_of_range THEN
    RETURN CASE WHEN abs("n") < 1 THEN '0' WHEN "n" < 0 THEN '-Infinity' ELSE 'Infinity' END;
  END;
END;
$$;

CREATE OR REPLACE FUNCTION "audit_event_canonical"("e" "audit_events") RETURNS TEXT
  LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT '["' || ("e")."id" || '","' || ("e")."chain_seq" || '","'
      || to_char(("e")."occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '",'
      || coalesce(to_jsonb(("e")."actor_id"::text)::text, 'null') || ','
      || to_jsonb(("e")."actor_label")::text || ','
      || to_jsonb(("e")."action")::text || ','
      || to_jsonb(("e")."entity_type")::text || ','
      || coalesce(to_jsonb(("e")."entity_id")::text, 'null') || ','
      || coalesce(to_jsonb(("e")."period_id"::text)::text, 'null') || ','
      || "audit_canonical_json"(("e")."before") || ','
      || "audit_canonical_json"(("e")."after") || ','
      || coalesce(to_jsonb(("e")."ip")::text, 'null') || ']'
$$;

CREATE OR REPLACE FUNCTION "audit_event_hash"("prev_hash" TEXT, "e" "audit_events") RETURNS TEXT
  LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to("prev_hash" || "audit_event_canonical"("e"), 'UTF8')), 'hex')
$$;

-- Chain the events there are, in id order, writing them back 10,000 at a time.
ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_no_update";
DO $$
DECLARE
  r "audit_events";
  prev TEXT := repeat('0', 64);
  seq BIGINT := 0;
  ids BIGINT[] := '{}';
  seqs BIGINT[] := '{}';
  prevs TEXT[] := '{}';
  hashes TEXT[] := '{}';
BEGIN
  FOR r IN SELECT * FROM "audit_events" ORDER BY "id" LOOP
    seq := seq + 1;
    r."chain_seq" := seq;
    ids := ids || r."id";
    seqs := seqs || seq;
    prevs := prevs || prev;
    prev := "audit_event_hash"(prev, r);
    hashes := hashes || prev;
    IF cardinality(ids) >= 10000 THEN
      UPDATE "audit_events" e SET "chain_seq" = u."seq", "prev_hash" = u."prev", "hash" = u."hash"
        FROM unnest(ids, seqs, prevs, hashes) u("id", "seq", "prev", "hash") WHERE e."id" = u."id";
      ids := '{}';
      seqs := '{}';
      prevs := '{}';
      hashes := '{}';
    END IF;
  END LOOP;
  UPDATE "audit_events" e SET "chain_seq" = u."seq", "prev_hash" = u."prev", "hash" = u."hash"
    FROM unnest(ids, seqs, prevs, hashes) u("id", "seq", "prev", "hash") WHERE e."id" = u."id";
  INSERT INTO "audit_chain_head" ("id", "seq", "hash") VALUES (true, seq, prev);
END;
$$;
ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_no_update";

CREATE UNIQUE INDEX "audit_events_chain_seq_key" ON "audit_events"("chain_seq");
-- Filled by the trigger, never left empty (schema.prisma cannot say NOT NULL
-- of a column the database fills without a default).
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_chained" CHECK ("chain_seq" IS NOT NULL AND "prev_hash" IS NOT NULL AND "hash" IS NOT NULL);

CREATE OR REPLACE FUNCTION "audit_events_chain"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head TEXT := current_setting('grc.audit_chain_head', true);
BEGIN
  IF coalesce(head, '') = '' THEN
    SELECT h."seq" || ':' || h."hash" INTO head FROM "audit_chain_head" h FOR UPDATE;
  END IF;
  NEW."chain_seq" := split_part(head, ':', 1)::bigint + 1;
  NEW."prev_hash" := split_part(head, ':', 2);
  NEW."hash" := "audit_event_hash"(NEW."prev_hash", NEW);
  PERFORM set_config('grc.audit_chain_head', NEW."chain_seq" || ':' || NEW."hash", true);
  RETURN NEW;
END;
$$;

DROP TRIGGER IF EXISTS "audit_events_chain" ON "audit_events";
CREATE TRIGGER "audit_events_chain" BEFORE INSERT ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_chain"();

CREATE OR REPLACE FUNCTION "audit_events_chain_head"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head TEXT := current_setting('grc.audit_chain_head', true);
BEGIN
  IF coalesce(head, '') <> '' THEN
    UPDATE "audit_chain_head" SET "seq" = split_part(head, ':', 1)::bigint, "hash" = split_part(head, ':', 2);
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS "audit_events_chain_head" ON "audit_events";
CREATE TRIGGER "audit_events_chain_head" AFTER INSERT ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_chain_head"();

