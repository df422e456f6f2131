// The streaming .xlsx reader (api/src/ingest/tables.ts): workbooks written by
// exceljs and by SheetJS, and hand-made ones for what those two do not write
// (inline strings, phonetic runs, namespace prefixes, a first sheet that is
// not sheet1.xml, damaged parts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import * as XLSX from 'xlsx';
import { openXlsx } from '../../src/ingest/tables.js';
import { IngestError } from '../../src/ingest/csv.js';
import { HEADERS, generateRows, writeXlsx } from '../../../scripts/gen-data.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-xlsx-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const file = (name: string) => path.join(tmp, `${n++}-${name}`);

async function readAll(f: string, batchRows = 2000) {
  const r = await openXlsx(f, batchRows);
  const rows: { row: number; fields: string[] }[] = [];
  const progress: number[] = [];
  for await (const b of r.batches) {
    rows.push(...b.records);
    progress.push(b.bytesRead);
  }
  return { header: r.header, rows, progress };
}

async function failure(f: string): Promise<IngestError> {
  try {
    await readAll(f);
  } catch (e) {
    expect(e).toBeInstanceOf(IngestError);
    return e as IngestError;
  }
  throw new Error('the workbook was read without an error');
}

/** A zip archive of the given parts (deflated unless stored), as Excel packages are. */
function zip(parts: Record<string, string | Buffer>, opts: { stored?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(parts)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
    const body = opts.stored ? data : zlib.deflateRawSync(data);
    const nameBuf = Buffer.from(name);
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(opts.stored ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(opts.stored ? 0 : 8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, body);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = Object.keys(parts).length;
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A minimal package: the workbook lists `sheets` in order, each a part under xl/ with its XML. */
function workbook(sheets: { name: string; part: string; xml: string }[], extra: Record<string, string | Buffer> = {}, wbPr = '') {
  return {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${REL}">${wbPr}<sheets>${sheets
      .map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
      .map((s, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="${s.part}"/>`)
      .join(
        '',
      )}${Object.keys(extra).includes('xl/sharedStrings.xml') ? `<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : ''}${
      Object.keys(extra).includes('xl/styles.xml') ? `<Relationship Id="rIdT" Type="${REL}/styles" Target="styles.xml"/>` : ''
    }</Relationships>`,
    ...Object.fromEntries(sheets.map((s) => [path.posix.join('xl', s.part), s.xml])),
    ...extra,
  };
}

const sheet = (rows: string, p = '') =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><${p}worksheet xmlns${p ? ':' + p.slice(0, -1) : ''}="${NS}"><${p}sheetData>${rows}</${p}sheetData></${p}worksheet>`;

describe('the .xlsx reader', () => {
  it('reads a workbook written by exceljs: shared strings, rich text, gaps, entities, multibyte text, numbers, a date, a formula, an empty row', async () => {
    const f = file('exceljs.xlsx');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Access Risk Analysis');
    ws.addRow(['User ID', 'Access Risk ID', 'System', 'Role/Profile', 'Execution Count', 'Last Executed On', 'Org Value']);
    ws.addRow([
      'U1 & <co> "quoted" \'a\'',
      { richText: [{ text: 'Bo', font: { bold: true } }, { text: 'ld' }] },
      'SAP ERP',
      'Z_ROLE',
      42,
      new Date(Date.UTC(2026, 2, 15)),
      0.5,
    ]);
    // Row 3 left empty; row 4 with cells left out (B, E, F) and a formula.
    ws.getCell('A4').value = 'Chloé 日本語 😀';
    ws.getCell('C4').value = { formula: 'A4&"x"', result: 'SAP x' } as ExcelJS.CellFormulaValue;
    ws.getCell('D4').value = true;
    ws.getCell('G4').value = 1234567;
    await wb.xlsx.writeFile(f);

    const { header, rows, progress } = await readAll(f);
    expect(header).toEqual(['User ID', 'Access Risk ID', 'System', 'Role/Profile', 'Execution Count', 'Last Executed On', 'Org Value']);
    expect(rows).toEqual([
      { row: 2, fields: ['U1 & <co> "quoted" \'a\'', 'Bold', 'SAP ERP', 'Z_ROLE', '42', '2026-03-15', '0.5'] },
      { row: 4, fields: ['Chloé 日本語 😀', '', 'SAP x', 'true', '', '', '1234567'] },
    ]);
    expect(progress.at(-1)).toBe(fs.statSync(f).size);
  });

  it('reads a workbook written by SheetJS, with its strings inline (t="str") or shared', async () => {
    const aoa = [
      ['User ID', 'Access Risk ID', 'Last Executed On', 'Execution Count', 'System'],
      ['U1 & <co>', 'é日本', new Date(Date.UTC(2026, 2, 15)), 42, 'SAP'],
      [],
      ['U2', null, null, 7.5, 'AD'],
    ];
    for (const bookSST of [false, true]) {
      const f = file(`sheetjs-${bookSST}.xlsx`);
      const ws = XLSX.utils.aoa_to_sheet(aoa, { cellDates: true });
      const wb = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(wb, ws, 'Data');
      fs.writeFileSync(f, XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', bookSST }) as Buffer);
      const { header, rows } = await readAll(f);
      expect(header).toEqual(aoa[0]);
      expect(rows).toEqual([
        { row: 2, fields: ['U1 & <co>', 'é日本', '2026-03-15', '42', 'SAP'] },
        { row: 4, fields: ['U2', '', '', '7.5', 'AD'] },
      ]);
    }
  });

  it('reads the generator’s workbook exactly as the rows it generated, in batches', async () => {
    const f = file('generated.xlsx');
    await writeXlsx(f, 1500, { seed: 5 });
    const { header, rows, progress } = await readAll(f, 400);
    expect(header).toEqual(HEADERS);
    expect(rows.map((r) => r.fields)).toEqual([...generateRows(1500, 5)]);
    expect(rows[0]!.row).toBe(2);
    expect(progress.length).toBeGreaterThan(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(progress.at(-1)).toBe(fs.statSync(f).size);
  });

  it('finds the first worksheet through the workbook, whatever its part is called, and reads inline strings, escapes and styles', async () => {
    const rows =
      `<row r="1"><c r="A1" t="inlineStr"><is><t>User ID</t></is></c><c r="B1" t="inlineStr"><is><t>System</t></is></c><c r="C1" t="inlineStr"><is><t>Role</t></is></c>` +
      `<c r="D1" t="inlineStr"><is><t>Last Executed On</t></is></c><c r="E1" t="inlineStr"><is><t>Value From</t></is></c></row>` +
      // Rich inline text with a phonetic run left out, xml:space, numeric character references, an _xHHHH_ escape, CDATA.
      `<row r="2"><c r="A2" t="inlineStr"><is><r><t xml:space="preserve">U </t></r><r><rPr><b/></rPr><t>1</t></r><rPh sb="0" eb="1"><t>ユー</t></rPh></is></c>` +
      `<c r="B2" t="inlineStr"><is><t>caf&#233; &#x1F600; a&amp;b</t></is></c><c r="C2" t="str"><f>"x"</f><v>line_x000D_two</v></c>` +
      `<c r="D2"><v>46096</v></c><c r="E2" s="1"><v>45000.75</v></c></row>` +
      // Cells and rows without r, an error cell, an empty row, a skipped row number.
      `<row><c t="inlineStr"><is><t><![CDATA[a<b]]></t></is></c><c t="e"><v>#N/A</v></c><c t="s"><v>0</v></c></row>` +
      `<row r="5"/><row r="9" spans="1:5"><c r="A9" t="b"><v>0</v></c><c r="C9" t="d"><v>2026-01-02T00:00:00Z</v></c><c r="D9"><v>20260115</v></c></row>`;
    const styles = `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${NS}"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy\\ hh:mm"/></numFmts><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>`;
    const sst = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${NS}" count="1" uniqueCount="1"><si><t>shared</t></si></sst>`;
    const f = file('named.xlsx');
    fs.writeFileSync(
      f,
      zip(
        workbook(
          [
            { name: 'Report', part: 'worksheets/report.xml', xml: sheet(rows) },
            { name: 'Other', part: 'worksheets/sheet1.xml', xml: sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>wrong sheet</t></is></c></row>') },
          ],
          { 'xl/styles.xml': styles, 'xl/sharedStrings.xml': sst },
        ),
      ),
    );
    const { header, rows: got } = await readAll(f);
    expect(header).toEqual(['User ID', 'System', 'Role', 'Last Executed On', 'Value From']);
    expect(got).toEqual([
      { row: 2, fields: ['U 1', 'café 😀 a&b', 'line\rtwo', '2026-03-15', '2023-03-15'] },
      { row: 3, fields: ['a<b', '', 'shared', '', ''] },
      { row: 9, fields: ['false', '', '2026-01-02', '20260115', ''] },
    ]);
  });

  it('reads a namespace prefix, a stored (not deflated) part, and dates of the 1904 system', async () => {
    const rows =
      `<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>User ID</x:t></x:is></x:c><x:c r="B1" t="inlineStr"><x:is><x:t>Last Executed On</x:t></x:is></x:c></x:row>` +
      `<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:t>U1</x:t></x:is></x:c><x:c r="B2"><x:v>44634</x:v></x:c></x:row>`;
    const f = file('prefixed.xlsx');
    fs.writeFileSync(f, zip(workbook([{ name: 'S', part: 'worksheets/s.xml', xml: sheet(rows, 'x:') }], {}, '<workbookPr date1904="1"/>'), { stored: true }));
    const { header, rows: got } = await readAll(f);
    expect(header).toEqual(['User ID', 'Last Executed On']);
    expect(got).toEqual([{ row: 2, fields: ['U1', '2026-03-15'] }]);
  });

  it("refuses a cell, a row's columns or a shared string over its budget, naming row, column and the limit", async () => {
    const head = `<row r="1"><c r="A1" t="inlineStr"><is><t>User ID</t></is></c><c r="B1" t="inlineStr"><is><t>System</t></is></c></row>`;
    const write = (name: string, rows: string, extra: Record<string, string> = {}) => {
      const f = file(name);
      fs.writeFileSync(f, zip(workbook([{ name: 'S', part: 'worksheets/sheet1.xml', xml: sheet(head + rows) }], extra)));
      return f;
    };
    const long = 'x'.repeat(40_000);
    expect(
      (await failure(write('cell.xlsx', `<row r="2"><c r="A2" t="inlineStr"><is><t>U1</t></is></c><c r="B2" t="inlineStr"><is><t>${long}</t></is></c></row>`)))
        .message,
    ).toBe("Row 2, column 2 ('System'): the value is longer than 32,767 characters, the most a cell may hold (as in Excel). The file was not loaded.");
    // A cell beyond column XFD (16,384) in a row above the header (read before the header's width is known).
    const wide = file('columns.xlsx');
    fs.writeFileSync(
      wide,
      zip(
        workbook([
          {
            name: 'S',
            part: 'worksheets/sheet1.xml',
            xml: sheet(`<row r="1"><c r="XFE1" t="inlineStr"><is><t>x</t></is></c></row>${head.replace(/r="(\w)1"/g, 'r="$12"').replace('r="1"', 'r="2"')}`),
          },
        ]),
      ),
    );
    expect((await failure(wide)).message).toBe('Row 1 has more than 16,384 columns, the most a row may have (as in Excel). The file was not loaded.');
    const sst = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${NS}"><si><t>a</t></si><si><t>${long}</t></si></sst>`;
    expect((await failure(write('shared.xlsx', '', { 'xl/sharedStrings.xml': sst }))).message).toBe(
      'This .xlsx file was not loaded: its shared string 2 is longer than 32,767 characters, the most a cell may hold (as in Excel). Export the report as CSV instead, or split it into smaller files.',
    );
  });

  it('keeps multibyte characters whole across chunk boundaries', async () => {
    // Several MB of XML, so the inflated stream arrives in many chunks.
    const values = Array.from({ length: 6000 }, (_, i) => `${'é日本語😀'.repeat((i % 7) + 1)} ${i}`);
    const rows =
      `<row r="1"><c r="A1" t="inlineStr"><is><t>User ID</t></is></c><c r="B1" t="inlineStr"><is><t>System</t></is></c></row>` +
      values
        .map(
          (v, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>${v}</t></is></c><c r="B${i + 2}" t="str"><v>${'ü'.repeat(i % 50)}x</v></c></row>`,
        )
        .join('');
    const f = file('multibyte.xlsx');
    fs.writeFileSync(f, zip(workbook([{ name: 'S', part: 'worksheets/sheet1.xml', xml: sheet(rows) }])));
    const { rows: got } = await readAll(f, 500);
    expect(got.length).toBe(values.length);
    got.forEach((r, i) => expect(r.fields).toEqual([values[i], `${'ü'.repeat(i % 50)}x`]));
  });

  describe('damaged workbooks fail with a clear message', () => {
    const good =
      `<row r="1"><c r="A1" t="inlineStr"><is><t>User ID</t></is></c><c r="B1" t="inlineStr"><is><t>System</t></is></c></row>` +
      Array.from(
        { length: 200 },
        (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>U${i}</t></is></c><c r="B${i + 2}" t="inlineStr"><is><t>SAP</t></is></c></row>`,
      ).join('');

    it('a worksheet whose XML stops in the middle (truncated)', async () => {
      const xml = sheet(good);
      const f = file('truncated.xlsx');
      fs.writeFileSync(f, zip(workbook([{ name: 'S', part: 'worksheets/sheet1.xml', xml: xml.slice(0, Math.floor(xml.length * 0.6)) }])));
      const e = await failure(f);
      expect(e.message).toMatch(/^This \.xlsx file is damaged: its worksheet 'S' ends (early|in the middle of row \d+).*truncated/);
    });

    it('a worksheet whose compressed data is corrupt', async () => {
      const parts = workbook([{ name: 'S', part: 'worksheets/sheet1.xml', xml: sheet(good) }]);
      const buf = zip(parts);
      // Overwrite the middle of the worksheet's deflated data.
      const at = buf.indexOf('xl/worksheets/sheet1.xml') + 'xl/worksheets/sheet1.xml'.length + 40;
      buf.fill(0xff, at, at + 64);
      const f = file('corrupt.xlsx');
      fs.writeFileSync(f, buf);
      const e = await failure(f);
      expect(e.message).toMatch(/^This \.xlsx file is damaged: its worksheet 'S' (cannot be decompressed|is shorter|inflates to more|is not valid UTF-8|ends)/);
    });

    it('a shared-string cell pointing past the shared strings', async () => {
      const f = file('sst.xlsx');
      const xml = sheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>User ID</t></is></c></row><row r="2"><c r="A2" t="s"><v>5</v></c></row>`);
      fs.writeFileSync(f, zip(workbook([{ name: 'S', part: 'worksheets/sheet1.xml', xml }])));
      expect((await failure(f)).message).toMatch(/refers to shared string 5, but the workbook has 0 \(row 2\)/);
    });

    it('values beyond the last header column, an empty sheet, no worksheet, not a zip', async () => {
      const wide = file('wide.xlsx');
      fs.writeFileSync(
        wide,
        zip(
          workbook([
            {
              name: 'S',
              part: 'worksheets/sheet1.xml',
              xml: sheet(good + `<row r="300"><c r="A300" t="str"><v>U</v></c><c r="D300" t="str"><v>extra</v></c></row>`),
            },
          ]),
        ),
      );
      expect((await failure(wide)).message).toBe('Row 300 has values beyond the last header column (2 columns).');

      const empty = file('empty.xlsx');
      fs.writeFileSync(empty, zip(workbook([{ name: 'S', part: 'worksheets/sheet1.xml', xml: sheet('<row r="1"/>') }])));
      expect((await failure(empty)).message).toBe('The first worksheet is empty.');

      const none = file('none.xlsx');
      fs.writeFileSync(none, zip({ 'docProps/app.xml': '<x/>' }));
      expect((await failure(none)).message).toBe('The workbook has no worksheet.');

      const text = file('text.xlsx');
      fs.writeFileSync(text, 'User ID,System\nU1,SAP\n');
      expect((await failure(text)).message).toMatch(/^This \.xlsx file is not a valid Excel workbook \(it is not a zip archive\)/);
    });
  });
});
