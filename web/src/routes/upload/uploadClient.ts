// The Data Upload screen's non-visual parts: SPEC §9 constants, browser-side
// file checks, the multipart POST /api/upload (XMLHttpRequest, for its sending
// progress), the GET /api/upload-status fallback poll, and formatting.
import { notifyUnauthenticated } from '../../relay/errors';
import { formatCount } from '../../components/layout/StatTile';
import { api, formBody, restFailure, type paths, type RestAnswer, type RestForm } from '../../rest/client';

/** SPEC §9. */
export const MAX_UPLOAD_BYTES = 2 * 1024 ** 3;
export const LARGE_FILE_BYTES = 500 * 1024 ** 2;
export const TIMEOUT_NOTICE_BYTES = 100 * 1024 ** 2;
export const RESPONSE_TIMEOUT_MS = 30_000;
export const STATUS_POLL_MS = 3_000;
export const HISTORY_REFRESH_MS = 5_000;
export const BYTES_PER_RECORD = 500;
export const BATCH_SIZES = [5000, 10000, 25000, 50000, 100000] as const;
export const DEFAULT_BATCH_SIZE = 50000;
export const ACCEPTED_EXTENSIONS = ['.csv', '.xlsx', '.xls'] as const;
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');

const UPLOAD_PATH = '/api/upload' satisfies keyof paths;
type UploadForm = RestForm<typeof UPLOAD_PATH, 'post'>;
type Accepted = RestAnswer<typeof UPLOAD_PATH, 'post'>;

/** The upload's options, as POST /api/upload takes them (each chosen on the form). */
export type UploadOptions = Required<Omit<UploadForm, 'file'>>;
export type UploadMode = UploadOptions['uploadMode'];
export type UploadStatus = Accepted['status'];

export const DEFAULT_OPTIONS: UploadOptions = {
  uploadMode: 'append',
  skipDuplicates: true,
  batchSize: DEFAULT_BATCH_SIZE,
  emailNotification: true,
};

export function formatNumber(n: number): string {
  return formatCount(Math.round(n));
}

/** 1.5 MB, 820 KB, 2.0 GB (binary units, as the 2GB limit is). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** SPEC §2/§9: estimated records = bytes / 500. */
export function estimatedRecords(bytes: number): number {
  return Math.max(0, Math.round(bytes / BYTES_PER_RECORD));
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

export function isAcceptedType(name: string): boolean {
  return (ACCEPTED_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

/**
 * Whether the server reports byte progress for the file: CSV and .xlsx are
 * read as streams (for .xlsx, the position in the compressed worksheet);
 * a legacy .xls is read whole, so its progress is rows against an estimate.
 */
export function reportsBytes(name: string): boolean {
  const ext = extensionOf(name);
  return ext === '.csv' || ext === '.xlsx';
}

export type FileScreening = {
  accepted: File[];
  wrongType: File[];
  tooLarge: File[];
};

/** SPEC §5: accepted types .csv, .xlsx, .xls; over 2 GB refused before sending. */
export function screenFiles(files: readonly File[]): FileScreening {
  const result: FileScreening = { accepted: [], wrongType: [], tooLarge: [] };
  for (const file of files) {
    if (!isAcceptedType(file.name)) result.wrongType.push(file);
    else if (file.size > MAX_UPLOAD_BYTES) result.tooLarge.push(file);
    else result.accepted.push(file);
  }
  return result;
}

/** The DataUpload global id (Relay node id) of an upload id from the REST API. */
export function uploadGlobalId(uploadId: string): string {
  return window.btoa(`DataUpload:${uploadId}`);
}

export type SendProgress = { loaded: number; total: number };

export type SendResult =
  | { kind: 'accepted'; uploadId: string; status: UploadStatus }
  | { kind: 'rejected'; message: string; uploadId?: string; status: number }
  | { kind: 'timeout' }
  | { kind: 'network'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'unauthenticated' };

export type SendHandle = {
  result: Promise<SendResult>;
  cancel: () => void;
};

/** An answer's JSON body, or its text when it is not JSON. */
function responseBody(xhr: XMLHttpRequest): unknown {
  const text = typeof xhr.responseText === 'string' ? xhr.responseText : '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * POST /api/upload as multipart/form-data (SPEC §7), reporting the sending
 * progress. The 30 s client abort (SPEC §9) covers waiting for the server's
 * answer once the body is sent, and a send that makes no progress for 30 s;
 * sending a large body may itself take far longer and is not cut short.
 */
export function sendUpload(file: File, options: UploadOptions, onProgress: (p: SendProgress) => void): SendHandle {
  const xhr = new XMLHttpRequest();
  let timer: number | undefined;
  let outcome: 'timeout' | 'stalled' | 'cancelled' | null = null;

  const arm = (reason: 'timeout' | 'stalled') => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      outcome = reason;
      xhr.abort();
    }, RESPONSE_TIMEOUT_MS);
  };

  const result = new Promise<SendResult>((resolve) => {
    const done = (r: SendResult) => {
      window.clearTimeout(timer);
      resolve(r);
    };
    xhr.open('POST', UPLOAD_PATH);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
      arm('stalled');
    };
    xhr.upload.onload = () => {
      onProgress({ loaded: file.size, total: file.size });
      arm('timeout');
    };
    xhr.onload = () => {
      if (xhr.status === 401) {
        notifyUnauthenticated('UploadRoute');
        done({ kind: 'unauthenticated' });
        return;
      }
      const body = responseBody(xhr);
      if (xhr.status >= 200 && xhr.status < 300) {
        const accepted = body as Partial<Accepted> | null;
        if (accepted && typeof accepted === 'object' && accepted.uploadId) {
          done({ kind: 'accepted', uploadId: accepted.uploadId, status: accepted.status ?? 'processing' });
          return;
        }
        done({ kind: 'network', message: 'Invalid response from server' });
        return;
      }
      // An upload refused after it was received names it (uploadId).
      const { message, uploadId } = restFailure(body, xhr.statusText);
      done({ kind: 'rejected', message, uploadId, status: xhr.status });
    };
    xhr.onerror = () => done({ kind: 'network', message: 'The connection to the server was lost while sending the file.' });
    xhr.onabort = () => {
      if (outcome === 'timeout') done({ kind: 'timeout' });
      else if (outcome === 'stalled') done({ kind: 'network', message: 'The server stopped receiving the file for 30 seconds; the upload was stopped.' });
      else done({ kind: 'cancelled' });
    };

    // formBody puts the file last: the server reads the fields before it streams the file.
    const fields: UploadForm = { ...options, file };
    arm('stalled');
    xhr.send(formBody(fields));
  });

  return {
    result,
    cancel: () => {
      outcome = 'cancelled';
      xhr.abort();
    },
  };
}

/** A progress event or status poll, as far as the screen needs it. */
export type ProgressUpdate = {
  status: string;
  rowsProcessed: number;
  bytesProcessed: number;
  duplicatesSkipped: number;
  errorMessage?: string | null;
  recordCount?: number;
  /** A completed upload's warnings; any makes it 'Completed with warnings'. */
  warnings?: readonly string[];
};

export type StatusSnapshot = RestAnswer<'/api/upload-status/{id}', 'get'>;

/** GET /api/upload-status/{id} (SPEC §7), the fallback to the live subscription. */
export async function fetchUploadStatus(uploadId: string, signal?: AbortSignal): Promise<StatusSnapshot> {
  const { data, response } = await api.GET('/api/upload-status/{id}', { params: { path: { id: uploadId } }, signal });
  if (response.status === 401) notifyUnauthenticated('UploadRoute');
  if (!response.ok || !data) throw new Error(`upload-status ${response.status} ${response.statusText}`);
  return data;
}

/** A duration in words: '42 s', '3 min 5 s', '1 h 2 min'. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

export function modeLabel(mode: UploadMode | string): string {
  return mode === 'replace' ? 'Replace existing data' : 'Append to existing data';
}
