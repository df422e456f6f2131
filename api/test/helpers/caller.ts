// A caller (services/caller.ts) for tests that call services directly: the
// user as a signed-in request would carry them. Tests build their deps from
// the parts the service under test uses; the rest is left out.
import type { User } from '../../src/generated/prisma/client.js';
import type { AppDeps } from '../../src/services/deps.js';
import { createCaller, type Caller } from '../../src/services/caller.js';

export function callerFor(deps: Pick<AppDeps, 'prisma'> & Partial<AppDeps>, user: User): Caller {
  return createCaller(deps as AppDeps, { user });
}
