// Seeds risk rows straight into the database (the review tests do not depend on
// the upload path) and users without going through the HTTP API.
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { riskRowData, type SeedRow } from '../../src/db/seed-rows.js';

export type { SeedRow };

/** Rows straight into risk_rows, with test defaults for what a row leaves out; returns their ids. */
export async function seedRows(prisma: PrismaClient, rows: SeedRow[]): Promise<bigint[]> {
  const created = await prisma.riskRow.createManyAndReturn({
    data: rows.map((r) =>
      riskRowData(r, {
        userName: `User ${r.userId}`,
        riskDescription: `Risk ${r.accessRiskId}`,
        ruleId: '0101',
        system: 'SAP ERP',
        roleProfile: 'Z_ROLE',
        function: 'F01',
      }),
    ),
    select: { id: true },
  });
  return created.map((c) => c.id);
}

let n = 0;
/** Active users with a known password and no pending change, created directly. */
export async function seedUsers(prisma: PrismaClient, count: number, role: 'reviewer' | 'admin', password: string) {
  const passwordHash = await hashPassword(password);
  const stamp = Date.now().toString(36);
  const data = Array.from({ length: count }, () => {
    n++;
    return { email: `${role}.${stamp}.${n}@example.com`, firstName: 'Seeded', lastName: `${role} ${n}`, role, passwordHash };
  });
  return prisma.user.createManyAndReturn({ data });
}
