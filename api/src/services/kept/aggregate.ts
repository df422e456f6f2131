// The parts every kept aggregate has. A kept aggregate is a figure worked out
// once from the live rows and the decisions and kept in tables, so readers do
// not count over up to millions of rows per request. Each module of this wing
// holds one and says, in a KeptAggregate beside its code, where it is kept,
// when it may be read, how it is worked out again, and what a reader counts
// instead while it may not. What keeps each up to date as the data changes is
// dispatcher.ts (events of the writers) and the triggers on decisions
// (prisma/functions/); docs/architecture.md 'Kept aggregates' tabulates both.

/** A function of the aggregate's (each has its own arguments). */
type Step = (...args: never[]) => Promise<unknown>;

export interface KeptAggregate {
  /** Its name in docs/architecture.md. */
  readonly name: string;
  /** The tables it is kept in (its stamp's table, if any, last). */
  readonly tables: readonly string[];
  /** Its freshness key: what its stamp must equal for what is kept to be read. */
  readonly freshWhen: string;
  /** Works it out again, set-based, when it is not fresh (null: never worked out again, only moved). */
  readonly refresh: Step | null;
  /** What a reader counts from the live rows and decisions while it is not fresh (null: never stale). */
  readonly countLive: Step | null;
}
