// SAP access estates and rule sets as data: hand-made ones for the engine's
// tests, generated ones (a seeded PRNG, so a size always gives the same
// estate) for the oracle test and the analysis benchmark. Tables are lists of
// rows by SAP column name (rule set files by their CSV column names), and
// are written as a .zip of CSV files the way the product reads them.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import JSZip from 'jszip';
import { rng } from './gen-data.js';

export type Row = Record<string, string>;
/** A system's SAP tables by name (USR02, USER_ADDR, AGR_USERS, AGR_AGRS, AGR_1251, AGR_TEXTS, USAGE). */
export type Estate = Record<string, Row[]>;
/** A rule set's files by name (risks, risk_functions, functions, function_actions, function_permissions, business_processes). */
export type RuleSetFiles = Record<string, Row[]>;

/** The columns of each table, in file order (a table's rows may leave columns out: empty). */
export const ESTATE_COLUMNS: Record<string, string[]> = {
  USR02: ['MANDT', 'BNAME', 'CLASS', 'USTYP', 'UFLAG', 'GLTGV', 'GLTGB'],
  USER_ADDR: ['BNAME', 'NAME_FIRST', 'NAME_LAST'],
  AGR_USERS: ['AGR_NAME', 'UNAME', 'FROM_DAT', 'TO_DAT', 'COL_FLAG'],
  AGR_AGRS: ['AGR_NAME', 'CHILD_AGR'],
  AGR_1251: ['AGR_NAME', 'OBJECT', 'AUTH', 'FIELD', 'LOW', 'HIGH', 'DELETED'],
  AGR_TEXTS: ['AGR_NAME', 'TEXT'],
  USAGE: ['BNAME', 'TCODE', 'COUNT', 'LAST_USED'],
  risks: ['Access Risk ID', 'Risk Description', 'Risk Level', 'Risk Type', 'Business Process', 'Status'],
  risk_functions: ['Access Risk ID', 'Function ID'],
  functions: ['Function ID', 'Function Description', 'Business Process', 'Analysis Scope'],
  function_actions: ['Function ID', 'System', 'Action', 'Action Description', 'Status'],
  function_permissions: ['Function ID', 'System', 'Action', 'Auth Object', 'Field', 'Value From', 'Value To', 'Status'],
  business_processes: ['Business Process', 'Description'],
};

export interface ZipOptions {
  delimiter?: ',' | ';' | '\t';
  /** File names as written (default: the table name + '.csv'). */
  fileName?: (table: string) => string;
}

function cell(v: string, d: string): string {
  return v.includes('"') || v.includes(d) || /[\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** A table as CSV text: header first, then its rows. */
export function tableCsv(table: string, rows: Row[], d = ','): string {
  const cols = ESTATE_COLUMNS[table] ?? Object.keys(rows[0] ?? {});
  return [cols.map((c) => cell(c, d)).join(d), ...rows.map((r) => cols.map((c) => cell(r[c] ?? '', d)).join(d))].join('\r\n') + '\r\n';
}

/** Tables as a .zip of CSV files. */
export async function tablesZip(tables: Record<string, Row[] | string>, opts: ZipOptions = {}): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, rows] of Object.entries(tables)) {
    zip.file(opts.fileName ? opts.fileName(name) : `${name}.csv`, typeof rows === 'string' ? rows : tableCsv(name, rows, opts.delimiter));
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** An empty estate (every table present, no rows). */
export function emptyEstate(): Estate {
  return { USR02: [], USER_ADDR: [], AGR_USERS: [], AGR_AGRS: [], AGR_1251: [], AGR_TEXTS: [], USAGE: [] };
}

/** A deterministic PRNG: the export generator's (mulberry32). */
export const prng = rng;

const pad = (n: number, w: number) => String(n).padStart(w, '0');

export interface GeneratedOptions {
  users: number;
  /** Transactions the rule set's actions are drawn from (default: T000..T199 and a few real ones). */
  codes?: string[];
  seed?: number;
  /** Single roles per system. */
  singles?: number;
  composites?: number;
  functions?: number;
  risks?: number;
  systems?: string[];
}

/** Transactions: T000..T199 and a few real ones whose code point order matters ('F-53' < 'F0'). */
function tcodes(): string[] {
  const t = ['F-53', 'F0', 'F00', 'FB01', 'FB60', 'ME21N', 'ME29N', 'MIGO', 'XK01', 'XK02'];
  for (let i = 0; i < 200; i++) t.push(`T${pad(i, 3)}`);
  return t;
}

/** A generated rule set: S risks of 2-3 functions (some Cross), A risks of one; actions with and without permissions. */
export function generateRuleSet(o: GeneratedOptions): RuleSetFiles {
  const rnd = prng((o.seed ?? 1) * 7919);
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
  const codes = o.codes ?? tcodes();
  const systems = o.systems ?? ['PRD', 'QAS'];
  const nf = o.functions ?? 60;
  const nr = o.risks ?? 40;
  const files: RuleSetFiles = { risks: [], risk_functions: [], functions: [], function_actions: [], function_permissions: [], business_processes: [] };
  files.business_processes!.push({ 'Business Process': 'FI', Description: 'Finance' }, { 'Business Process': 'MM', Description: 'Materials' });
  for (let f = 0; f < nf; f++) {
    const id = `F${pad(f, 3)}`;
    files.functions!.push({
      'Function ID': id,
      'Function Description': `Function ${f}`,
      'Business Process': f % 2 ? 'FI' : 'MM',
      'Analysis Scope': rnd() < 0.2 ? 'Cross' : 'Single',
    });
    const actions = new Set<string>();
    const n = 1 + Math.floor(rnd() * 3);
    while (actions.size < n) actions.add(pick(codes));
    for (const a of actions) {
      const system = rnd() < 0.15 ? pick(systems) : '';
      files.function_actions!.push({
        'Function ID': id,
        System: system,
        Action: a,
        'Action Description': `Run ${a}`,
        Status: rnd() < 0.08 ? 'Disabled' : 'Enabled',
      });
      if (rnd() < 0.5) {
        const seen = new Set<string>();
        const perm = (object: string, field: string, from: string, to = '', status = 'Enabled') => {
          const row = {
            'Function ID': id,
            System: rnd() < 0.1 ? pick(systems) : '',
            Action: a,
            'Auth Object': object,
            Field: field,
            'Value From': from,
            'Value To': to,
            Status: status,
          };
          const key = JSON.stringify([row.System, object, field, from, to]);
          if (!seen.has(key)) files.function_permissions!.push(row);
          seen.add(key);
        };
        const kind = rnd();
        if (kind < 0.3) perm('F_BKPF_BUK', 'BUKRS', pick(['1000', '2000', '3000']));
        else if (kind < 0.6) perm('F_BKPF_BUK', 'BUKRS', pick(['1000', '2500']), pick(['1999', '2999']));
        else perm('F_BKPF_BUK', 'BUKRS', '*');
        perm('F_BKPF_BUK', 'ACTVT', pick(['01', '02']));
        if (rnd() < 0.3) perm('F_BKPF_BUK', 'ACTVT', pick(['01', '02', '03']));
        if (rnd() < 0.3) perm('M_BEST_EKO', 'EKORG', pick(['1000', '2000']), rnd() < 0.5 ? '' : '2999');
        if (rnd() < 0.1) perm('M_BEST_EKO', 'ACTVT', '01', '', 'Disabled');
      }
    }
  }
  for (let r = 0; r < nr; r++) {
    const id = `R${pad(r, 3)}`;
    const type = r % 8 === 7 ? 'A' : 'S';
    files.risks!.push({
      'Access Risk ID': id,
      'Risk Description': `Risk ${r}`,
      'Risk Level': pick(['Critical', 'High', 'Medium', 'Low']),
      'Risk Type': type,
      'Business Process': 'FI',
      Status: rnd() < 0.1 ? 'Disabled' : 'Enabled',
    });
    const fns = new Set<string>();
    const n = type === 'A' ? 1 : 2 + Math.floor(rnd() * 2);
    while (fns.size < n) fns.add(`F${pad(Math.floor(rnd() * nf), 3)}`);
    for (const f of fns) files.risk_functions!.push({ 'Access Risk ID': id, 'Function ID': f });
  }
  return files;
}

/** A date as SAP writes it, `days` from 2026-01-01. */
function sapDay(days: number): string {
  return new Date(Date.UTC(2026, 0, 1) + days * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
}

/**
 * A generated estate of one system: single roles granting transactions
 * (exact, prefixes, ranges, now and then '*') and org levels split over
 * several authorizations, composites (some with their own AGR_1251 rows and
 * SAP's COL_FLAG copies), users with validity dates and locks, assignments
 * with dates, deleted authorization rows and usage. Analysed on 2026-06-30,
 * some dates lie on either side.
 */
export function generateEstate(system: string, o: GeneratedOptions): Estate {
  const rnd = prng((o.seed ?? 1) * 104729 + system.length * 31 + system.charCodeAt(0));
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
  const codes = tcodes();
  const e = emptyEstate();
  const ns = o.singles ?? 120;
  const nc = o.composites ?? 25;
  const day = (lo: number, hi: number) => sapDay(lo + Math.floor(rnd() * (hi - lo)));
  const date = () => (rnd() < 0.6 ? '00000000' : rnd() < 0.5 ? '' : day(-400, 500));
  for (let s = 0; s < ns; s++) {
    const role = `Z_S${pad(s, 4)}`;
    e.AGR_TEXTS!.push({ AGR_NAME: role, TEXT: `Single role ${s}` });
    const grants = 1 + Math.floor(rnd() * 4);
    for (let g = 0; g < grants; g++) {
      const k = rnd();
      const [low, high] =
        k < 0.7 ? [pick(codes), ''] : k < 0.82 ? [`${pick(['T0', 'T1', 'F', 'ME', 'X'])}*`, ''] : k < 0.97 ? [pick(codes), pick(codes)] : ['*', ''];
      e.AGR_1251!.push({ AGR_NAME: role, OBJECT: 'S_TCODE', AUTH: 'T-1', FIELD: 'TCD', LOW: low, HIGH: high, DELETED: rnd() < 0.03 ? 'X' : '' });
    }
    const auths = Math.floor(rnd() * 3);
    for (let a = 0; a < auths; a++) {
      const obj = rnd() < 0.7 ? 'F_BKPF_BUK' : 'M_BEST_EKO';
      const auth = `${obj.slice(0, 6)}${pad(a, 2)}`;
      const orgField = obj === 'F_BKPF_BUK' ? 'BUKRS' : 'EKORG';
      const k = rnd();
      const [low, high] =
        k < 0.5
          ? [pick(['1000', '1500', '2000', '2600', '3000']), '']
          : k < 0.7
            ? [`${pick(['1', '2', '25'])}*`, '']
            : k < 0.9
              ? [pick(['1000', '2000']), pick(['1999', '2999', '3500'])]
              : ['*', ''];
      e.AGR_1251!.push({ AGR_NAME: role, OBJECT: obj, AUTH: auth, FIELD: orgField, LOW: low, HIGH: high, DELETED: '' });
      if (rnd() < 0.3) e.AGR_1251!.push({ AGR_NAME: role, OBJECT: obj, AUTH: auth, FIELD: orgField, LOW: pick(['1200', '2400']), HIGH: '', DELETED: '' });
      // Sometimes the activity is missing from this authorization (the object's fields then meet only across two).
      if (rnd() < 0.85)
        e.AGR_1251!.push({ AGR_NAME: role, OBJECT: obj, AUTH: auth, FIELD: 'ACTVT', LOW: pick(['01', '02', '03', '*', '0*']), HIGH: '', DELETED: '' });
    }
  }
  for (let c = 0; c < nc; c++) {
    const comp = `Z_C${pad(c, 3)}`;
    e.AGR_TEXTS!.push({ AGR_NAME: comp, TEXT: `Composite ${c}` });
    const children = new Set<number>();
    const n = 2 + Math.floor(rnd() * 5);
    while (children.size < n) children.add(Math.floor(rnd() * ns));
    for (const k of children) e.AGR_AGRS!.push({ AGR_NAME: comp, CHILD_AGR: `Z_S${pad(k, 4)}` });
    // A composite's own authorizations are ignored.
    if (rnd() < 0.2) e.AGR_1251!.push({ AGR_NAME: comp, OBJECT: 'S_TCODE', AUTH: 'T-9', FIELD: 'TCD', LOW: '*', HIGH: '', DELETED: '' });
  }
  for (let u = 0; u < o.users; u++) {
    const user = `U${pad(u, 6)}`;
    const locked = rnd() < 0.05;
    e.USR02!.push({
      MANDT: '100',
      BNAME: user,
      CLASS: pick(['FIN', 'MM', 'IT', '']),
      USTYP: pick(['A', 'A', 'A', 'B', 'S']),
      UFLAG: locked ? pick(['32', '64', '128']) : '0',
      GLTGV: rnd() < 0.9 ? '00000000' : day(-300, 300),
      GLTGB: rnd() < 0.8 ? '99991231' : day(-200, 500),
    });
    if (rnd() < 0.9) e.USER_ADDR!.push({ BNAME: user, NAME_FIRST: `First${u}`, NAME_LAST: `Last${u}` });
    const n = 2 + Math.floor(rnd() * 6);
    for (let k = 0; k < n; k++) {
      const composite = rnd() < 0.4;
      const role = composite ? `Z_C${pad(Math.floor(rnd() * nc), 3)}` : `Z_S${pad(Math.floor(rnd() * ns), 4)}`;
      e.AGR_USERS!.push({ AGR_NAME: role, UNAME: user, FROM_DAT: date(), TO_DAT: rnd() < 0.85 ? '99991231' : day(-300, 400), COL_FLAG: '' });
      if (composite && rnd() < 0.5) {
        // SAP's copies of the composite's single roles: not assignments of their own.
        const child = e.AGR_AGRS!.find((a) => a.AGR_NAME === role);
        if (child) e.AGR_USERS!.push({ AGR_NAME: child.CHILD_AGR!, UNAME: user, FROM_DAT: '00000000', TO_DAT: '99991231', COL_FLAG: 'X' });
      }
    }
    // A few users on the list of AGR_USERS only (not in USR02): ignored.
    if (u % 97 === 0) e.AGR_USERS!.push({ AGR_NAME: `Z_S${pad(0, 4)}`, UNAME: `GHOST${u}`, FROM_DAT: '', TO_DAT: '', COL_FLAG: '' });
    const used = Math.floor(rnd() * 4);
    for (let k = 0; k < used; k++)
      e.USAGE!.push({ BNAME: user, TCODE: pick(codes), COUNT: String(rnd() < 0.2 ? 0 : 1 + Math.floor(rnd() * 50)), LAST_USED: day(-100, 180) });
  }
  return e;
}

/** The large estates' transactions: the small set and 3,800 more, in 40 areas of about 100. */
export function largeCodes(): string[] {
  return [...tcodes(), ...Array.from({ length: 3800 }, (_, i) => `Y${pad(i, 4)}`)];
}

/** A CSV file written as it is generated, in 1 MB chunks (bounded memory at any size). */
class CsvFile {
  private chunk: string[] = [];
  private size = 0;
  rows = 0;
  private readonly out: fs.WriteStream;
  constructor(
    readonly file: string,
    private readonly cols: string[],
  ) {
    this.out = fs.createWriteStream(file);
    this.out.write(cols.join(',') + '\r\n');
  }
  async add(r: Row): Promise<void> {
    const line = this.cols.map((c) => cell(r[c] ?? '', ',')).join(',') + '\r\n';
    this.chunk.push(line);
    this.size += line.length;
    this.rows++;
    if (this.size > 1 << 20) await this.flush();
  }
  private async flush(): Promise<void> {
    const text = this.chunk.join('');
    this.chunk = [];
    this.size = 0;
    if (!this.out.write(text)) await new Promise<void>((r) => this.out.once('drain', () => r()));
  }
  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => this.out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  }
}

export interface LargeOptions {
  users: number;
  seed?: number;
  /** Role assignments (AGR_USERS rows); default 20 a user. */
  assignments?: number;
  /** AGR_1251 rows; default 80 a user. */
  authRows?: number;
}

/**
 * A large estate of one system written to `dir` as one CSV per table, row by
 * row: single roles of one of 40 areas of transactions (S_TCODE exact values,
 * now and then a prefix, a range or '*'), org levels of the rule set's
 * objects (values, prefixes, ranges, '*'), and many rows of objects no rule
 * reads, as real roles carry; composites of 3-8 single roles of one or two
 * areas; users of two job areas with validity dates, locks, names and usage.
 * Returns each table's file and row count.
 */
export async function writeLargeEstate(system: string, dir: string, o: LargeOptions): Promise<Record<string, { file: string; rows: number }>> {
  fs.mkdirSync(dir, { recursive: true });
  const rnd = prng((o.seed ?? 1) * 104729 + system.length * 31 + system.charCodeAt(0));
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const codes = largeCodes();
  const areas = 40;
  const areaCodes = (a: number) => codes.slice(Math.floor((a * codes.length) / areas), Math.floor(((a + 1) * codes.length) / areas));
  const nAssign = o.assignments ?? o.users * 20;
  const nAuth = o.authRows ?? o.users * 80;
  const ns = Math.max(areas * 2, Math.round(o.users * 0.06));
  const nc = Math.max(10, Math.round(ns / 6));
  const files: Record<string, CsvFile> = {};
  for (const t of ['USR02', 'USER_ADDR', 'AGR_USERS', 'AGR_AGRS', 'AGR_1251', 'AGR_TEXTS', 'USAGE'])
    files[t] = new CsvFile(path.join(dir, `${t}.csv`), ESTATE_COLUMNS[t]!);
  const day = (lo: number, hi: number) => sapDay(int(lo, hi));
  const filler = [
    ['S_TABU_DIS', ['ACTVT', 'DICBERCLS']],
    ['S_RFC', ['ACTVT', 'RFC_NAME', 'RFC_TYPE']],
    ['S_GUI', ['ACTVT']],
    ['S_BTCH_JOB', ['JOBACTION', 'JOBGROUP']],
    ['S_PROGRAM', ['P_ACTION', 'P_GROUP']],
    ['F_LFA1_BUK', ['ACTVT', 'BUKRS']],
    ['F_KNA1_BUK', ['ACTVT', 'BUKRS']],
    ['M_MATE_WRK', ['ACTVT', 'WERKS']],
    ['C_AFKO_AWK', ['ACTVT', 'WERKS', 'AUFART']],
    ['S_USER_GRP', ['ACTVT', 'CLASS']],
  ] as const;
  // Rows a single role gets on average beyond its transactions and org levels.
  const fillPerRole = Math.max(0, nAuth / ns - 22);
  for (let s = 0; s < ns; s++) {
    const role = `Z_S${pad(s, 4)}`;
    const own = areaCodes(s % areas);
    const g = (object: string, auth: string, field: string, low: string, high = '') =>
      files.AGR_1251!.add({ AGR_NAME: role, OBJECT: object, AUTH: auth, FIELD: field, LOW: low, HIGH: high, DELETED: rnd() < 0.01 ? 'X' : '' });
    await files.AGR_TEXTS!.add({ AGR_NAME: role, TEXT: `Single role ${s}` });
    // Every transaction ('*') is a support role's, about one role in 500, as in real estates.
    if (rnd() < 0.002) await g('S_TCODE', 'T-1', 'TCD', '*');
    for (let k = int(6, 14); k > 0; k--) {
      const r = rnd();
      if (r < 0.85) await g('S_TCODE', 'T-1', 'TCD', pick(own));
      else if (r < 0.93) await g('S_TCODE', 'T-1', 'TCD', `${pick(own).slice(0, 4)}*`);
      else {
        const i = Math.floor(rnd() * (own.length - 5));
        await g('S_TCODE', 'T-1', 'TCD', own[i]!, own[i + int(1, 4)]!);
      }
    }
    for (let a = int(0, 3); a > 0; a--) {
      const obj = rnd() < 0.7 ? 'F_BKPF_BUK' : 'M_BEST_EKO';
      const auth = `${obj.slice(0, 6)}${pad(a, 2)}`;
      const k = rnd();
      const [low, high] =
        k < 0.5
          ? [pick(['1000', '1500', '2000', '2600', '3000']), '']
          : k < 0.7
            ? [`${pick(['1', '2', '25'])}*`, '']
            : k < 0.9
              ? [pick(['1000', '2000']), pick(['1999', '2999', '3500'])]
              : ['*', ''];
      await g(obj, auth, obj === 'F_BKPF_BUK' ? 'BUKRS' : 'EKORG', low, high);
      if (rnd() < 0.85) await g(obj, auth, 'ACTVT', pick(['01', '02', '03', '*', '0*']));
    }
    for (let n = Math.round(fillPerRole * (0.5 + rnd())), a = 0; n > 0; a++) {
      const [obj, fields] = pick(filler as unknown as [string, string[]][]);
      for (const f of fields) {
        if (n-- <= 0) break;
        await g(obj, `${obj.slice(0, 6)}${pad(a, 3)}`, f, pick(['01', '02', '03', '*', 'Z*', 'SAP', '&NC&']));
      }
    }
  }
  const children = new Map<number, number[]>();
  for (let c = 0; c < nc; c++) {
    const comp = `Z_C${pad(c, 3)}`;
    await files.AGR_TEXTS!.add({ AGR_NAME: comp, TEXT: `Composite ${c}` });
    const kids = new Set<number>();
    const area = c % areas;
    for (let n = int(3, 8); kids.size < n;) kids.add(((rnd() < 0.7 ? area : int(0, areas - 1)) + areas * int(0, Math.floor(ns / areas) - 1)) % ns);
    children.set(c, [...kids]);
    for (const k of kids) await files.AGR_AGRS!.add({ AGR_NAME: comp, CHILD_AGR: `Z_S${pad(k, 4)}` });
    if (rnd() < 0.2) await files.AGR_1251!.add({ AGR_NAME: comp, OBJECT: 'S_TCODE', AUTH: 'T-9', FIELD: 'TCD', LOW: '*', HIGH: '', DELETED: '' });
  }
  const perUser = nAssign / o.users;
  const date = () => (rnd() < 0.7 ? '00000000' : rnd() < 0.5 ? '' : day(-400, 500));
  for (let u = 0; u < o.users; u++) {
    const user = `U${pad(u, 6)}`;
    await files.USR02!.add({
      MANDT: '100',
      BNAME: user,
      CLASS: pick(['FIN', 'MM', 'IT', 'HR', '']),
      USTYP: pick(['A', 'A', 'A', 'B', 'S']),
      UFLAG: rnd() < 0.05 ? pick(['32', '64', '128']) : '0',
      GLTGV: rnd() < 0.9 ? '00000000' : day(-300, 300),
      GLTGB: rnd() < 0.9 ? '99991231' : day(-200, 500),
    });
    if (rnd() < 0.9) await files.USER_ADDR!.add({ BNAME: user, NAME_FIRST: `First${u}`, NAME_LAST: `Last${u}` });
    const jobAreas = [int(0, areas - 1), int(0, areas - 1)];
    for (let n = Math.round(perUser * (0.5 + rnd())); n > 0; n--) {
      const composite = rnd() < 0.3;
      const area = pick(jobAreas);
      const c = (area + areas * int(0, Math.floor(nc / areas))) % nc;
      const role = composite ? `Z_C${pad(c, 3)}` : `Z_S${pad((area + areas * int(0, Math.floor(ns / areas) - 1)) % ns, 4)}`;
      await files.AGR_USERS!.add({ AGR_NAME: role, UNAME: user, FROM_DAT: date(), TO_DAT: rnd() < 0.9 ? '99991231' : day(-300, 400), COL_FLAG: '' });
      if (composite && rnd() < 0.3)
        await files.AGR_USERS!.add({ AGR_NAME: `Z_S${pad(children.get(c)![0]!, 4)}`, UNAME: user, FROM_DAT: '00000000', TO_DAT: '99991231', COL_FLAG: 'X' });
    }
    if (u % 997 === 0) await files.AGR_USERS!.add({ AGR_NAME: 'Z_S0000', UNAME: `GHOST${u}`, FROM_DAT: '', TO_DAT: '', COL_FLAG: '' });
    for (let k = int(0, 6); k > 0; k--)
      await files.USAGE!.add({ BNAME: user, TCODE: pick(areaCodes(pick(jobAreas))), COUNT: String(rnd() < 0.2 ? 0 : int(1, 500)), LAST_USED: day(-100, 180) });
  }
  const out: Record<string, { file: string; rows: number }> = {};
  for (const [t, f] of Object.entries(files)) {
    await f.close();
    out[t] = { file: f.file, rows: f.rows };
  }
  return out;
}

/** CSV files on disk zipped into `zipFile`, each streamed in (the archive is never held in memory). */
export async function zipFiles(files: string[], zipFile: string): Promise<void> {
  const zip = new JSZip();
  for (const f of files) zip.file(path.basename(f), fs.createReadStream(f));
  await pipeline(
    zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'DEFLATE', compressionOptions: { level: 1 } }),
    fs.createWriteStream(zipFile),
  );
}
