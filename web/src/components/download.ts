/**
 * Fetches a CSV with the session cookie and saves it under the file name the
 * server gives (timestamped), else `fallbackName`. Rejects with the server's
 * message on a non-OK response.
 */
export async function downloadCsv(url: string, fallbackName: string): Promise<void> {
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
  const blob = await response.blob();
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
