-- After each statement inserting audit events: the chain's running head
-- (audit_events_chain.sql keeps it in the transaction-local setting
-- grc.audit_chain_head) written back to audit_chain_head, once per statement
-- however many events it chained, so the next transaction to lock the head
-- row chains onto this one's last event.
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
