-- An audit event's chain hash: the SHA-256, in 64 lower-case hex digits, of
-- the UTF-8 bytes of the previous event's hash (64 zeros before the first
-- event) followed by the event's canonical form (audit_event_canonical.sql).
-- Written by the trigger audit_events_chain, recomputed by the verification
-- (services/audit/chain.ts).
CREATE OR REPLACE FUNCTION "audit_event_hash"("prev_hash" TEXT, "e" "audit_events") RETURNS TEXT
  LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to("prev_hash" || "audit_event_canonical"("e"), 'UTF8')), 'hex')
$$;
