// Preview before load: POST /api/upload/preview with the file,
// POST /api/upload/preview/{id} with a changed mapping, and
// POST /api/upload/preview/{id}/start ('Start Upload' with the mapping shown).
import { api, formBody, restOutcome, type RestAnswer, type RestBody } from '../../../rest/client';
import type { UploadOptions } from '../uploadClient';

/** The preview the server answers (the same for a new file and a changed mapping). */
export type UploadPreview = RestAnswer<'/api/upload/preview', 'post'>;

export type PreviewColumn = UploadPreview['columns'][number];

type MappingBody = RestBody<'/api/upload/preview/{id}', 'post'>;

export type ColumnChoice = NonNullable<MappingBody['columnMapping']>[number];

/** Where the header is, as the administrator chose it: the sheet (by name) and the header row. */
export type LayoutChoice = Pick<MappingBody, 'sheet' | 'headerRow'>;

export type PreviewResult<T> = { ok: true; value: T } | { ok: false; message: string };

async function settle<T>(call: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<PreviewResult<T>> {
  const r = await restOutcome('UploadRoute', call);
  return r.ok ? { ok: true, value: r.data } : { ok: false, message: r.failure.message };
}

/** Sends the file to be kept aside and previewed; nothing is loaded. */
export function previewFile(file: File): Promise<PreviewResult<UploadPreview>> {
  return settle(() => api.POST('/api/upload/preview', { body: { file }, bodySerializer: formBody }));
}

/** The preview again, with the columns mapped as chosen (none: as found), from the sheet and header row chosen. */
export function previewMapping(previewId: string, columnMapping: ColumnChoice[] | null, layout: LayoutChoice | null): Promise<PreviewResult<UploadPreview>> {
  return settle(() =>
    api.POST('/api/upload/preview/{id}', { params: { path: { id: previewId } }, body: { ...(columnMapping ? { columnMapping } : {}), ...layout } }),
  );
}

/** 'Start Upload' on the preview: loads the kept file with this mapping (saved as a profile when named). */
export function startPreviewed(
  previewId: string,
  options: UploadOptions,
  columnMapping: ColumnChoice[],
  saveProfileAs: string,
  layout: LayoutChoice | null,
): Promise<PreviewResult<RestAnswer<'/api/upload/preview/{id}/start', 'post'>>> {
  return settle(() =>
    api.POST('/api/upload/preview/{id}/start', {
      params: { path: { id: previewId } },
      body: { ...options, ...layout, columnMapping, ...(saveProfileAs.trim() ? { saveProfileAs: saveProfileAs.trim() } : {}) },
    }),
  );
}

/** The layout in words: 'CSV · Windows-1252 · semicolon-separated · header on row 4 · decimal comma'. */
export function layoutText(l: UploadPreview['layout']): string {
  const parts: string[] = [l.format];
  if (l.sheet) parts.push(`sheet '${l.sheet}'${l.sheets && l.sheets.length > 1 ? ` of ${l.sheets.length}` : ''}`);
  if (l.encoding) parts.push(l.encoding);
  if (l.delimiter) parts.push(`${l.delimiter}-separated`);
  parts.push(`header on row ${l.headerRow}`);
  parts.push(l.decimalSeparator === ',' ? 'decimal comma' : 'decimal point');
  if (l.profile) parts.push(`profile '${l.profile}'`);
  return parts.join(' · ');
}
