// Column-mapping profiles: a column mapping an
// administrator saved (a source system's or file layout's headers -> fields,
// or left out), applied to every later file that has all of its columns, so
// another tool's SoD report loads without renaming its columns. Saved when a
// previewed upload starts (upload-preview.ts); listed and deleted here.
import { z } from 'zod';
import type { PrismaClient, Upload } from '../../generated/prisma/client.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { isSingleLine, singleLineMessage } from '../../core/validation.js';
import { recordAudit } from '../../core/audit.js';
import type { Caller } from '../caller.js';
import { isUuid } from '../../core/types.js';
import { fieldLabel, isCanonicalField, normalizeHeader, overridesOf } from '../../ingest/headers.js';
import type { MappingChoice, MappingProfileData } from '../../ingest/open-file.js';
import type { LayoutChoice } from '../../ingest/csv.js';
import type { ColumnChoice } from './uploads.js';

export const MAX_PROFILE_NAME = 100;

/** A column mapping as sent: [{ header, field }], field null (or '') to leave the column out. */
export const columnMappingSchema = z
  .array(
    z.object({
      header: z.string({ error: 'columnMapping: each column needs its header' }).max(500, 'columnMapping: a header is at most 500 characters'),
      field: z.string().max(100).nullable().optional(),
    }),
    { error: 'columnMapping must be a list of { header, field }' },
  )
  .max(500, 'columnMapping: at most 500 columns');

/**
 * A sent mapping, checked: every field one of the export's fields, no field
 * chosen for two columns (the message names both and the field).
 */
export function checkColumnMapping(raw: unknown): ColumnChoice[] {
  const parsed = columnMappingSchema.safeParse(raw);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? 'columnMapping is not valid', 'columnMapping');
  const byField = new Map<string, string>();
  return parsed.data.map(({ header, field }) => {
    const f = field || null;
    if (f !== null) {
      if (!isCanonicalField(f)) throw new ValidationError(`columnMapping: '${f}' is not a field (column '${header}')`, 'columnMapping');
      const other = byField.get(f);
      if (other !== undefined && normalizeHeader(other) !== normalizeHeader(header)) {
        throw new ValidationError(
          `columnMapping: columns '${other}' and '${header}' are both mapped to ${fieldLabel(f)}; map each field once`,
          'columnMapping',
        );
      }
      byField.set(f, header);
    }
    return { header, field: f };
  });
}

export function checkProfileName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name) throw new ValidationError('The profile needs a name', 'saveProfileAs');
  if (name.length > MAX_PROFILE_NAME) throw new ValidationError(`The profile name is too long (${MAX_PROFILE_NAME} characters at most)`, 'saveProfileAs');
  if (!isSingleLine(name)) throw new ValidationError(singleLineMessage('The profile name'), 'saveProfileAs');
  return name;
}

export function listProfiles(caller: Caller) {
  return caller.deps.prisma.mappingProfile.findMany({ orderBy: [{ name: 'asc' }] });
}

/** The profiles as the importer applies them (the most recently saved first among equals). */
export async function profileData(prisma: PrismaClient): Promise<MappingProfileData[]> {
  const rows = await prisma.mappingProfile.findMany({ orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }] });
  return rows.map((p) => ({ name: p.name, columns: p.columns as ColumnChoice[] }));
}

/** How an upload's columns are chosen: its confirmed mapping, else the saved profiles; where its header is, if chosen. */
export async function mappingChoice(prisma: PrismaClient, up: Pick<Upload, 'columnOverrides' | 'layoutChoice'>): Promise<MappingChoice> {
  const layout = up.layoutChoice && typeof up.layoutChoice === 'object' ? { layout: up.layoutChoice as LayoutChoice } : {};
  if (Array.isArray(up.columnOverrides)) return { overrides: overridesOf(up.columnOverrides as ColumnChoice[]), ...layout };
  return { profiles: await profileData(prisma), ...layout };
}

export async function deleteProfile(caller: Caller, id: string): Promise<void> {
  const { actor } = caller;
  await caller.deps.prisma.$transaction(async (tx) => {
    const p = isUuid(id) ? await tx.mappingProfile.findUnique({ where: { id } }) : null;
    if (!p) throw new NotFoundError('Mapping profile not found');
    await tx.mappingProfile.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: 'mapping-profile.deleted',
      entityType: 'MappingProfile',
      entityId: id,
      before: { name: p.name, columns: p.columns },
    });
  });
}

export function profileJson(p: { id: string; name: string; columns: unknown; updatedAt: Date }) {
  return { id: p.id, name: p.name, columns: p.columns as ColumnChoice[], updatedAt: p.updatedAt };
}
