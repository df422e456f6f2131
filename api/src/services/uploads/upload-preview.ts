// Preview before load: the file is received and kept
// aside (uploads/.preview in the store), and the administrator sees what the load
// would do with it (ingest/preview.ts): the layout, each column's field, the
// first rows as stored, the problems in the first rows. A changed mapping, or
// another sheet or header row, is previewed again; 'Start Upload' turns the kept file into an upload with the
// confirmed mapping (and, if asked, saves it as a profile), or refuses it
// before anything is written when the mapping cannot load it. Previews not
// started are removed after a day.
import path from 'node:path';
import crypto from 'node:crypto';
import type { Upload } from '../../generated/prisma/client.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import type { Caller } from '../caller.js';
import { isUuid } from '../../core/types.js';
import { readSmall, type ObjectStore } from '../../db/storage/index.js';
import { IngestError, type LayoutChoice } from '../../ingest/csv.js';
import { overridesOf } from '../../ingest/headers.js';
import { mappableFields, previewFile, type FilePreview } from '../../ingest/preview.js';
import { ACCEPTED_EXTENSIONS, acceptUpload, type ColumnChoice, type ReceivedFile, type UploadDeps, type UploadOptions } from './uploads.js';
import { checkColumnMapping, checkProfileName, profileData } from './mapping-profiles.js';

/** Previews not started within this long are removed. */
export const PREVIEW_TTL_MS = 24 * 3600_000;

type PreviewMeta = { originalName: string; sizeBytes: number; createdAt: number };

export type UploadPreview = FilePreview & {
  previewId: string;
  originalName: string;
  sizeBytes: number;
  /** Every field a column can be mapped to, for the picker. */
  mappableFields: { field: string; label: string }[];
};

const PREVIEWS = 'uploads/.preview/';

async function removeStale(storage: ObjectStore) {
  const now = Date.now();
  for (const o of await storage.list(PREVIEWS)) if (now - o.modifiedAt.getTime() > PREVIEW_TTL_MS) await storage.delete(o.key);
}

async function stored(storage: ObjectStore, previewId: string): Promise<{ key: string; meta: PreviewMeta }> {
  const meta = isUuid(previewId) ? await readSmall(storage, `${PREVIEWS}${previewId}.json`) : null;
  if (!meta) throw new NotFoundError('Preview not found: it was started, or it is older than a day. Choose the file again.');
  const m = JSON.parse(meta.toString('utf8')) as PreviewMeta;
  return { key: PREVIEWS + previewId + path.extname(m.originalName).toLowerCase(), meta: m };
}

/** The highest header row that can be chosen (an .xlsx sheet's last row). */
export const MAX_HEADER_ROW = 1_048_576;

/** Where the header is, as sent (sheet name, header row), checked; undefined when neither is sent. */
export function checkLayoutChoice(raw: { sheet?: unknown; headerRow?: unknown }): LayoutChoice | undefined {
  const out: LayoutChoice = {};
  if (raw.sheet !== undefined && raw.sheet !== null) {
    if (typeof raw.sheet !== 'string' || raw.sheet.length > 255) throw new ValidationError("sheet must be the name of one of the workbook's sheets", 'sheet');
    out.sheet = raw.sheet;
  }
  if (raw.headerRow !== undefined && raw.headerRow !== null) {
    const n = raw.headerRow;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_HEADER_ROW) {
      throw new ValidationError(`headerRow must be a row number from 1 to ${MAX_HEADER_ROW.toLocaleString('en-US')}`, 'headerRow');
    }
    out.headerRow = n;
  }
  return out.sheet === undefined && out.headerRow === undefined ? undefined : out;
}

async function build(
  deps: UploadDeps,
  previewId: string,
  key: string,
  meta: PreviewMeta,
  mapping?: ColumnChoice[],
  layout?: LayoutChoice,
): Promise<UploadPreview> {
  const choice = { ...(mapping ? { overrides: overridesOf(mapping) } : { profiles: await profileData(deps.prisma) }), ...(layout ? { layout } : {}) };
  try {
    const p = await previewFile(deps.storage.source(key), meta.originalName, choice);
    return { previewId, originalName: meta.originalName, sizeBytes: meta.sizeBytes, ...p, mappableFields: mappableFields() };
  } catch (err) {
    // Nothing to show (an empty file, binary data, text that is not valid in its encoding): said as the load would say it.
    if (err instanceof IngestError) throw new ValidationError(err.message, 'file');
    throw err;
  }
}

/** Keeps a received file aside and previews it. */
export async function createPreview(caller: Caller, file: ReceivedFile): Promise<UploadPreview> {
  const { deps } = caller;
  const ext = path.extname(file.originalName).toLowerCase();
  if (!ACCEPTED_EXTENSIONS.includes(ext)) {
    await deps.storage.delete(file.key);
    throw new ValidationError(`Files of type '${ext || 'none'}' cannot be loaded: upload a .csv, .xlsx or .xls file.`, 'file');
  }
  await removeStale(deps.storage);
  const previewId = crypto.randomUUID();
  const meta: PreviewMeta = { originalName: file.originalName.slice(0, 255), sizeBytes: file.sizeBytes, createdAt: Date.now() };
  const kept = PREVIEWS + previewId + ext;
  await deps.storage.move(file.key, kept);
  await deps.storage.put(`${PREVIEWS}${previewId}.json`, JSON.stringify(meta));
  try {
    return await build(deps, previewId, kept, meta);
  } catch (err) {
    await discard(deps.storage, previewId, kept);
    throw err;
  }
}

/** What the preview is shown again with: a column mapping, and where the header is. */
export interface PreviewChoice {
  columnMapping?: unknown;
  sheet?: unknown;
  headerRow?: unknown;
}

/**
 * The preview again, with the columns mapped as `columnMapping` says (headers
 * not in it: the dictionary's field), read from the sheet and header row
 * chosen (else those found).
 */
export async function previewAgain(caller: Caller, previewId: string, input: PreviewChoice): Promise<UploadPreview> {
  const { deps } = caller;
  const mapping = input.columnMapping === undefined || input.columnMapping === null ? undefined : checkColumnMapping(input.columnMapping);
  const layout = checkLayoutChoice(input);
  const { key, meta } = await stored(deps.storage, previewId);
  return build(deps, previewId, key, meta, mapping, layout);
}

async function discard(storage: ObjectStore, previewId: string, key?: string) {
  if (key) await storage.delete(key);
  await storage.delete(`${PREVIEWS}${previewId}.json`);
}

export interface StartInput extends PreviewChoice {
  options?: UploadOptions;
  saveProfileAs?: unknown;
}

/**
 * 'Start Upload' on a preview: the kept file becomes an upload that loads
 * with the mapping shown (the one sent, else the profile or dictionary the
 * preview applied), from the sheet and header row sent (else those found),
 * saved as a profile when a name is given. A mapping that
 * cannot load the file (a required field unmapped) is refused here, before
 * anything is written.
 */
export async function startPreviewed(caller: Caller, previewId: string, input: StartInput): Promise<Upload> {
  const { deps } = caller;
  const given = input.columnMapping === undefined || input.columnMapping === null ? undefined : checkColumnMapping(input.columnMapping);
  const profileName =
    input.saveProfileAs === undefined || input.saveProfileAs === null || input.saveProfileAs === '' ? undefined : checkProfileName(input.saveProfileAs);
  const layout = checkLayoutChoice(input);
  const { key, meta } = await stored(deps.storage, previewId);
  const preview = await build(deps, previewId, key, meta, given, layout);
  if (preview.refusal) throw new ValidationError(preview.refusal, 'columnMapping');
  // The mapping as the preview showed it, every column: kept with the upload when chosen or saved.
  const shown: ColumnChoice[] = preview.columns.filter((c) => c.header).map((c) => ({ header: c.header, field: c.field }));
  const upload = await acceptUpload(caller, { originalName: meta.originalName, key, sizeBytes: meta.sizeBytes }, input.options ?? {}, {
    ...(given || profileName ? { columnOverrides: shown } : {}),
    ...(layout ? { layoutChoice: layout } : {}),
    ...(profileName ? { saveProfile: { name: profileName, columns: shown } } : {}),
  });
  await discard(deps.storage, previewId);
  return upload;
}
