// Preview before load: POST /api/upload/preview with the file,
// POST /api/upload/preview/{id} with a changed mapping, and
// POST /api/upload/preview/{id}/start ('Start Upload' with the mapping shown).
import { notifyUnauthenticated } from '../../relay/errors';
import type { UploadOptions } from './uploadClient';

export type PreviewColumn = { header: string; field: string | null; suggestion: string | null };

export type UploadPreview = {
  previewId: string;
  originalName: string;
  sizeBytes: number;
  layout: {
    format: string;
    encoding?: string;
    delimiter?: string;
    sheet?: string;
    sheets?: string[];
    headerRow: number;
    decimalSeparator: string;
    profile?: string;
  };
  columns: PreviewColumn[];
  fields: string[];
  rows: { row: number; values: (string | null)[] }[];
  problems: string[];
  warnings: string[];
  refusal: string | null;
  mappableFields: { field: string; label: string }[];
};

export type ColumnChoice = { header: string; field: string | null };

/** Where the header is, as the administrator chose it: the sheet (by name) and the header row. */
export type LayoutChoice = { sheet?: string; headerRow?: number };

export type PreviewResult<T> = { ok: true; value: T } | { ok: false; message: string };

async function call<T>(url: string, init: RequestInit): Promise<PreviewResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'include', headers: { Accept: 'application/json', ...init.headers }, ...init });
  } catch {
    return { ok: false, message: 'The connection to the server was lost.' };
  }
  if (response.status === 401) notifyUnauthenticated('UploadRoute');
  const body = (await response.json().catch(() => null)) as (T & { message?: string }) | null;
  if (!response.ok || body == null) return { ok: false, message: body?.message || response.statusText || 'Unknown error' };
  return { ok: true, value: body };
}

/** Sends the file to be kept aside and previewed; nothing is loaded. */
export function previewFile(file: File): Promise<PreviewResult<UploadPreview>> {
  const form = new FormData();
  form.append('file', file, file.name);
  return call<UploadPreview>('/api/upload/preview', { method: 'POST', body: form });
}

const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

/** The preview again, with the columns mapped as chosen (none: as found), from the sheet and header row chosen. */
export function previewMapping(previewId: string, columnMapping: ColumnChoice[] | null, layout: LayoutChoice | null): Promise<PreviewResult<UploadPreview>> {
  return call<UploadPreview>(`/api/upload/preview/${encodeURIComponent(previewId)}`, json({ ...(columnMapping ? { columnMapping } : {}), ...layout }));
}

/** 'Start Upload' on the preview: loads the kept file with this mapping (saved as a profile when named). */
export function startPreviewed(
  previewId: string,
  options: UploadOptions,
  columnMapping: ColumnChoice[],
  saveProfileAs: string,
  layout: LayoutChoice | null,
): Promise<PreviewResult<{ uploadId: string }>> {
  return call<{ uploadId: string }>(
    `/api/upload/preview/${encodeURIComponent(previewId)}/start`,
    json({ ...options, ...layout, columnMapping, ...(saveProfileAs.trim() ? { saveProfileAs: saveProfileAs.trim() } : {}) }),
  );
}

/** The layout in words: 'CSV · Windows-1252 · semicolon-separated · header on row 4 · decimal comma'. */
export function layoutText(l: UploadPreview['layout']): string {
  const parts = [l.format];
  if (l.sheet) parts.push(`sheet '${l.sheet}'${l.sheets && l.sheets.length > 1 ? ` of ${l.sheets.length}` : ''}`);
  if (l.encoding) parts.push(l.encoding);
  if (l.delimiter) parts.push(`${l.delimiter}-separated`);
  parts.push(`header on row ${l.headerRow}`);
  parts.push(l.decimalSeparator === ',' ? 'decimal comma' : 'decimal point');
  if (l.profile) parts.push(`profile '${l.profile}'`);
  return parts.join(' · ');
}
