// Reading the CSV files the server writes (exports, reports, evidence) in tests.

/** A CSV as rows of cells (the files here hold no quoted line breaks). */
export function parseCsv(text: string): Record<string, string>[] {
  const cells = (line: string) => {
    const out = [''];
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (ch === '"' && quoted && line[i + 1] === '"') {
        out[out.length - 1] += '"';
        i++;
      } else if (ch === '"') quoted = !quoted;
      else if (ch === ',' && !quoted) out.push('');
      else out[out.length - 1] += ch;
    }
    return out;
  };
  const [head, ...lines] = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  const names = cells(head!);
  return lines.map((l) => Object.fromEntries(cells(l).map((v, i) => [names[i], v])));
}
