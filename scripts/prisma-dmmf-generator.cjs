#!/usr/bin/env node
// A Prisma generator that writes the full DMMF (database names, native types,
// defaults, indexes) to JSON. api/test/platform/schema-drift.test.ts compares it with
// the database the migrations build, so schema.prisma and prisma/migrations
// cannot drift apart unnoticed.
const fs = require('node:fs');
const path = require('node:path');
const { generatorHandler } = require('@prisma/generator-helper');

generatorHandler({
  onManifest() {
    return { prettyName: 'DMMF for the schema drift test', defaultOutput: '../api/src/generated/dmmf.json' };
  },
  async onGenerate(options) {
    const out = options.generator.output.value;
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(options.dmmf.datamodel, null, 1));
  },
});
