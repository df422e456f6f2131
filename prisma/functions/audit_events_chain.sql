-- The hash chain of the audit trail: one chain for the installation, every
-- event linked to the one before it (chain_seq 1, 2, 3… without a gap;
-- prev_hash is the previous event's hash; hash is audit_event_hash.sql), made
-- by the database in the transaction that writes the event, so both writers of
-- core/audit.ts (one event, or millions in one set-based statement) are
-- chained without doing anything.
--
-- The head of the chain (audit_chain_head, one row) is locked by a
-- transaction's first event and held to its commit: two transactions never
-- chain onto the same predecessor, on any number of instances. A row lock,
-- not an advisory one, because SELECT … FOR UPDATE returns the newest version
-- of the row after the wait, where a statement that waited on an advisory lock
-- would still read with its old snapshot. The order is the chain's, never the
-- ids' (a column default such as the id is evaluated before this trigger,
-- possibly before the lock). The head is the last lock of a writing
-- transaction (services/review/decision-locks.ts).
--
-- Within the transaction the running head is kept in the transaction-local
-- setting grc.audit_chain_head ('<seq>:<hash>'), so each further event costs
-- no lock and no write; the statement's end writes it back to the head row
-- once (audit_events_chain_head.sql). A rolled-back savepoint takes its events,
-- the setting and the head row's change back together.
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
