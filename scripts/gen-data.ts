// Deterministic generator of realistic Access Risk Analysis exports (permission
// level, 35 columns as SAP GRC writes them): thousands of users, hundreds of
// risks, rule ids 0101-0399, composite roles, usage columns.
//   npm run gen:data -- --rows 100000 --format csv|xlsx [--out file] [--seed 1] [--delimiter ;|tab]
//                       [--shared-strings true] (xlsx: strings in a shared-strings part, as Excel writes them)
import fs from 'node:fs';
import path from 'node:path';
import { EXPORT_FIELDS } from '../api/src/ingest/columns.js';
import { arg } from './cli.js';

export const HEADERS = EXPORT_FIELDS.map((f) => f.header);

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Anna',
  'Ben',
  'Chloé',
  'David',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Inès',
  'Jonas',
  'Karin',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Paul',
  'Rosa',
  'Sven',
  'Tara',
  'Yusuf',
];
const LAST = ['Martin', 'Schmidt', 'Dubois', 'Rossi', 'García', 'Nowak', 'Smith', 'Jensen', 'Müller', 'Lefèvre', 'Khan', 'Novak', "O'Brien", 'Silva', 'Berg'];
const GROUPS = ['FIN', 'HR', 'IT', 'PROC', 'SALES', 'LOG', 'AUDIT', 'TREAS'];
const SYSTEMS = ['SAP ERP', 'SAP ERP', 'SAP ERP', 'Workday', 'Active Directory'];
const LEVELS = ['Critical', 'High', 'High', 'Medium', 'Medium', 'Low'];
const PROCESSES = [
  ['FI', 'Finance'],
  ['MM', 'Materials Management'],
  ['SD', 'Sales and Distribution'],
  ['HR', 'Human Resources'],
  ['BS', 'Basis'],
];
const ACTIONS = [
  ['FB60', 'Enter Incoming Invoices'],
  ['XK01', 'Create Vendor'],
  ['ME21N', 'Create Purchase Order'],
  ['F110', 'Payment Run'],
  ['PA30', 'Maintain HR Master Data'],
  ['SU01', 'User Maintenance'],
  ['VA01', 'Create Sales Order'],
  ['FK02', 'Change Vendor'],
];
const FUNCTIONS = [
  ['AP01', 'AP Payments'],
  ['VM01', 'Vendor Master Maintenance'],
  ['PO01', 'Purchasing'],
  ['HR01', 'HR Master Data'],
  ['BS01', 'User Administration'],
  ['SD01', 'Sales Order Processing'],
];

export function* generateRows(rows: number, seed = 1): Generator<string[]> {
  const r = rng(seed);
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)]!;
  const users = Math.max(10, Math.round(rows / 150));
  const risks = Math.max(5, Math.min(400, Math.round(rows / 2500)));
  for (let i = 0; i < rows; i++) {
    const u = Math.floor(r() * users);
    const riskNo = Math.floor(r() * risks);
    const rule = `0${1 + Math.floor(r() * 3)}${String(1 + Math.floor(r() * 99)).padStart(2, '0')}`;
    const proc = PROCESSES[riskNo % PROCESSES.length]!;
    const act = pick(ACTIONS);
    const fn = pick(FUNCTIONS);
    const role = `Z_${proc[0]}_${['CLERK', 'MGR', 'ADMIN', 'DISPLAY', 'MAINT'][Math.floor(r() * 5)]}_${String(u % 40).padStart(2, '0')}`;
    const composite = r() < 0.7 ? `ZC_${GROUPS[u % GROUPS.length]}_${String(u % 25).padStart(2, '0')}` : '';
    const mitigated = r() < 0.05;
    const used = r() < 0.8;
    const day = new Date(Date.UTC(2026, 0, 1) + Math.floor(r() * 300) * 86400000).toISOString().slice(0, 10);
    yield [
      `U${String(u).padStart(6, '0')}`,
      `${FIRST[u % FIRST.length]} ${LAST[(u * 7) % LAST.length]}`,
      GROUPS[u % GROUPS.length]!,
      `${proc[0]}${String(riskNo).padStart(3, '0')}`,
      `${proc[1]}: conflicting access ${riskNo} (${act[1]} vs ${fn[1]})`,
      LEVELS[riskNo % LEVELS.length]!,
      riskNo % 3 ? 'Segregation of Duties' : 'Critical Action',
      rule,
      `ORG${rule}`,
      r() < 0.5 ? 'Company Code' : '',
      r() < 0.5 ? String(1000 + (u % 9) * 100) : '',
      proc[0]!,
      proc[1]!,
      fn[0]!,
      fn[1]!,
      pick(SYSTEMS),
      act[0]!,
      act[1]!,
      `S_TCODE`,
      'Transaction Code Check',
      act[0]!,
      act[1]!,
      act[0]!,
      '',
      role,
      `${proc[1]} role ${role}`,
      composite,
      composite ? `Composite role for ${GROUPS[u % GROUPS.length]}, "standard" access` : '',
      mitigated ? `MC${String(riskNo).padStart(4, '0')}` : '',
      mitigated ? 'Monthly review of vendor changes, signed off' : '',
      mitigated ? `M${u % 50}` : '',
      mitigated ? 'Controller, Finance' : '',
      `Risk ${riskNo}, line ${i}`,
      used ? String(Math.floor(r() * 5000)) : '0',
      used ? day : '',
    ];
  }
}

function csvField(v: string, d: string): string {
  return v.includes('"') || v.includes(d) || v.includes('\n') || v.includes('\r') ? `"${v.replace(/"/g, '""')}"` : v;
}

export function writeCsv(file: string, rows: number, opts: { seed?: number; delimiter?: string } = {}) {
  const d = opts.delimiter ?? ',';
  const fd = fs.openSync(file, 'w');
  let buf = HEADERS.map((h) => csvField(h, d)).join(d) + '\r\n';
  for (const row of generateRows(rows, opts.seed ?? 1)) {
    buf += row.map((v) => csvField(v, d)).join(d) + '\r\n';
    if (buf.length > 1 << 20) {
      fs.writeSync(fd, buf);
      buf = '';
    }
  }
  fs.writeSync(fd, buf);
  fs.closeSync(fd);
}

/**
 * An .xlsx written as a stream (exceljs), so the generator handles millions of
 * rows. Strings are written in the cells (t="str") unless sharedStrings is set,
 * which writes them as Excel itself does (a shared-strings part).
 */
export async function writeXlsx(file: string, rows: number, opts: { seed?: number; sharedStrings?: boolean } = {}) {
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: opts.sharedStrings ?? false, useStyles: false });
  const ws = wb.addWorksheet('Access Risk Analysis');
  ws.addRow(HEADERS).commit();
  for (const row of generateRows(rows, opts.seed ?? 1)) {
    const values: (string | number)[] = row.map((v, i) => (i === 33 && v !== '' ? Number(v) : v));
    ws.addRow(values).commit();
  }
  ws.commit();
  await wb.commit();
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const rows = Number(arg('rows', '10000'));
  const format = arg('format', 'csv');
  if (format !== 'csv' && format !== 'xlsx') {
    console.error(`format ${format}: use csv or xlsx`);
    process.exit(2);
  }
  const out = arg('out', `data/generated-${rows}.${format}`);
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  const t = Date.now();
  if (format === 'xlsx') await writeXlsx(out, rows, { seed: Number(arg('seed', '1')), sharedStrings: arg('shared-strings', 'false') === 'true' });
  else writeCsv(out, rows, { seed: Number(arg('seed', '1')), delimiter: arg('delimiter', ',') === 'tab' ? '\t' : arg('delimiter', ',') });
  console.log(`wrote ${rows} rows to ${out} (${(fs.statSync(out).size / 1e6).toFixed(1)} MB) in ${Date.now() - t} ms`);
}
