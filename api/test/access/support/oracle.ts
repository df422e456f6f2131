// A second, deliberately plain implementation of the analysis contract (loops
// over the tables as the contract reads, no SQL), to check the engine's
// output row for row on generated estates.
import type { Estate, Row, RuleSetFiles } from '../../../../scripts/access-estate.js';

export interface OracleRow {
  userId: string;
  riskId: string;
  ruleId: string;
  functionId: string;
  system: string;
  action: string;
  role: string;
  composite: string;
  resource: string;
  resourceExtn: string;
  valueFrom: string;
  valueTo: string;
  executionCount: number | null;
  lastExecutedOn: string | null;
}

type Grant = { object: string; auth: string; field: string; low: string; high: string };
type Alt = { from: string; to: string };

/** A YYYYMMDD date as YYYY-MM-DD, null for unlimited. */
const date = (v: string | undefined) => (!v || /^0+$/.test(v) ? null : `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`);
const within = (day: string, from: string | null, to: string | null) => (from === null || from <= day) && (to === null || day <= to);
const enabled = (r: Row) => (r.Status ?? '').toLowerCase() === 'enabled';
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function covers(g: Grant, v: string): boolean {
  if (g.high !== '') return g.low <= v && v <= g.high;
  if (g.low === '*') return true;
  if (g.low.endsWith('*')) return v.startsWith(g.low.slice(0, -1));
  return g.low === v;
}

function meets(g: Grant, r: Alt): boolean {
  if (r.from === '*') return true;
  if (r.to === '') return covers(g, r.from);
  if (g.high !== '') return g.low <= r.to && g.high >= r.from;
  if (g.low === '*') return true;
  if (g.low.endsWith('*')) {
    const p = g.low.slice(0, -1);
    return p <= r.to && (r.from <= p || r.from.startsWith(p));
  }
  return r.from <= g.low && g.low <= r.to;
}

export function oracle(
  rules: RuleSetFiles,
  estates: Record<string, Estate>,
  asOf: string,
): { rows: OracleRow[]; conflicts: { userId: string; riskId: string; exercised: boolean }[] } {
  const fnScope = new Map(rules.functions!.map((f) => [f['Function ID']!, f['Analysis Scope']!.toLowerCase()]));
  // Each function's enabled actions (any system) in code point order: the Rule ID's digits.
  const positions = new Map<string, string[]>();
  for (const a of rules.function_actions!)
    if (enabled(a)) positions.set(a['Function ID']!, [...new Set([...(positions.get(a['Function ID']!) ?? []), a.Action!])].sort(byText));

  // Per system: user -> function -> action -> paths granting its transaction (and the values met).
  type Held = Map<
    string,
    Map<string, Map<string, { role: string; composite: string; values: { object: string; field: string; low: string; high: string }[] }[]>>
  >;
  const heldBy = new Map<string, Held>();
  const usage = new Map<string, { count: number; last: string | null }>();
  for (const [system, x] of Object.entries(estates)) {
    const users = new Set(x.USR02!.filter((u) => Number(u.UFLAG) === 0 && within(asOf, date(u.GLTGV), date(u.GLTGB))).map((u) => u.BNAME!));
    const composites = new Set(x.AGR_AGRS!.map((a) => a.AGR_NAME!));
    const grants = new Map<string, Grant[]>();
    for (const g of x.AGR_1251!) {
      if (g.DELETED === 'X' || composites.has(g.AGR_NAME!)) continue;
      if (!grants.has(g.AGR_NAME!)) grants.set(g.AGR_NAME!, []);
      grants.get(g.AGR_NAME!)!.push({ object: g.OBJECT!, auth: g.AUTH!, field: g.FIELD!, low: g.LOW ?? '', high: g.HIGH ?? '' });
    }
    const paths = new Map<string, { role: string; composite: string }[]>();
    for (const a of x.AGR_USERS!) {
      if (!users.has(a.UNAME!) || a.COL_FLAG === 'X' || !within(asOf, date(a.FROM_DAT), date(a.TO_DAT))) continue;
      const list = paths.get(a.UNAME!) ?? [];
      paths.set(a.UNAME!, list);
      const add = (role: string, composite: string) => {
        if (!list.some((p) => p.role === role && p.composite === composite)) list.push({ role, composite });
      };
      if (composites.has(a.AGR_NAME!)) {
        for (const k of x.AGR_AGRS!) if (k.AGR_NAME === a.AGR_NAME && !composites.has(k.CHILD_AGR!)) add(k.CHILD_AGR!, a.AGR_NAME!);
      } else add(a.AGR_NAME!, '');
    }
    for (const u of x.USAGE ?? []) {
      const k = `${system}|${u.BNAME}|${u.TCODE}`;
      const s = usage.get(k) ?? { count: 0, last: null };
      s.count += Number(u.COUNT);
      const d = date(u.LAST_USED);
      if (d && (!s.last || d > s.last)) s.last = d;
      usage.set(k, s);
    }
    const held: Held = new Map();
    heldBy.set(system, held);
    for (const [userId, userPaths] of paths) {
      const roles = [...new Set(userPaths.map((p) => p.role))].sort(byText);
      for (const f of rules.functions!) {
        const fid = f['Function ID']!;
        const actions = [
          ...new Set(
            rules.function_actions!.filter((a) => a['Function ID'] === fid && enabled(a) && (a.System === '' || a.System === system)).map((a) => a.Action!),
          ),
        ];
        for (const action of actions) {
          // The requirement: object -> field -> alternatives.
          const req = new Map<string, Map<string, Alt[]>>();
          for (const p of rules.function_permissions!) {
            if (p['Function ID'] !== fid || p.Action !== action || !enabled(p) || !(p.System === '' || p.System === system)) continue;
            const o = req.get(p['Auth Object']!) ?? new Map<string, Alt[]>();
            req.set(p['Auth Object']!, o);
            o.set(p.Field!, [...(o.get(p.Field!) ?? []), { from: p['Value From']!, to: p['Value To'] ?? '' }]);
          }
          const tcodePaths = userPaths.filter((p) => (grants.get(p.role) ?? []).some((g) => g.object === 'S_TCODE' && g.field === 'TCD' && covers(g, action)));
          if (!tcodePaths.length) continue;
          // Authorizations (role, auth) meeting every field of an object.
          const okAuths = (object: string) => {
            const out: { role: string; auth: string }[] = [];
            for (const role of roles) {
              const names = [...new Set((grants.get(role) ?? []).filter((g) => g.object === object).map((g) => g.auth))].sort(byText);
              for (const authName of names) {
                const rows = grants.get(role)!.filter((g) => g.object === object && g.auth === authName);
                if ([...req.get(object)!].every(([field, alts]) => rows.some((g) => g.field === field && alts.some((r) => meets(g, r)))))
                  out.push({ role, auth: authName });
              }
            }
            return out;
          };
          const objects = [...req.keys()].sort(byText);
          const ok = new Map(objects.map((o) => [o, okAuths(o)]));
          if (objects.some((o) => !ok.get(o)!.length)) continue;
          const shown = tcodePaths.map((p) => {
            const values: { object: string; field: string; low: string; high: string }[] = [];
            for (const object of objects) {
              const chosen = [...ok.get(object)!].sort(
                (a, b) => Number(a.role !== p.role) - Number(b.role !== p.role) || byText(a.role, b.role) || byText(a.auth, b.auth),
              )[0]!;
              for (const [field, alts] of [...req.get(object)!].sort((a, b) => byText(a[0], b[0]))) {
                const g = grants
                  .get(chosen.role)!
                  .filter((g) => g.object === object && g.auth === chosen.auth && g.field === field && alts.some((r) => meets(g, r)))
                  .sort((a, b) => byText(a.low, b.low) || byText(a.high, b.high))[0]!;
                values.push({ object, field, low: g.low, high: g.high });
              }
            }
            return { ...p, values };
          });
          const uf = held.get(userId) ?? new Map();
          held.set(userId, uf);
          const fa = uf.get(fid) ?? new Map();
          uf.set(fid, fa);
          fa.set(action, shown);
        }
      }
    }
  }

  const rows: OracleRow[] = [];
  const conflicts: { userId: string; riskId: string; exercised: boolean }[] = [];
  const allUsers = new Set([...heldBy.values()].flatMap((h) => [...h.keys()]));
  for (const r of rules.risks!) {
    if (!enabled(r)) continue;
    const riskId = r['Access Risk ID']!;
    const fns = rules
      .risk_functions!.filter((x) => x['Access Risk ID'] === riskId)
      .map((x) => x['Function ID']!)
      .sort(byText);
    const crossing = fns.some((f) => fnScope.get(f) === 'cross');
    for (const userId of [...allUsers].sort(byText)) {
      const holds = (system: string, f: string) => Boolean(heldBy.get(system)!.get(userId)?.get(f)?.size);
      const systems = [...heldBy.keys()];
      let shownSystems: string[];
      if (crossing) shownSystems = fns.every((f) => systems.some((s) => holds(s, f))) ? systems.filter((s) => fns.some((f) => holds(s, f))) : [];
      else shownSystems = systems.filter((s) => fns.every((f) => holds(s, f)));
      if (!shownSystems.length) continue;
      // The Rule ID: the first action shown per function, and the weights of the mixed-radix count.
      const first = new Map<string, number>();
      for (const s of shownSystems)
        for (const f of fns)
          for (const a of heldBy.get(s)!.get(userId)?.get(f)?.keys() ?? []) first.set(f, Math.min(first.get(f) ?? Infinity, positions.get(f)!.indexOf(a)));
      const weight = (i: number) => fns.slice(i + 1).reduce((w, f) => w * positions.get(f)!.length, 1);
      let exercised = true;
      for (const [i, f] of fns.entries()) {
        let ran = false;
        for (const s of shownSystems) {
          for (const [action, paths] of heldBy.get(s)!.get(userId)?.get(f) ?? []) {
            const combination = 1 + fns.reduce((sum, g, j) => sum + (g === f ? positions.get(f)!.indexOf(action) : first.get(g)!) * weight(j), 0);
            const ruleId = riskId + (combination < 10000 ? String(combination).padStart(4, '0') : String(combination));
            const use = usage.get(`${s}|${userId}|${action}`);
            if (use && use.count > 0) ran = true;
            for (const p of paths) {
              const base = {
                userId,
                riskId,
                ruleId,
                functionId: f,
                system: s,
                action,
                role: p.role,
                composite: p.composite,
                executionCount: use ? use.count : null,
                lastExecutedOn: use?.last ?? null,
              };
              if (!p.values.length) rows.push({ ...base, resource: '', resourceExtn: '', valueFrom: '', valueTo: '' });
              for (const v of p.values) rows.push({ ...base, resource: v.object, resourceExtn: v.field, valueFrom: v.low, valueTo: v.high });
            }
          }
        }
        void i;
        exercised &&= ran;
      }
      conflicts.push({ userId, riskId, exercised });
    }
  }
  return { rows, conflicts };
}
