// SpreadsheetML as text and as bytes: attributes of the small parts read
// whole, XML text (entities, Excel's _xHHHH_ escapes, CDATA, rich-text runs),
// and a worksheet's tags for its namespace prefix.
import { damaged } from './zip.js';

// --- small helpers for the parts read whole --------------------------------

const ATTR = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
export function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(ATTR)) out[m[1]!] = unescapeXml(m[2] ?? m[3] ?? '');
  return out;
}
/** Attributes of every element with this local name (any namespace prefix). */
export function elements(xml: string, local: string): Record<string, string>[] {
  const re = new RegExp(`<(?:[\\w.-]+:)?${local}(?=[\\s/>])([^>]*)>`, 'g');
  return [...xml.matchAll(re)].map((m) => attributes(m[1]!));
}
export function localAttr(a: Record<string, string>, local: string): string | undefined {
  for (const [k, v] of Object.entries(a)) if (k === local || k.endsWith(':' + local)) return v;
  return undefined;
}

/** The namespace prefix ('x:' or '') of the document's root element. */
export function rootPrefix(xml: string): string | undefined {
  const m = /<(?![?!])([\w.-]+:)?[\w.-]+[\s/>]/.exec(xml);
  return m ? (m[1] ?? '') : undefined;
}

// --- text ----------------------------------------------------------------

const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#[xX]([0-9a-fA-F]+));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const OOXML_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

function codePoint(n: number, m: string): string {
  return n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
}

/** XML text: entities, then Excel's _xHHHH_ escapes (e.g. _x000D_ for a carriage return). */
export function unescapeXml(v: string): string {
  if (v.indexOf('&') >= 0)
    v = v.replace(ENTITY, (m, name: string | undefined, dec: string | undefined, hex: string | undefined) =>
      name ? NAMED[name]! : codePoint(dec ? parseInt(dec, 10) : parseInt(hex!, 16), m),
    );
  if (v.indexOf('_x') >= 0) v = v.replace(OOXML_ESCAPE, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return v;
}

/** Element content: text, possibly with CDATA sections. */
export function contentText(s: string, from: number, to: number): string {
  const lt = s.indexOf('<', from);
  if (lt < 0 || lt >= to) return unescapeXml(s.slice(from, to));
  let out = '';
  let p = from;
  while (p < to) {
    const c = s.indexOf('<![CDATA[', p);
    if (c < 0 || c >= to) {
      out += unescapeXml(s.slice(p, to));
      break;
    }
    out += unescapeXml(s.slice(p, c));
    const e = s.indexOf(']]>', c + 9);
    if (e < 0 || e >= to) throw damaged('a worksheet', 'has an unterminated CDATA section');
    out += s.slice(c + 9, e);
    p = e + 3;
  }
  return out;
}

export function isNameEnd(c: number): boolean {
  // whitespace, '>' or '/'
  return c === 62 || c === 47 || c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * The text of a rich-text container (<si> or <is>) between from and to: every
 * <t>, in runs or not, except those in phonetic runs (<rPh>).
 */
export function richText(s: string, from: number, to: number, T: string, T_END: string, RPH: string, RPH_END: string): string {
  let out = '';
  let p = from;
  let first = true;
  for (;;) {
    const t = s.indexOf(T, p);
    if (t < 0 || t >= to) return out;
    if (!isNameEnd(s.charCodeAt(t + T.length))) {
      // <tag...> of another name starting with t (none in SpreadsheetML today); skip it.
      p = t + T.length;
      continue;
    }
    // A phonetic run between the last text and this one? (Searched in that
    // stretch only: an unbounded search would scan the rest of the chunk.)
    const r = t - p > RPH.length ? s.slice(p, t).indexOf(RPH) + p : -1;
    if (r >= p && isNameEnd(s.charCodeAt(r + RPH.length))) {
      // A phonetic run before this <t>: skip past its end.
      const re = s.indexOf(RPH_END, r);
      if (re < 0 || re >= to) return out;
      p = re + RPH_END.length;
      continue;
    }
    const gt = s.indexOf('>', t);
    if (gt < 0 || gt >= to) return out;
    if (s.charCodeAt(gt - 1) === 47) {
      p = gt + 1;
      continue;
    }
    const e = s.indexOf(T_END, gt);
    if (e < 0 || e > to) throw damaged('a worksheet', 'has a text element that never ends');
    const piece = contentText(s, gt + 1, e);
    out = first ? piece : out + piece;
    first = false;
    p = e + T_END.length;
  }
}

// --- a worksheet's tags --------------------------------------------------

export interface Tags {
  prefix: string;
  v: string;
  vEnd: string;
  t: string;
  tEnd: string;
  rph: string;
  rphEnd: string;
}

export function tagsFor(p: string): Tags {
  return { prefix: p, v: `<${p}v`, vEnd: `</${p}v>`, t: `<${p}t`, tEnd: `</${p}t>`, rph: `<${p}rPh`, rphEnd: `</${p}rPh>` };
}

/** The worksheet's tags as bytes, for its namespace prefix. */
export interface ByteTags {
  prefix: string;
  text: Tags;
  row: Buffer;
  rowEnd: Buffer;
  c: Buffer;
  cEnd: Buffer;
  vOpen: Buffer;
  /** </v></c> */
  vcEnd: Buffer;
  isOpen: Buffer;
  t: Buffer;
  /** </t></is></c> */
  inlineEnd: Buffer;
}

export function byteTags(p: string): ByteTags {
  const b = (s: string) => Buffer.from(s, 'latin1');
  return {
    prefix: p,
    text: tagsFor(p),
    row: b(`<${p}row`),
    rowEnd: b(`</${p}row>`),
    c: b(`<${p}c`),
    cEnd: b(`</${p}c>`),
    vOpen: b(`<${p}v>`),
    vcEnd: b(`</${p}v></${p}c>`),
    isOpen: b(`<${p}is>`),
    t: b(`<${p}t`),
    inlineEnd: b(`</${p}t></${p}is></${p}c>`),
  };
}
