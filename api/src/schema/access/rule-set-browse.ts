// A rule set version browsed in GraphQL (administrators): its risks a page at
// a time by risk id, and under each risk its functions, their actions and
// each action's permission rows, disabled rows included and marked
// (services/access/rule-set-browse.ts). The lists below the risks are small
// and bounded; each is read for a whole page of parents at once.
import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import { decodeCursor, encodeCursor, lazyTotalCount } from '../cursors.js';
import * as browse from '../../services/access/rule-set-browse.js';

/** Ceilings of the nested lists: far above what a rule set holds per parent. */
const MAX_FUNCTIONS = 100;
const MAX_ACTIONS = 1000;
const MAX_PERMISSIONS = 1000;
const MAX_RISKS_PAGE = 200;

const AccessRulePermissionObject = builder.objectRef<browse.RulePermission>('AccessRulePermission').implement({
  description: 'A permission row an action of a function requires (function_permissions).',
  fields: (t) => ({
    system: t.exposeString('system', { description: 'The system it applies to; empty for every system.' }),
    object: t.exposeString('object', { description: 'The authorization object (Auth Object).' }),
    field: t.exposeString('field', { description: 'The field of the object.' }),
    valueFrom: t.exposeString('valueFrom', { description: 'The value required, or the start of the range; * for any value.' }),
    valueTo: t.exposeString('valueTo', { description: 'The end of the range; empty for a single value.' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the row counts (Status Enabled).' }),
    line: t.exposeInt('line', { description: 'Its line in function_permissions (the header is line 1).' }),
  }),
});

const AccessRuleActionObject = builder.objectRef<browse.RuleAction>('AccessRuleAction').implement({
  description: 'An action (transaction) that gives a function (function_actions).',
  fields: (t) => ({
    system: t.exposeString('system', { description: 'The system it applies to; empty for every system.' }),
    action: t.exposeString('action', { description: 'The transaction code.' }),
    description: t.exposeString('description', { description: 'The action’s description.' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the action counts (Status Enabled).' }),
    permissions: t.field({
      type: [AccessRulePermissionObject],
      description: `The permission rows this action needs on its system, in file order (at most ${MAX_PERMISSIONS}); none: the transaction alone gives the function.`,
      resolve: (a, _args, ctx) =>
        ctx
          .caller!.viewer.loader(
            'access.rulePermissions',
            (keys: readonly browse.RuleAction[]) => browse.permissionsOfActions(ctx.caller!, keys),
            (k) => JSON.stringify([k.ruleSetId, k.functionId, k.system, k.action]),
          )
          .load(a)
          .then((rows) => rows.slice(0, MAX_PERMISSIONS)),
    }),
  }),
});

const AccessRuleFunctionObject = builder.objectRef<browse.RuleFunction>('AccessRuleFunction').implement({
  description: 'A function of a rule set: what a user can do through any of its actions (with their permissions).',
  fields: (t) => ({
    functionId: t.exposeString('functionId', { description: 'The Function ID.' }),
    description: t.exposeString('description', { description: 'The function’s description.' }),
    businessProcess: t.exposeString('businessProcess', { description: 'Its business process.' }),
    scope: t.exposeString('scope', { description: 'Single (one system must hold every function of a risk) or Cross.' }),
    actions: t.field({
      type: [AccessRuleActionObject],
      description: `Its actions in file order, disabled ones included (at most ${MAX_ACTIONS}).`,
      resolve: (f, _args, ctx) =>
        ctx
          .caller!.viewer.loader(
            'access.ruleActions',
            (keys: readonly browse.RuleFunction[]) => browse.actionsOfFunctions(ctx.caller!, keys),
            (k) => JSON.stringify([k.ruleSetId, k.functionId]),
          )
          .load(f)
          .then((rows) => rows.slice(0, MAX_ACTIONS)),
    }),
  }),
});

const AccessRuleRiskObject = builder.objectRef<browse.RuleRisk>('AccessRuleRisk').implement({
  description: 'A risk of a rule set version: the functions a user must all hold for a conflict.',
  fields: (t) => ({
    riskId: t.exposeString('riskId', { description: 'The Access Risk ID.' }),
    description: t.exposeString('description', { description: 'The risk’s description.' }),
    level: t.exposeString('level', { description: 'Critical, High, Medium or Low.' }),
    type: t.exposeString('type', { description: 'S (segregation of duties), A (critical action) or P (critical permission).' }),
    businessProcess: t.exposeString('businessProcess', { description: 'Its business process.' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the risk is analysed (Status Enabled).' }),
    functions: t.field({
      type: [AccessRuleFunctionObject],
      description: `Its functions in the order of risk_functions (at most ${MAX_FUNCTIONS}).`,
      resolve: (r, _args, ctx) =>
        ctx
          .caller!.viewer.loader(
            'access.ruleFunctions',
            (keys: readonly browse.RuleRisk[]) => browse.functionsOfRisks(ctx.caller!, keys),
            (k) => JSON.stringify([k.ruleSetId, k.riskId]),
          )
          .load(r)
          .then((rows) => rows.slice(0, MAX_FUNCTIONS)),
    }),
  }),
});

// A risk's cursor carries its risk id.
const PREFIX = 'AccessRuleRisk:';
const SHAPE = /^AccessRuleRisk:([\s\S]*)$/;
const riskKey = (cursor: string | undefined, name: 'after' | 'before') => (cursor == null ? null : decodeCursor(cursor, SHAPE, name)[1]!);

builder.prismaObjectFields('AccessRuleSet', (t) => ({
  riskList: t.connection(
    {
      type: AccessRuleRiskObject,
      description: `The version’s risks by risk id (code point order), disabled ones included; 50 a page unless asked, at most ${MAX_RISKS_PAGE}.`,
      select: { id: true },
      resolve: async (set, args, ctx) => {
        const caller = ctx.caller!;
        const page = await resolveCursorConnection(
          { args, toCursor: (r: browse.RuleRisk) => encodeCursor(PREFIX + r.riskId), defaultSize: 50, maxSize: MAX_RISKS_PAGE },
          (p: ResolveCursorConnectionArgs) =>
            browse.listRisks(caller, set.id, { after: riskKey(p.after, 'after'), before: riskKey(p.before, 'before'), limit: p.limit, inverted: p.inverted }),
        );
        return { ...page, totalCount: () => browse.countRisks(caller, set.id) };
      },
    },
    lazyTotalCount,
  ),
}));
