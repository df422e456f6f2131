// A rule set upload: versions by name, counts of enabled rows, and refusals
// naming file, line and column before anything is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, type Engine } from './support/helpers.js';
import { act, fn, pairRules, perm, risk, rf } from './support/fixtures.js';

let e: Engine;
beforeAll(async () => {
  e = await engine();
});
afterAll(async () => e?.close());

describe('rule set upload', () => {
  it('stores a version per upload of a name, counting enabled actions and permissions; semicolons and any file case', async () => {
    const files = pairRules({ function_actions: [act('F1', 'FB01'), act('F2', 'F-53'), act('F2', 'F0', '', 'Disabled')] });
    const first = await e.ruleSet(files, 'Global');
    expect(first).toMatchObject({ name: 'Global', version: 1, active: true, risks: 1, functions: 2, actions: 2, permissions: 2 });
    const second = await e.ruleSet(files, 'Global', { delimiter: ';', fileName: (t) => `Rules/${t.toUpperCase()}.TXT` });
    expect(second).toMatchObject({ name: 'Global', version: 2, active: false });
  });

  it.each([
    ['a missing file', { risk_functions: undefined }, "The rule set has no file 'risk_functions'"],
    [
      'an unknown function',
      { risk_functions: [rf('R1', 'F1'), rf('R1', 'F9')] },
      "risk_functions.csv, line 3, column 'Function ID': the function 'F9' is not in functions.csv.",
    ],
    [
      'a risk with no function',
      { risks: [risk('R1'), risk('R2')] },
      "risks.csv, line 3, column 'Access Risk ID': the risk 'R2' has no function in risk_functions.csv.",
    ],
    [
      'a bad level',
      { risks: [{ ...risk('R1'), 'Risk Level': 'Severe' }] },
      "risks.csv, line 2, column 'Risk Level': 'Severe' is not one of Critical, High, Medium, Low.",
    ],
    ['a duplicate key', { functions: [fn('F1'), fn('F2'), fn('F1')] }, "functions.csv, line 4, column 'Function ID': a duplicate of line 2 (F1)."],
    [
      'a permission of no action',
      { function_permissions: [perm('F1', 'ZZ01', 'S_X', 'F', '1')] },
      "function_permissions.csv, line 2, column 'Action': 'ZZ01' is not an action of the function 'F1' in function_actions.csv.",
    ],
  ])('refuses %s, naming file, line and column, and stores nothing', async (_what, change, message) => {
    const before = await e.deps.prisma.accessRuleSet.count();
    const files = Object.fromEntries(Object.entries({ ...pairRules(), ...change }).filter(([, v]) => v !== undefined)) as ReturnType<typeof pairRules>;
    await expect(e.ruleSet(files, 'Bad')).rejects.toThrow(message);
    expect(await e.deps.prisma.accessRuleSet.count()).toBe(before);
  });
});
