/**
 * Fetches a CSV with the session cookie and saves it under the file name the
 * server gives (timestamped), else `fallbackName`. Rejects with the server's
 * message on a non-OK response.
 */
export async function downloadCsv(url: string, fallbackName: string): Promise<void> {
  return downloadFile(url, fallbackName);
}

/**
 * Fetches a file with the session cookie and saves it as downloadCsv does;
 * `onProgress` hears the bytes received so far as they arrive (a streamed
 * export has no known length), for a long download's progress.
 */
export async function downloadFile(url: string, fallbackName: string, onProgress?: (bytes: number) => void): Promise<void> {
  const response = await fetch(url, { credentials: 'include' });
  if (!response.ok) {
    let message = response.statusText || 'Unknown error';
    try {
      const body = (await response.json()) as { message?: string };
      if (body.message) message = body.message;
    } catch {
      /* not JSON */
    }
    throw new Error(message);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallbackName;
  let blob: Blob;
  if (onProgress && response.body) {
    const parts: Uint8Array[] = [];
    let bytes = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      bytes += value.length;
      onProgress(bytes);
    }
    blob = new Blob(parts as BlobPart[], { type: response.headers.get('content-type') ?? 'application/octet-stream' });
  } else blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** A timestamp for file names: 2024-05-01T10-20-30. */
export function fileStamp(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace(/:/g, '-');
}
