// The audit trail's hash chain switched off and on again, for the benchmarks
// that measure what chaining costs a decision save: its two triggers disabled
// and its check dropped (as the table was before the chain), then restored.
// ALTER TABLE waits for the table to be idle, so switch between phases.
export async function switchAuditChain(sql: { query: (text: string) => Promise<unknown> }, on: boolean): Promise<void> {
  if (on) {
    await sql.query(`ALTER TABLE audit_events ENABLE TRIGGER audit_events_chain, ENABLE TRIGGER audit_events_chain_head,
      ADD CONSTRAINT audit_events_chained CHECK (chain_seq IS NOT NULL AND prev_hash IS NOT NULL AND hash IS NOT NULL) NOT VALID`);
  } else {
    await sql.query(
      `ALTER TABLE audit_events DISABLE TRIGGER audit_events_chain, DISABLE TRIGGER audit_events_chain_head, DROP CONSTRAINT audit_events_chained`,
    );
  }
}
