// Once per test run: one migrated database that every test server starts
// from (a PostgreSQL template database, or a dump of PGlite's data folder),
// instead of creating a cluster and running every migration again in each
// test file. Tests of the migrations themselves start from an empty database
// (helpers/db.ts freshDatabase).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
// What the set-up provides (ProvidedContext) is declared beside its reader.
import type {} from './helpers/db.js';

let cleanup: () => Promise<void> = async () => {};

export async function setup(project: TestProject): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (base) {
    const name = `grc_template_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    const db = await createDatabase({ databaseUrl: url.toString(), dataDir: '/nonexistent' });
    await migrate(db.sql);
    await db.close();
    project.provide('templateDatabase', name);
    project.provide('templateDump', '');
    cleanup = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    };
    return;
  }
  const db = await createDatabase({ dataDir: '/nonexistent', inMemory: true });
  await migrate(db.sql);
  const file = path.join(os.tmpdir(), `grc-template-${process.pid}.tar`);
  fs.writeFileSync(file, Buffer.from(await (await db.dumpDataDir!()).arrayBuffer()));
  await db.close();
  project.provide('templateDatabase', '');
  project.provide('templateDump', file);
  cleanup = async () => fs.rmSync(file, { force: true });
}

export async function teardown(): Promise<void> {
  await cleanup();
}
