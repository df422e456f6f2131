// The append-only evidence trail. Every service that changes something an
// auditor may ask about records it here, inside the same transaction as the
// change. The database refuses UPDATE and DELETE on audit_events. This file
// is the only one that knows an event's row: one event through Prisma
// (recordAudit), or one per row of a set-based change in SQL (auditRowsSql).
import { Prisma } from '../generated/prisma/client.js';
import type { Actor, DbClient } from './types.js';
import { displayName, personLabel } from './people.js';

export interface AuditEntry {
  action: string;
  entityType: string;
  entityId?: string | null;
  periodId?: string | null;
  before?: unknown;
  after?: unknown;
  /** Who acted when nobody is signed in and it is not the system (e.g. a refused sign-in attempt). */
  actorLabel?: string;
}

export function actorLabel(actor: Actor | null | undefined): string {
  if (!actor?.user) return 'system';
  const u = actor.user;
  return displayName(u) ? personLabel(u) : u.email;
}

function json(v: unknown): Prisma.InputJsonValue | undefined {
  if (v === undefined || v === null) return undefined;
  return JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)));
}

export async function recordAudit(db: DbClient, actor: Actor | null, entry: AuditEntry): Promise<void> {
  await db.auditEvent.create({
    data: {
      actorId: actor?.user?.id ?? null,
      actorLabel: entry.actorLabel ?? actorLabel(actor),
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId ?? null,
      periodId: entry.periodId ?? null,
      before: json(entry.before),
      after: json(entry.after),
      ip: actor?.ip ?? null,
    },
  });
}

/**
 * recordAudit's SQL form, for changes written set-based (up to millions of
 * rows in one statement): an INSERT of one event by `actor` per row of
 * `events`, a SELECT yielding action, entity_type, entity_id (text),
 * period_id (uuid), before and after (jsonb). A statement of its own, or a
 * data-modifying CTE beside the change it audits (append RETURNING to count).
 */
export function auditRowsSql(actor: Actor | null, events: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO audit_events (actor_id, actor_label, action, entity_type, entity_id, period_id, before, after, ip)
    SELECT ${actor?.user?.id ?? null}::uuid, ${actorLabel(actor)}, e.action, e.entity_type, e.entity_id, e.period_id, e.before, e.after, ${actor?.ip ?? null}::text
      FROM (${events}) e`;
}
