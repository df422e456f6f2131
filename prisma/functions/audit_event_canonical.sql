-- The canonical form of an audit event, the one text its chain hash covers
-- (audit_event_hash.sql); packages/grc-verify/src/chain.mjs writes the same
-- text from the event as JSON, byte for byte, and docs/audit-chain.md describes
-- it. A JSON array on one line, ',' between its twelve items, in this order:
--   id, chain_seq             as JSON strings of their decimal digits ("42")
--   occurred_at               as a JSON string, UTC, milliseconds: "2026-12-07T09:30:00.123Z"
--   actor_id                  a JSON string (the uuid in lower case) or null
--   actor_label, action, entity_type
--                             JSON strings
--   entity_id, period_id      a JSON string or null
--   before, after             audit_canonical_json.sql (SQL NULL and JSON null: null)
--   ip                        a JSON string or null
-- Strings are escaped as jsonb escapes them (audit_canonical_json.sql).
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
