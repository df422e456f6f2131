// Systems' access extracts in GraphQL (administrators): each system's
// extracts, newest first, with status, load progress and what each holds.
// Loading one stays REST (POST /api/systems/{system}/extracts).
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';

/** processing, completed or failed (the database's check constraint). */
export type LoadStatus = 'processing' | 'completed' | 'failed';

export const AccessLoadStatusEnum = enumOf('AccessLoadStatus', {
  description: 'Where an extract’s load or an analysis run stands.',
  values: {
    processing: { description: 'Still running (progress says how far).' },
    completed: { description: 'Done.' },
    failed: { description: 'Stopped; `errorMessage` says why, and nothing of it is used.' },
  },
});

export const AccessExtractNode = builder.prismaNode('AccessExtract', {
  id: { field: 'id', description: 'The extract’s global id.' },
  nullable: true,
  authScopes: { admin: true },
  description: 'One access extract of a system: its SAP tables (USR02, AGR_USERS, AGR_AGRS, AGR_1251, …) as loaded.',
  fields: (t) => ({
    system: t.exposeString('system', { description: 'The system’s name (e.g. PRD-ECC).' }),
    status: t.field({ type: AccessLoadStatusEnum, description: 'Where its load stands.', resolve: (x) => x.status as LoadStatus }),
    progress: t.exposeInt('progress', { description: 'Percent loaded.' }),
    errorMessage: t.exposeString('errorMessage', { nullable: true, description: 'Why the load failed: the table, line (the header is line 1) and column.' }),
    fileName: t.exposeString('fileName', { description: 'The uploaded file’s name.' }),
    users: t.exposeInt('users', { description: 'Distinct users of USR02.' }),
    roles: t.exposeInt('roles', { description: 'Distinct roles (assigned, composite, single or with authorizations).' }),
    assignments: t.exposeInt('assignments', { description: 'Rows of AGR_USERS.' }),
    authorizations: t.exposeInt('authorizations', { description: 'Distinct (AGR_NAME, OBJECT, AUTH) authorizations of AGR_1251.' }),
    loadedBy: t.exposeString('loadedBy', { nullable: true, description: 'Who loaded it, as shown at the time.' }),
    loadedAt: t.expose('loadedAt', { type: 'DateTime', description: 'When it was uploaded.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When its load completed.' }),
    supersededAt: t.expose('supersededAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When a newer extract of the system replaced it for later analyses.',
    }),
    current: t.boolean({
      description: 'Whether later analyses of its system use it (its newest completed extract).',
      select: { status: true, supersededAt: true },
      resolve: (x) => x.status === 'completed' && x.supersededAt == null,
    }),
  }),
});

/** The extracts a listing's arguments ask for. */
const extractWhere = (args: { system?: string | null; currentOnly?: boolean | null }) => ({
  ...(args.system != null ? { system: args.system } : {}),
  ...(args.currentOnly ? { status: 'completed', supersededAt: null } : {}),
});

builder.queryFields((t) => ({
  accessExtracts: t.prismaConnection({
    type: 'AccessExtract',
    cursor: 'id',
    description: 'Access extracts, newest first: of one system, or of every system.',
    authScopes: { admin: true },
    args: {
      system: t.arg.string({ description: 'Only this system’s extracts.' }),
      currentOnly: t.arg.boolean({ description: 'Only the extract each system’s later analyses use.' }),
    },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.accessExtract.findMany({
        ...query,
        where: extractWhere(args),
        orderBy: [{ loadedAt: 'desc' }, { id: 'desc' }],
      }),
    totalCount: (_root, args, ctx) => ctx.prisma.accessExtract.count({ where: extractWhere(args) }),
  }),
}));
