// Seeds risk rows straight into the database (the review tests do not depend on
// the upload path) and users without going through the HTTP API.
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { hashPassword } from '../../src/auth/passwords.js';

export interface SeedRow {
  userId: string;
  userName?: string;
  userGroup?: string;
  accessRiskId: string;
  riskDescription?: string;
  riskLevel?: 'high' | 'medium' | 'low';
  ruleId?: string;
  system?: string;
  roleProfile?: string;
  compositeBusinessRole?: string;
  function?: string;
}

export async function seedRows(prisma: PrismaClient, rows: SeedRow[]): Promise<bigint[]> {
  const created = await prisma.riskRow.createManyAndReturn({
    data: rows.map((r) => ({
      userId: r.userId,
      userName: r.userName ?? `User ${r.userId}`,
      userGroup: r.userGroup ?? '',
      accessRiskId: r.accessRiskId,
      riskDescription: r.riskDescription ?? `Risk ${r.accessRiskId}`,
      riskLevel: r.riskLevel ?? 'high',
      riskLevelLabel: r.riskLevel ?? 'High',
      ruleId: r.ruleId ?? '0101',
      system: r.system ?? 'SAP ERP',
      roleProfile: r.roleProfile ?? 'Z_ROLE',
      compositeBusinessRole: r.compositeBusinessRole ?? '',
      function: r.function ?? 'F01',
    })),
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
