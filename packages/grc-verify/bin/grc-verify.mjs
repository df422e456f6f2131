#!/usr/bin/env node
// @ts-check
// grc-verify [--key FILE] [--json] bundle.zip
// Verifies an evidence bundle offline (no network, no database) and exits 0
// when every check passes, 1 at the first that fails (naming it), 2 when it
// could not run (bad arguments, a file that cannot be opened).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { verifyBundle } from '../src/verify.mjs';

const USAGE = `Usage: grc-verify [--key FILE] [--json] bundle.zip

Verifies an evidence bundle of the access-risk review platform, offline:
every file against manifest.json, manifest.sig against the key in the bundle
(and the key against FILE, the installation's /.well-known/grc-evidence-key),
the RFC 3161 timestamp token when present, the chain of audit-events.jsonl up
to the period's close, and the reconciliation's arithmetic.

  --key FILE  the installation's published public key (PEM) the bundle must be signed with
  --json      print the report as JSON instead of lines
Exit status: 0 verified, 1 a check failed, 2 could not run.`;

/**
 * @param {string} message
 * @returns {never}
 */
function usageError(message) {
  process.stderr.write(`grc-verify: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

/** @returns {{ values: { key?: string, json?: boolean, help?: boolean }, positionals: string[] }} */
function args() {
  try {
    return parseArgs({
      options: { key: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (e) {
    return usageError(e instanceof Error ? e.message : String(e));
  }
}

const { values, positionals } = args();
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const file = positionals[0];
if (!file || positionals.length > 1) usageError('give one bundle (.zip)');
const bundlePath = /** @type {string} */ (file);
if (!fs.existsSync(bundlePath)) usageError(`${bundlePath}: no such file`);
/** @type {{ pem: string, file: string } | undefined} */
let key;
if (values.key !== undefined) {
  try {
    key = { pem: fs.readFileSync(values.key, 'utf8'), file: values.key };
  } catch (e) {
    usageError(`--key ${values.key}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const width = 'reconciliation'.length;
/** @param {string} s */
const out = (s) => process.stdout.write(`${s}\n`);
if (!values.json) out(`grc-verify ${bundlePath}`);
const report = await verifyBundle(bundlePath, {
  key,
  onCheck: values.json ? undefined : (c) => out(`  ${c.status === 'ok' ? 'ok     ' : 'skipped'}  ${c.check.padEnd(width)}  ${c.summary}`),
});

if (values.json) {
  out(JSON.stringify({ bundle: bundlePath, ...report }, null, 2));
} else if (report.failure) {
  const f = report.failure;
  out(`  FAILED   ${f.check.padEnd(width)}  ${f.message}`);
  for (const k of /** @type {const} */ (['file', 'eventId', 'line', 'expected', 'found'])) {
    if (f[k] !== undefined) out(`  ${''.padEnd(7 + width)}    ${k}: ${f[k]}`);
  }
  out(`NOT VERIFIED: the ${f.check} check failed.`);
} else {
  out(
    `VERIFIED: every file is as signed in the manifest${key ? ' by the given key' : ", by the key the bundle carries (give --key to compare it with the installation's)"}.`,
  );
}
// exitCode rather than exit(): the report is written out whole before the process ends.
process.exitCode = report.ok ? 0 : 1;
