// Access analysis runs in GraphQL (administrators): runs with their counts
// and progress, a run's conflicts (a connection by user then risk, filtered by
// risk, system, user, exercised or latent) with the rows behind each, and
// starting a run. The same services as REST (services/access/).
import { decodeBase64, encodeBase64 } from '@pothos/core';
import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import { lazyTotalCount } from '../cursors.js';
import { ValidationError } from '../../core/errors.js';
import { parseOrThrow } from '../../core/validation.js';
import * as analysis from '../../services/access/analysis.js';
import * as conflicts from '../../services/access/conflicts.js';
import * as changes from '../../services/access/changes.js';
import { comparedRunOf } from '../../services/access/compared-run.js';
import { AccessRuleSetNode } from './rule-sets.js';
import { AccessExtractNode, AccessLoadStatusEnum, type LoadStatus } from './extracts.js';
import { enumOf } from '../enums.js';
import * as progress from '../../services/access/progress.js';
import * as review from '../../services/access/review.js';
import { UploadModeEnum } from '../uploads/uploads.js';
import { encodeGlobalID } from '@pothos/plugin-relay';

const AccessConflictRowObject = builder.prismaObject('AccessConflictRow', {
  description:
    'One row of a conflict as reviewers see it: a function held through an action, a role path and, where the action needs them, the authorization values that met its permissions.',
  fields: (t) => ({
    ruleId: t.exposeString('ruleId', { description: 'The risk id and the number of the combination of actions, counted the same way on every run.' }),
    functionId: t.exposeString('functionId', { description: 'The function this row shows held.' }),
    system: t.exposeString('system', { description: 'The system the function is held on.' }),
    action: t.exposeString('action', { description: 'The action (transaction) that gives the function.' }),
    role: t.exposeString('role', { description: 'The single role granting the action’s transaction.' }),
    composite: t.exposeString('composite', { description: 'The composite role through which the user holds that single role; empty when held directly.' }),
    resource: t.exposeString('resource', { description: 'The authorization object that met a permission of the action; empty when it needs none.' }),
    resourceExtn: t.exposeString('resourceExtn', { description: 'The field of that object.' }),
    valueFrom: t.exposeString('valueFrom', { description: 'The granted value (or the start of the granted range).' }),
    valueTo: t.exposeString('valueTo', { description: 'The end of the granted range; empty for a single value.' }),
    executionCount: t.float({
      nullable: true,
      description: 'How often the user ran the action (USAGE); null when the extract has no usage of it.',
      resolve: (r) => (r.executionCount == null ? null : Number(r.executionCount)),
    }),
    lastExecutedOn: t.string({
      nullable: true,
      description: 'When the user last ran the action (YYYY-MM-DD).',
      resolve: (r) => r.lastExecutedOn?.toISOString().slice(0, 10) ?? null,
    }),
  }),
});

const MAX_ROWS = 500;

const AccessConflictObject = builder.objectRef<conflicts.ConflictSummary>('AccessConflict').implement({
  description: 'A conflict an analysis found: a user holding every function of an enabled risk.',
  fields: (t) => ({
    userId: t.exposeString('userId', { description: 'The user (BNAME), the same id on every system.' }),
    riskId: t.exposeString('riskId', { description: 'The access risk.' }),
    riskDescription: t.exposeString('riskDescription', { description: 'The risk’s description in the rule set.' }),
    riskLevel: t.exposeString('riskLevel', { description: 'Critical, High, Medium or Low.' }),
    businessProcess: t.exposeString('businessProcess', { description: 'The risk’s business process.' }),
    exercised: t.exposeBoolean('exercised', { description: 'Whether USAGE shows the user ran an action of every function of the risk (false: latent).' }),
    systems: t.exposeStringList('systems', { description: 'The systems its rows show.' }),
    rows: t.field({
      type: [AccessConflictRowObject],
      description: `Its rows, in the order of conflicts.csv (at most ${MAX_ROWS}).`,
      // Read for every conflict of the page at once.
      resolve: (c, _args, ctx) =>
        ctx
          .caller!.viewer.loader(
            'access.conflictRows',
            (keys: readonly conflicts.ConflictKey[]) => conflicts.rowsOfConflicts(ctx.caller!, keys, MAX_ROWS),
            (k) => JSON.stringify([k.runId, k.userId, k.riskId]),
          )
          .load(c),
    }),
  }),
});

const AccessTestConflictObject = builder.objectRef<analysis.ConflictChange>('AccessTestConflict').implement({
  description: 'A (user, risk) conflict a test run would add or remove against the latest completed run of the active version.',
  fields: (t) => ({
    userId: t.exposeString('userId', { description: 'The user (BNAME).' }),
    riskId: t.exposeString('riskId', { description: 'The access risk.' }),
    riskDescription: t.exposeString('riskDescription', { description: 'The risk’s description in the rule set of the run that has the conflict.' }),
  }),
});

const AccessBreakdownByEnum = enumOf('AccessBreakdownBy', {
  description: 'What a run’s conflicts are counted by.',
  values: {
    risk: { description: 'The access risk.' },
    businessProcess: { description: 'The risk’s business process.' },
    system: { description: 'The system (a conflict counts on every system its rows show).' },
    user: { description: 'The user.' },
  },
});

const AccessConflictCountObject = builder.objectRef<conflicts.BreakdownEntry>('AccessConflictCount').implement({
  description: 'The conflicts of one risk, business process, system or user in a run.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The risk id, business process, system or user id counted.' }),
    conflicts: t.exposeInt('conflicts', { description: '(user, risk) conflicts in it.' }),
    exercised: t.exposeInt('exercised', { description: 'Of those, the exercised ones (the rest are latent).' }),
  }),
});

const MAX_BREAKDOWN = 100;

const AccessConflictChangeEnum = enumOf('AccessConflictChange', {
  description: 'How a conflict of a run stands against the previous completed run of the same rule set version.',
  values: {
    new: { description: 'In this run, not in the previous one (a first run: every conflict).' },
    resolved: { description: 'In the previous run, no longer in this one; read from the previous run, with its rows.' },
    unchanged: { description: 'In both runs.' },
  },
});

const AccessConflictChangesObject = builder.objectRef<changes.ChangeCounts>('AccessConflictChanges').implement({
  description: 'What changed in a run against the run it is compared with (previousRun): its conflicts counted as new, resolved and unchanged.',
  fields: (t) => ({
    newCount: t.exposeInt('new', { description: 'Conflicts not in the previous run.' }),
    resolvedCount: t.exposeInt('resolved', { description: 'Conflicts of the previous run no longer found.' }),
    unchangedCount: t.exposeInt('unchanged', { description: 'Conflicts in both runs.' }),
  }),
});

// A conflict's cursor carries its key, (user, risk).
const CURSOR_PREFIX = 'AccessConflict:';
const cursorOf = (c: conflicts.ConflictSummary) => encodeBase64(CURSOR_PREFIX + JSON.stringify([c.userId, c.riskId]));
function keyOf(cursor: string | undefined, name: 'after' | 'before'): [string, string] | null {
  if (cursor == null) return null;
  let key: unknown = null;
  try {
    const s = decodeBase64(cursor);
    if (s.startsWith(CURSOR_PREFIX)) key = JSON.parse(s.slice(CURSOR_PREFIX.length));
  } catch {
    key = null;
  }
  if (!Array.isArray(key) || key.length !== 2 || !key.every((k) => typeof k === 'string')) {
    throw new ValidationError(`'${name}' is not a cursor of this list (pass an edge's cursor or a pageInfo cursor it gave)`, name);
  }
  return key as [string, string];
}

export const AccessAnalysisNode = builder.prismaNode('AccessAnalysisRun', {
  name: 'AccessAnalysis',
  id: { field: 'id', description: 'The run’s global id.' },
  nullable: true,
  authScopes: { admin: true },
  description: 'An analysis run: a rule set version against the systems’ extracts on a date.',
  fields: (t) => ({
    ruleSet: t.relation('ruleSet', { description: 'The rule set version analysed.' }),
    test: t.exposeBoolean('test', {
      description: 'A test run: its rule set version is not the active one of its name. It is compared with compareTo and cannot be sent to the review.',
    }),
    recomputedUsers: t.exposeInt('recomputedUsers', {
      nullable: true,
      description:
        'Users whose conflicts this run computed: every analysed user in a full run; in an incremental run (baseRunId set) only the users its new extract touched, the others copied from that run. Null until it completes.',
    }),
    baseRunId: t.string({
      nullable: true,
      description:
        'Of an incremental run: the database id of the previous run of the same version whose untouched users it copied (the run of that id is `node`-readable as AccessAnalysis). Null for a full run.',
      resolve: (r) => r.baseRunId,
    }),
    compareTo: t.relation('compareTo', {
      nullable: true,
      description:
        'Of a test run: the latest completed run of the active version it is compared with when it started (null: none yet, every conflict would be added).',
    }),
    wouldAdd: t.field({
      type: [AccessTestConflictObject],
      description: `Of a completed test run: the conflicts it found that compareTo did not, by user then risk (at most ${analysis.MAX_CHANGES}; addedCount counts them all). Empty for any other run.`,
      select: { id: true, test: true, status: true, compareToId: true },
      resolve: (run, _args, ctx) => analysis.testChanges(ctx.caller!, run, 'add'),
    }),
    wouldRemove: t.field({
      type: [AccessTestConflictObject],
      description: `Of a completed test run: the conflicts of compareTo it did not find, by user then risk (at most ${analysis.MAX_CHANGES}; removedCount counts them all). Empty for any other run.`,
      select: { id: true, test: true, status: true, compareToId: true },
      resolve: (run, _args, ctx) => analysis.testChanges(ctx.caller!, run, 'remove'),
    }),
    systems: t.exposeStringList('systems', { description: 'The systems analysed.' }),
    asOf: t.string({ description: 'The analysis date (YYYY-MM-DD).', select: { asOf: true }, resolve: (r) => r.asOf.toISOString().slice(0, 10) }),
    status: t.field({ type: AccessLoadStatusEnum, description: 'Where the run stands.', resolve: (x) => x.status as LoadStatus }),
    progress: t.exposeInt('progress', { description: 'Percent done.' }),
    conflictCount: t.exposeInt('conflicts', { description: '(user, risk) conflicts found.' }),
    rowCount: t.exposeInt('rows', { description: 'Rows of those conflicts (the lines of conflicts.csv).' }),
    userCount: t.exposeInt('users', { description: 'Users with at least one conflict.' }),
    exercisedCount: t.exposeInt('exercised', { description: 'Conflicts the user exercised (USAGE shows an action of every function run).' }),
    addedCount: t.exposeInt('added', {
      description:
        '(user, risk) pairs not in the previous completed run of the same rule set version (a first run: all of them); of a test run, those not in compareTo (it would add them).',
    }),
    removedCount: t.exposeInt('removed', {
      description:
        '(user, risk) pairs of the previous completed run of the same rule set version no longer found; of a test run, those of compareTo it would remove.',
    }),
    startedBy: t.exposeString('startedBy', { nullable: true, description: 'Who started it, as shown at the time.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', description: 'When it was started.' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true, description: 'When it completed or failed.' }),
    errorMessage: t.exposeString('errorMessage', { nullable: true, description: 'Why it failed.' }),
    changes: t.field({
      type: AccessConflictChangesObject,
      description: 'Its conflicts counted as new, resolved and unchanged against the run it is compared with (previousRun; list them with conflicts(change:)).',
      resolve: (run, _args, ctx) => changes.changeCounts(ctx.caller!, run),
    }),
    previousRun: t.prismaField({
      type: 'AccessAnalysisRun',
      nullable: true,
      description:
        'The run that changes, conflicts(change:) and the added / removed counts compare against: of a test run compareTo, of any other the previous completed run (not a test) of the same rule set version; null when there is none.',
      resolve: async (query, run, _args, ctx) => {
        const id = await comparedRunOf(ctx.caller!, run);
        return id ? ctx.prisma.accessAnalysisRun.findUnique({ ...query, where: { id } }) : null;
      },
    }),
    breakdown: t.field({
      type: [AccessConflictCountObject],
      description: `Its conflicts counted by risk, business process, system or user, most first (at most ${MAX_BREAKDOWN} groups).`,
      args: {
        by: t.arg({ type: AccessBreakdownByEnum, required: true, description: 'What to count the conflicts by.' }),
        first: t.arg.int({ description: `How many groups, most conflicts first; 10 when left out, at most ${MAX_BREAKDOWN}.` }),
      },
      resolve: (run, args, ctx) => {
        const first = args.first ?? 10;
        if (first < 1 || first > MAX_BREAKDOWN) throw new ValidationError(`first: between 1 and ${MAX_BREAKDOWN}`, 'first');
        return conflicts.conflictBreakdown(ctx.caller!, run.id, args.by, first);
      },
    }),
    conflicts: t.connection(
      {
        type: AccessConflictObject,
        description: 'Its conflicts by user, then risk (code point order), filtered as asked.',
        args: {
          riskId: t.arg.string({ description: 'Only conflicts of this risk.' }),
          system: t.arg.string({ description: 'Only conflicts with rows on this system.' }),
          userId: t.arg.string({ description: 'Only conflicts of this user.' }),
          exercised: t.arg.boolean({ description: 'true: only exercised conflicts; false: only latent ones; left out: both.' }),
          change: t.arg({
            type: AccessConflictChangeEnum,
            description: 'Only the conflicts new, resolved or unchanged against the run it is compared with (previousRun); left out: this run’s conflicts.',
          }),
        },
        resolve: async (run, args, ctx) => {
          const caller = ctx.caller!;
          const asked: conflicts.ConflictFilter = { riskId: args.riskId, system: args.system, userId: args.userId, exercised: args.exercised };
          // A change reads the run's conflicts, or for resolved ones the previous run's, against the other run.
          const scope = args.change ? changes.changeScope(run.id, await comparedRunOf(caller, run), args.change, asked) : { runId: run.id, filter: asked };
          const { runId, filter } = scope;
          if (!runId)
            return {
              edges: [],
              pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
              totalCount: () => Promise.resolve(0),
            };
          const page = await resolveCursorConnection({ args, toCursor: cursorOf, defaultSize: 50, maxSize: MAX_ROWS }, (p: ResolveCursorConnectionArgs) =>
            conflicts.listConflicts(caller, runId, filter, {
              after: keyOf(p.after, 'after'),
              before: keyOf(p.before, 'before'),
              limit: p.limit,
              inverted: p.inverted,
            }),
          );
          return { ...page, totalCount: () => conflicts.countConflicts(caller, runId, filter) };
        },
      },
      lazyTotalCount,
    ),
  }),
});

builder.queryFields((t) => ({
  accessAnalyses: t.prismaConnection({
    type: 'AccessAnalysisRun',
    cursor: 'id',
    description: 'Analysis runs, newest first: of one rule set version, or of all.',
    authScopes: { admin: true },
    args: { ruleSetId: t.arg.globalID({ for: AccessRuleSetNode, description: 'Only the runs of this rule set version.' }) },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.accessAnalysisRun.findMany({
        ...query,
        where: args.ruleSetId ? { ruleSetId: args.ruleSetId.id } : {},
        orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
      }),
    totalCount: (_root, args, ctx) => ctx.prisma.accessAnalysisRun.count({ where: args.ruleSetId ? { ruleSetId: args.ruleSetId.id } : {} }),
  }),
}));

builder.mutationFields((t) => ({
  startAccessAnalysis: t.prismaField({
    type: 'AccessAnalysisRun',
    description:
      'Starts an analysis of a rule set version against the current extracts, run in the background; follow its status and progress by its id. One run at a time per rule set version. A version that is not the active one of its name makes a test run (compared with the active version’s latest run, never sent to the review).',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      ruleSetId: t.arg.globalID({ required: true, for: AccessRuleSetNode, description: 'The rule set version to analyse.' }),
      systems: t.arg.stringList({ description: 'The systems to analyse; left out, every system with a loaded extract.' }),
      asOf: t.arg.string({ description: 'The analysis date (YYYY-MM-DD); left out, today (UTC).' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const input = parseOrThrow(analysis.analysisInputSchema, {
        ruleSetId: args.ruleSetId.id,
        systems: args.systems ?? undefined,
        asOf: args.asOf ?? undefined,
      });
      const { id } = await analysis.startAnalysis(ctx.caller!, input);
      return ctx.prisma.accessAnalysisRun.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  sendAccessAnalysisToReview: t.prismaField({
    type: 'Upload',
    description:
      "Sends a completed run's conflicts to the review as a data upload (APPEND or REPLACE, decisions carried over on replace as for a replaced file); follow the upload by its id. The upload history names the run. A test run is refused (CONFLICT).",
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      id: t.arg.globalID({ required: true, for: AccessAnalysisNode, description: 'The completed run.' }),
      mode: t.arg({ type: UploadModeEnum, required: true, description: 'APPEND adds the rows to the loaded data; REPLACE puts them in its place.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const upload = await review.sendToReview(ctx.caller!, args.id.id, { mode: args.mode });
      return ctx.prisma.upload.findUniqueOrThrow({ ...query, where: { id: upload.id } });
    },
  }),
}));

const AccessProgressObject = builder.objectRef<progress.AccessProgress>('AccessProgress').implement({
  description: 'Where an extract’s load or an analysis run stands.',
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      description: 'The global id of the extract or run.',
      resolve: (p) => encodeGlobalID(p.kind === 'extract' ? 'AccessExtract' : 'AccessAnalysis', p.id),
    }),
    status: t.field({ type: AccessLoadStatusEnum, description: 'Where it stands.', resolve: (p) => p.status }),
    progress: t.exposeInt('progress', { description: 'Percent done (a run moves from 0 to 100 as it commits).' }),
    errorMessage: t.exposeString('errorMessage', { nullable: true, description: 'Why it failed.' }),
  }),
});

builder.subscriptionFields((t) => ({
  accessProgress: t.field({
    type: AccessProgressObject,
    description: 'An extract’s load or an analysis run: where it stands first, then as it moves, ending after completed or failed.',
    authScopes: { admin: true },
    args: { id: t.arg.globalID({ required: true, for: [AccessExtractNode, AccessAnalysisNode], description: 'The extract’s or run’s global id.' }) },
    subscribe: (_root, { id }, ctx) => progress.progressStream(ctx.caller!, id.typename === 'AccessExtract' ? 'extract' : 'analysis', id.id),
    resolve: (p) => p,
  }),
}));
