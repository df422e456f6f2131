// A migrated database without the HTTP server, for data-layer tests.
import { createDatabase, type Database } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { freshDatabase, type TestDatabase } from './db.js';

export async function migratedDatabase(): Promise<{ db: Database; test: TestDatabase; close(): Promise<void> }> {
  const test = await freshDatabase();
  const db = await createDatabase({ databaseUrl: test.url, dataDir: '/nonexistent', inMemory: true });
  await migrate(db.sql);
  return {
    db,
    test,
    async close() {
      await db.close();
      await test.drop();
    },
  };
}
