// Types of chain.mjs for TypeScript callers (the app's tests).
export declare const GENESIS_HASH: string;
export interface ChainEvent {
  id: string;
  chainSeq: string;
  /** ISO 8601, UTC, with milliseconds. */
  occurredAt: string;
  actorId: string | null;
  actorLabel: string;
  action: string;
  entityType: string;
  entityId: string | null;
  periodId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  prevHash: string;
  hash: string;
}
export interface ChainBreak {
  eventId: string;
  reason: string;
}
export declare function canonicalString(s: string): string;
export declare function canonicalNumber(x: number): string;
export declare function canonicalJson(v: unknown): string;
export declare function canonicalEvent(e: Omit<ChainEvent, 'prevHash' | 'hash'> & Partial<Pick<ChainEvent, 'prevHash' | 'hash'>>): string;
export declare function eventHash(event: Omit<ChainEvent, 'prevHash' | 'hash'> & Partial<Pick<ChainEvent, 'prevHash' | 'hash'>>, prevHash: string): string;
export declare function verifyChain(
  events: Iterable<ChainEvent>,
  options?: { after?: { chainSeq: string; hash: string }; allowGaps?: boolean },
): ChainBreak | null;
