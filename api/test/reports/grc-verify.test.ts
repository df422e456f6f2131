// The offline verifier of evidence bundles (packages/grc-verify): a bundle made
// to the published format passes every check however it is zipped, and any
// change after signing (one byte of any file, an audit event taken out or
// moved, a count of the reconciliation, the manifest signed by another key, a
// timestamp of another manifest) fails, naming the check, the file or event,
// and what was expected against what was found. Changes to what the manifest
// covers are also re-signed with the installation's key, as an insider holding
// it would, to show that the chain and the arithmetic are checked on their own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS, verifyBundle } from '../../../packages/grc-verify/src/verify.mjs';
import { eventHash, type ChainEvent } from '../../../packages/grc-verify/src/chain.mjs';
import {
  bundleEntries,
  bundleSpec,
  chain,
  jsonl,
  newSigner,
  opensslTsa,
  pack,
  periodEvents,
  sha256,
  unzip,
  zip,
  type BundleSpec,
} from '../helpers/bundle-fixture.js';

const installation = newSigner();
const tsa = opensslTsa();
const published = { pem: installation.pem, file: 'published-key.pem' };
const valid = () => bundleSpec(installation, periodEvents(), tsa.stamp);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-verify-'));

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(tsa.dir, { recursive: true, force: true });
});

/** The bundle with one file's bytes replaced, everything else as packed. */
async function withFile(bundle: Buffer, name: string, change: (b: Buffer) => Buffer) {
  const entries = await unzip(bundle);
  return zip(entries.map(([n, b]) => [n, n === name ? change(Buffer.from(b)) : b]));
}

/** One byte changed (its lowest bit) at `at` (default: the middle). */
const flip = (at?: number) => (b: Buffer) => {
  const i = at ?? Math.floor(b.length / 2);
  b[i] = b[i]! ^ 1;
  return b;
};

describe('a valid bundle', () => {
  it('passes every check in order, saying what each covered', async () => {
    const report = await verifyBundle(await pack(valid()), { key: published });
    expect(report.failure).toBeNull();
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => [c.check, c.status])).toEqual(CHECKS.map((c) => [c, 'ok']));
    const summary = Object.fromEntries(report.checks.map((c) => [c.check, c.summary]));
    expect(summary.archive).toBe('10 files in the ZIP');
    expect(summary.files).toMatch(/^7 files match their size and SHA-256 in the manifest \(\d+ bytes\); none unlisted$/);
    expect(summary.signature).toContain('by the key in public-key.pem');
    expect(summary.key).toBe("the bundle's key is the key in published-key.pem");
    expect(summary.timestamp).toMatch(/^manifest\.tsr: the TSA 'CN=Test TSA RSA, O=grc-verify tests' timestamped manifest\.json's SHA256 at \d{4}-\d\d-\d\dT/);
    expect(summary.chain).toBe(
      "8 audit events hash and link in chain order (2 gaps where other events of the chain stand) up to the period's close (event 5110), whose hash is the manifest's chain head",
    );
    expect(summary.reconciliation).toBe('2 sources add up: 1012 rows in the files, 977 in scope, 3 differences with their reasons');
  });

  it('verifies the same however it is zipped: entry order, stored or deflated, directory entries', async () => {
    for (const options of [{ reverse: true }, { store: true }, { directories: true, reverse: true, store: true }]) {
      const report = await verifyBundle(await pack(valid(), options), { key: published });
      expect(report.failure, JSON.stringify(options)).toBeNull();
    }
  });

  it('reads a token of another TSA (ECDSA P-256), as the TSA answered it or the bare token', async () => {
    const ec = opensslTsa('ec');
    try {
      const report = await verifyBundle(await pack(bundleSpec(installation, periodEvents(), ec.stamp)));
      expect(report.failure).toBeNull();
      expect(report.checks.find((c) => c.check === 'timestamp')!.summary).toContain("the TSA 'CN=Test TSA EC, O=grc-verify tests'");
      const bare = await verifyBundle(await pack(bundleSpec(installation, periodEvents(), ec.token)));
      expect(bare.failure).toBeNull();
    } finally {
      fs.rmSync(ec.dir, { recursive: true, force: true });
    }
  });

  it('says what it did not check: no timestamp token, no published key given', async () => {
    const report = await verifyBundle(await pack(bundleSpec(installation)));
    expect(report.ok).toBe(true);
    expect(report.checks.filter((c) => c.status === 'skipped').map((c) => c.check)).toEqual(['key', 'timestamp']);
  });
});

describe('one byte changed in each file of the bundle', () => {
  it('a listed file no longer has its SHA-256 (each in turn)', async () => {
    const bundle = await pack(valid());
    const spec = valid();
    for (const name of Object.keys(spec.files)) {
      const original = (await unzip(bundle)).find(([n]) => n === name)![1];
      const report = await verifyBundle(await withFile(bundle, name, flip()));
      expect(report.failure, name).toMatchObject({
        check: 'files',
        file: name,
        message: `${name}: SHA-256 differs from the manifest`,
        expected: sha256(original),
      });
      expect(report.failure!.found).toMatch(/^[0-9a-f]{64}$/);
      expect(report.failure!.found).not.toBe(report.failure!.expected);
    }
  });

  it('manifest.json: a changed value breaks the signature, a changed character of its syntax its form', async () => {
    const bundle = await pack(valid());
    const manifest = (await unzip(bundle)).find(([n]) => n === 'manifest.json')![1];
    const inName = manifest.indexOf('Q4 2026') + 1; // '4' → '5': still JSON, another period name
    let report = await verifyBundle(await withFile(bundle, 'manifest.json', flip(inName)));
    expect(report.failure).toMatchObject({
      check: 'signature',
      file: 'manifest.sig',
      message: 'manifest.sig is not a signature of manifest.json by the key in public-key.pem',
    });
    report = await verifyBundle(await withFile(bundle, 'manifest.json', flip(manifest.indexOf('{'))));
    expect(report.failure).toMatchObject({ check: 'manifest', file: 'manifest.json' });
    expect(report.failure!.message).toMatch(/^manifest\.json is not JSON/);
  });

  it('manifest.sig: another signature', async () => {
    const report = await verifyBundle(await withFile(await pack(valid()), 'manifest.sig', flip(10)));
    expect(report.failure).toMatchObject({ check: 'signature', file: 'manifest.sig' });
  });

  it("manifest.tsr: the TSA's signature no longer verifies", async () => {
    const bundle = await pack(valid());
    const token = (await unzip(bundle)).find(([n]) => n === 'manifest.tsr')![1];
    const report = await verifyBundle(await withFile(bundle, 'manifest.tsr', flip(token.length - 1)));
    expect(report.failure).toMatchObject({ check: 'timestamp', file: 'manifest.tsr', message: "the token's signature does not verify under its certificate" });
  });
});

describe("the manifest's form (re-signed)", () => {
  it('a manifest without its chain head, or with a file listed twice', async () => {
    let spec = valid();
    delete spec.manifest.chainHead;
    let report = await verifyBundle(await pack(spec));
    expect(report.failure).toMatchObject({
      check: 'manifest',
      file: 'manifest.json',
      message: 'manifest.chainHead is not a SHA-256 in lowercase hex',
      found: '(missing)',
    });
    spec = valid();
    const entries = bundleEntries(spec);
    const manifest = JSON.parse(entries[0]![1].toString());
    manifest.files.push(manifest.files[1]);
    entries[0]![1] = Buffer.from(JSON.stringify(manifest));
    report = await verifyBundle(await zip(entries));
    expect(report.failure).toMatchObject({ check: 'manifest', message: `manifest.files[7] lists '${manifest.files[1].path}' a second time` });
  });
});

describe('files added, missing or doubled', () => {
  it('a file the manifest does not list', async () => {
    const entries = bundleEntries(valid());
    const report = await verifyBundle(await zip([...entries, ['notes.txt', Buffer.from('added later')]]));
    expect(report.failure).toMatchObject({ check: 'files', file: 'notes.txt', message: 'notes.txt is in the ZIP but not listed in the manifest' });
  });

  it('a listed file taken out', async () => {
    const entries = bundleEntries(valid()).filter(([n]) => n !== 'remediation.csv');
    const report = await verifyBundle(await zip(entries));
    expect(report.failure).toMatchObject({
      check: 'files',
      file: 'remediation.csv',
      message: 'remediation.csv is listed in the manifest but is not in the ZIP',
    });
  });

  it('two entries under one name, or no manifest', async () => {
    const entries = bundleEntries(valid());
    let report = await verifyBundle(await zip([...entries, ['decisions.csv', Buffer.from('the other decisions')]]));
    expect(report.failure).toMatchObject({ check: 'archive', message: "not a readable ZIP: two entries are named 'decisions.csv'" });
    report = await verifyBundle(await zip(entries.filter(([n]) => n !== 'manifest.json')));
    expect(report.failure).toMatchObject({ check: 'manifest', message: 'manifest.json is not in the ZIP' });
  });
});

describe('the audit chain', () => {
  /** The valid bundle with its events replaced, manifest made and signed again with the installation's key, as an insider could. */
  const resigned = (events: ChainEvent[], chainHead?: string) => {
    const spec: BundleSpec = valid();
    spec.files['audit-events.jsonl'] = Buffer.from(jsonl(events));
    if (chainHead) spec.manifest.chainHead = chainHead;
    return pack(spec);
  };
  /** The valid bundle with its events replaced and nothing else (the manifest as signed). */
  const edited = async (events: ChainEvent[]) => withFile(await pack(valid()), 'audit-events.jsonl', () => Buffer.from(jsonl(events)));

  it('an event taken out or moved: audit-events.jsonl is no longer the file the manifest signed', async () => {
    const signed = Buffer.from(jsonl(periodEvents()));
    const out = periodEvents();
    out.splice(2, 1);
    let report = await verifyBundle(await edited(out), { key: published });
    const shorter = Buffer.byteLength(jsonl(out));
    expect(report.failure).toMatchObject({
      check: 'files',
      file: 'audit-events.jsonl',
      message: 'audit-events.jsonl: size differs from the manifest',
      expected: String(signed.length),
      found: String(shorter),
    });
    const moved = periodEvents();
    [moved[2], moved[3]] = [moved[3]!, moved[2]!];
    report = await verifyBundle(await edited(moved), { key: published });
    expect(report.failure).toMatchObject({
      check: 'files',
      file: 'audit-events.jsonl',
      message: 'audit-events.jsonl: SHA-256 differs from the manifest',
      expected: sha256(signed),
      found: sha256(jsonl(moved)),
    });
  });

  it('an event moved, re-signed: out of chain order, naming the event and its line', async () => {
    const events = periodEvents();
    [events[2], events[3]] = [events[3]!, events[2]!];
    const report = await verifyBundle(await resigned(events), { key: published });
    expect(report.failure).toMatchObject({ check: 'chain', file: 'audit-events.jsonl', eventId: '5103', line: 4 });
    expect(report.failure!.message).toBe('event 5103 (line 4): out of order: chainSeq 103 follows 105');
  });

  it("an event's after changed, re-signed: its hash no longer matches", async () => {
    const events = periodEvents();
    events[2]!.after = { decision: 'remove', comment: null, origin: 'user' };
    const report = await verifyBundle(await resigned(events), { key: published });
    expect(report.failure).toMatchObject({ check: 'chain', eventId: '5103', line: 3 });
    expect(report.failure!.message).toBe('event 5103 (line 3): hash mismatch: the event is not the one that was chained');
  });

  it("an event changed and hashed again, re-signed: the next event's link breaks", async () => {
    const events = periodEvents();
    const first = events[0]!;
    first.after = { name: 'Q4 2026 (restated)', startsAt: '2026-11-01' };
    first.hash = eventHash(first, first.prevHash);
    const report = await verifyBundle(await resigned(events), { key: published });
    expect(report.failure).toMatchObject({ check: 'chain', eventId: '5102', line: 2 });
    expect(report.failure!.message).toBe('event 5102 (line 2): prev link broken: prevHash is not the hash of event 101');
  });

  it('the close cut off the end, re-signed, with and without the chain head moved to the event before it', async () => {
    const events = periodEvents();
    const close = events.pop()!;
    const last = events[events.length - 1]!;
    let report = await verifyBundle(await resigned(events), { key: published });
    expect(report.failure).toMatchObject({ check: 'chain', eventId: '5109', expected: close.hash, found: last.hash });
    expect(report.failure!.message).toBe('the last event (5109) is not the chain head the manifest signed');
    report = await verifyBundle(await resigned(events, last.hash), { key: published });
    expect(report.failure).toMatchObject({ check: 'chain', eventId: '5109', expected: 'period.closed', found: 'submission.approved' });
  });
  it('a line that is not an event, re-signed: names the line', async () => {
    const text = jsonl(periodEvents()).split('\n');
    text[4] = '{"id": "5106", truncated';
    const spec = valid();
    spec.files['audit-events.jsonl'] = Buffer.from(text.join('\n'));
    const report = await verifyBundle(await pack(spec));
    expect(report.failure).toMatchObject({ check: 'chain', file: 'audit-events.jsonl', line: 5 });
    expect(report.failure!.message).toMatch(/^line 5 is not JSON: /);
  });

  it('walks a long file in batches: links hold across them, and a break past the first is named by its line', async () => {
    // The close's own fields, without what chaining gives an event (id, place, time, hashes).
    const { id: _id, chainSeq: _seq, occurredAt: _at, prevHash: _prev, hash: _hash, ...close } = periodEvents().at(-1)!;
    const fields = Array.from({ length: 12_000 }, (_, i) => ({
      ...close,
      action: 'decision.changed',
      entityType: 'RiskRow',
      entityId: `r-${i}`,
      after: { decision: 'retain', n: i },
    }));
    const events = chain([...fields, close]);
    const spec = valid();
    spec.files['audit-events.jsonl'] = Buffer.from(jsonl(events));
    spec.manifest.chainHead = events.at(-1)!.hash;
    const whole = await verifyBundle(await pack(spec));
    expect(whole.failure).toBeNull();
    expect(whole.checks.find((c) => c.check === 'chain')!.summary).toContain('12001 audit events hash and link in chain order (an unbroken run)');
    events[7_000]!.after = { decision: 'remove', n: 7_000 };
    spec.files['audit-events.jsonl'] = Buffer.from(jsonl(events));
    const report = await verifyBundle(await pack(spec));
    expect(report.failure).toMatchObject({ check: 'chain', eventId: events[7_000]!.id, line: 7_001 });
  });
});

describe('the reconciliation (re-signed)', () => {
  const withSources = (change: (sources: any) => void) => {
    const spec = valid();
    change(spec.manifest.reconciliation);
    return pack(spec);
  };

  it('rows in the file changed: the rows loaded are no longer the file less its duplicates', async () => {
    const report = await verifyBundle(await withSources((r) => (r[0].rowsInFile = 1001)));
    expect(report.failure).toMatchObject({ check: 'reconciliation', file: 'manifest.json', expected: '981', found: '980' });
    expect(report.failure!.message).toBe(
      'manifest.reconciliation[0]: access-risk-export-2026-11.csv (u-1): rows loaded are not the rows in the file less the duplicates skipped',
    );
  });

  it('a decided count changed: decided and undecided no longer make the rows in scope', async () => {
    const report = await verifyBundle(await withSources((r) => (r[1].decided.remove = 1)));
    expect(report.failure).toMatchObject({ check: 'reconciliation', expected: '12', found: '13' });
    expect(report.failure!.message).toBe(
      'manifest.reconciliation[1]: analysis run 7 (run-7): decided (13) and undecided (0) rows do not add up to the rows in scope',
    );
  });

  it("a difference's rows changed: the differences no longer account for the rows not decided", async () => {
    const report = await verifyBundle(await withSources((r) => (r[0].differences[1].rows = 14)));
    expect(report.failure).toMatchObject({ check: 'reconciliation', expected: '50', found: '49' });
    expect(report.failure!.message).toBe(
      'manifest.reconciliation[0]: access-risk-export-2026-11.csv (u-1): the differences account for 49 rows, but 50 rows of the file were not decided',
    );
  });

  it('an unexplained difference adds up and is shown', async () => {
    const report = await verifyBundle(
      await withSources((r) => {
        r[0].differences[1] = { rows: 12, reason: 'Replaced by a later upload' };
        r[0].differences.push({ rows: 3, reason: 'Unexplained: rows loaded but no longer in the data at the close' });
      }),
    );
    expect(report.ok).toBe(true);
    expect(report.checks.at(-1)!.summary).toBe(
      '2 sources add up: 1012 rows in the files, 977 in scope, 4 differences with their reasons; 3 rows UNEXPLAINED: the bundle says the period was not reconciled',
    );
  });
});

describe('the signing key', () => {
  const forger = newSigner();

  it('a manifest forged and signed with another key, that key in the bundle: whole in itself, refused against the published key', async () => {
    const spec = valid();
    (spec.manifest.counts as Record<string, number>).decisions = 1;
    spec.files['public-key.pem'] = Buffer.from(forger.pem);
    spec.signWith = forger.privateKey;
    const bundle = await pack(spec);
    expect((await verifyBundle(bundle)).ok).toBe(true);
    const report = await verifyBundle(bundle, { key: published });
    expect(report.failure).toMatchObject({
      check: 'key',
      file: published.file,
      message: `the bundle is signed by another key than the one in ${published.file}`,
      expected: sha256(installation.publicKey.export({ type: 'spki', format: 'der' })),
      found: sha256(forger.publicKey.export({ type: 'spki', format: 'der' })),
    });
  });

  it("signed with another key, the installation's key left in the bundle", async () => {
    const spec = valid();
    spec.signWith = forger.privateKey;
    const report = await verifyBundle(await pack(spec));
    expect(report.failure).toMatchObject({ check: 'signature', file: 'manifest.sig' });
  });
});

describe('the timestamp token', () => {
  it('a token for another hash (of the manifest before it was changed)', async () => {
    const spec = valid();
    const before = bundleEntries(spec).find(([n]) => n === 'manifest.json')![1];
    spec.timestamp = () => tsa.stamp(before);
    (spec.manifest.counts as Record<string, number>).decisions = 1;
    const entries = bundleEntries(spec);
    const after = entries.find(([n]) => n === 'manifest.json')![1];
    const report = await verifyBundle(await zip(entries));
    expect(report.failure).toMatchObject({
      check: 'timestamp',
      file: 'manifest.tsr',
      message: "the token timestamps another SHA256 than manifest.json's",
      expected: sha256(after),
      found: sha256(before),
    });
  });
});

describe('the command line (npx grc-verify)', () => {
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [path.resolve(import.meta.dirname, '../../../packages/grc-verify/bin/grc-verify.mjs'), ...args], {
      encoding: 'utf8',
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const save = (name: string, data: Buffer | string) => {
    const f = path.join(tmp, name);
    fs.writeFileSync(f, data);
    return f;
  };

  it('prints one line per check and VERIFIED, exit 0', async () => {
    const bundle = save('good.zip', await pack(valid()));
    const key = save('published.pem', installation.pem);
    const r = cli('--key', key, bundle);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines[0]).toBe(`grc-verify ${bundle}`);
    expect(lines.slice(1, -1).map((l) => l.trim().split(/\s+/).slice(0, 2))).toEqual(CHECKS.map((c) => ['ok', c]));
    expect(lines.at(-1)).toBe('VERIFIED: every file is as signed in the manifest by the given key.');
  });

  it('names the changed file with the SHA-256 expected and found, exit 1', async () => {
    const bundle = save('changed.zip', await withFile(await pack(valid()), 'decisions.csv', flip()));
    const r = cli(bundle);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/\n {2}FAILED {3}files {11}decisions\.csv: SHA-256 differs from the manifest\n/);
    expect(r.out).toMatch(/file: decisions\.csv\n.*expected: [0-9a-f]{64}\n.*found: [0-9a-f]{64}\n/);
    expect(r.out.trim().split('\n').at(-1)).toBe('NOT VERIFIED: the files check failed.');
  });

  it('refuses a bundle signed by another key than the published one; --json gives the same as data', async () => {
    const spec = valid();
    const forger = newSigner();
    spec.files['public-key.pem'] = Buffer.from(forger.pem);
    spec.signWith = forger.privateKey;
    const bundle = save('forged.zip', await pack(spec));
    const key = save('published.pem', installation.pem);
    const r = cli('--key', key, bundle);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`FAILED   key             the bundle is signed by another key than the one in ${key}`);
    const json = cli('--json', '--key', key, bundle);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out);
    expect(report).toMatchObject({ bundle, ok: false, failure: { check: 'key', file: key } });
    expect(report.checks.map((c: { check: string }) => c.check)).toEqual(['archive', 'manifest', 'files', 'signature']);
  });

  it('exits 2 when it cannot run', () => {
    expect(cli().code).toBe(2);
    const missing = cli(path.join(tmp, 'nothing.zip'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('nothing.zip: no such file');
  });
});
