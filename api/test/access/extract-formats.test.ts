// An extract's tables load as SAP users download them, told apart without
// being told: CSV, SE16's 'unconverted' list and the spreadsheet (XLSX)
// download, under any case of name, with or without .csv/.txt/.xlsx. Each
// gives the same analysis as the CSV of the same tables, and a bad value in
// any of them names the table, line (the header is line 1) and column.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, rowText, type Engine } from './support/helpers.js';
import { PAY_ROLE, POST_ROLE, assign, estate, pairRules, user } from './support/fixtures.js';
import { filesZip, se16List, xlsxTable } from './support/formats.js';
import { loadExtract, startExtract } from '../../src/services/access/extracts.js';
import type { Estate } from '../../../scripts/access-estate.js';

let e: Engine;
let ruleSetId: string;
beforeAll(async () => {
  e = await engine();
  ruleSetId = (await e.ruleSet(pairRules(), 'Formats')).id;
});
afterAll(async () => e?.close());

/** ALICE holds R1 (Z_PAY through the composite Z_COMP) and ran both actions; BOB is locked, CARL expired. */
const TABLES: Estate = estate({
  USR02: [user('ALICE'), user('BOB', { UFLAG: '64' }), user('CARL', { GLTGV: '20200101', GLTGB: '20251231' })],
  USER_ADDR: [{ BNAME: 'ALICE', NAME_FIRST: 'Alice', NAME_LAST: 'Smith' }],
  AGR_USERS: [
    assign('ALICE', 'Z_POST'),
    assign('ALICE', 'Z_COMP'),
    assign('ALICE', 'Z_PAY', { COL_FLAG: 'X' }),
    assign('BOB', 'Z_POST'),
    assign('BOB', 'Z_PAY'),
    assign('CARL', 'Z_POST'),
    assign('CARL', 'Z_PAY'),
  ],
  AGR_AGRS: [{ AGR_NAME: 'Z_COMP', CHILD_AGR: 'Z_PAY' }],
  AGR_1251: [...POST_ROLE, ...PAY_ROLE],
  AGR_TEXTS: [{ AGR_NAME: 'Z_POST', TEXT: 'Post documents' }],
  USAGE: [
    { BNAME: 'ALICE', TCODE: 'FB01', COUNT: '1234', LAST_USED: '20260601' },
    { BNAME: 'ALICE', TCODE: 'F-53', COUNT: '3', LAST_USED: '00000000' },
  ],
});

/** Loads a .zip as an extract of `system`: the extract's row after its load. */
async function load(system: string, zip: Buffer) {
  const { id } = await startExtract(e.caller, system, await e.receive(zip, `${system}.zip`));
  await loadExtract(e.deps, id);
  return e.deps.prisma.accessExtract.findUniqueOrThrow({ where: { id } });
}

/** The rows of a run of `system` with the system's name left out, and its conflicts. */
async function analysed(system: string) {
  const { run, rows, conflicts } = await e.analyse(ruleSetId, '2026-06-30', [system]);
  expect(run.errorMessage).toBeNull();
  return {
    rows: rows.map((r) => `${rowText({ ...r, system: '-' })} ${r.executionCount ?? ''}`),
    conflicts: conflicts.map((c) => `${c.userId} ${c.riskId} ${c.exercised ? 'exercised' : 'latent'}`),
  };
}

let baseline: Awaited<ReturnType<typeof analysed>>;
beforeAll(async () => {
  expect((await e.extract('CSV', TABLES)).status).toBe('completed');
  baseline = await analysed('CSV');
  expect(baseline.conflicts).toEqual(['ALICE R1 exercised']);
  expect(baseline.rows.some((r) => r.endsWith(' 1234'))).toBe(true);
});

describe('an extract loads', () => {
  it("SE16's unconverted lists: title lines, ruled lines, padded '|' cells, a page break, thousands in counts, names in any case", async () => {
    const names: Record<string, string> = {
      USR02: 'USR02',
      USER_ADDR: 'user_addr.txt',
      AGR_USERS: 'Agr_Users.TXT',
      AGR_AGRS: 'agr_agrs',
      AGR_1251: 'se16/AGR_1251.txt',
      AGR_TEXTS: 'AGR_TEXTS.TXT',
      USAGE: 'usage',
    };
    const files = Object.fromEntries(
      Object.entries(TABLES).map(([t, rows]) => {
        // Counts as lists print them, with a thousands separator.
        const shown = t === 'USAGE' ? rows.map((r) => ({ ...r, COUNT: r.COUNT === '1234' ? '1.234' : r.COUNT! })) : rows;
        return [names[t]!, se16List(t, shown, { pageBreakAfter: t === 'AGR_USERS' ? 3 : undefined, innerRule: t === 'AGR_1251' })];
      }),
    );
    const x = await load('SE16', await filesZip(files));
    expect(x).toMatchObject({ status: 'completed', errorMessage: null, users: 3, assignments: 7 });
    expect(await analysed('SE16')).toEqual(baseline);
  });

  it("an SE16 list saved as UTF-16 (SAP GUI's Unicode download) with names beyond Latin-1", async () => {
    const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const files = Object.fromEntries(
      Object.entries(TABLES).map(([t, rows]) => [
        `${t}.txt`,
        utf16(se16List(t, t === 'USER_ADDR' ? [{ BNAME: 'ALICE', NAME_FIRST: 'Zoë', NAME_LAST: 'Łukasiewicz' }] : rows)),
      ]),
    );
    const x = await load('UTF16', await filesZip(files));
    expect(x).toMatchObject({ status: 'completed', errorMessage: null, users: 3, assignments: 7 });
    expect(await e.db.sql.query('SELECT name_first, name_last FROM access_x_user_addr WHERE extract_id = $1', [x.id])).toEqual([
      { name_first: 'Zoë', name_last: 'Łukasiewicz' },
    ]);
    expect(await analysed('UTF16')).toEqual(baseline);
  });

  it('spreadsheet downloads: dates as date cells, initial dates empty or as lists print them, numbers as numbers, with or without .xlsx', async () => {
    const files: Record<string, Buffer> = {};
    for (const [t, rows] of Object.entries(TABLES)) {
      // An initial date as a list prints it (text, not a date cell).
      const shown = t === 'USAGE' ? rows.map((r) => ({ ...r, LAST_USED: r.LAST_USED === '00000000' ? '00.00.0000' : r.LAST_USED! })) : rows;
      files[t === 'AGR_1251' ? 'agr_1251' : `${t}.XLSX`] = await xlsxTable(t, shown);
    }
    const x = await load('XLSX', await filesZip(files));
    expect(x).toMatchObject({ status: 'completed', errorMessage: null, users: 3, assignments: 7 });
    expect(await analysed('XLSX')).toEqual(baseline);
  });

  it('a bad value in an SE16 list or a spreadsheet as failed, naming the table, line (header = line 1) and column', async () => {
    const usage = [...TABLES.USAGE!, { BNAME: 'BOB', TCODE: 'FB01', COUNT: 'many', LAST_USED: '20260601' }];
    const list = await load(
      'BADLIST',
      await filesZip({
        ...Object.fromEntries(Object.entries(TABLES).map(([t, rows]) => [`${t}.txt`, se16List(t, rows)])),
        'USAGE.txt': se16List('USAGE', usage),
      }),
    );
    expect(list).toMatchObject({ status: 'failed', errorMessage: "USAGE.txt, line 4, column 'COUNT': 'many' is not a whole number." });

    const users = [...TABLES.USR02!, user('DORA', { GLTGB: '31.02.2027' })];
    const files: Record<string, Buffer> = {};
    for (const [t, rows] of Object.entries(TABLES)) files[`${t}.xlsx`] = await xlsxTable(t, t === 'USR02' ? users : rows);
    const sheet = await load('BADSHEET', await filesZip(files));
    expect(sheet.status).toBe('failed');
    expect(sheet.errorMessage).toMatch(/^USR02\.xlsx, line 5, column 'GLTGB': '31\.02\.2027' is not a date/);
    for (const t of ['access_x_usr02', 'access_x_usage']) {
      expect(await e.db.sql.query(`SELECT 1 FROM ${t} WHERE extract_id IN ($1, $2)`, [list.id, sheet.id])).toEqual([]);
    }
  });
});
