// Risk simulation in GraphQL (SPEC §2, §5): run a simulation, the pickers'
// searches over the loaded data, recent runs, and the role-wide what-if.
// The semantics are services/reports/simulation.ts's and services/reports/role-what-if.ts's.
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';
import { ValidationError } from '../../core/errors.js';
import * as simulation from '../../services/reports/simulation.js';
import * as whatIf from '../../services/reports/role-what-if.js';
import type { EngineConflict as EngineConflictT, EnginePath as EnginePathT, EngineSimulation as EngineSimulationT } from '../../services/access/simulate.js';

const ScenarioActionEnum = enumOf('ScenarioAction', {
  description: 'What a simulation scenario does with a role.',
  values: simulation.SCENARIO_ACTIONS,
  descriptions: {
    retain: 'Keep the role.',
    remove: 'Remove the role.',
    add: 'Give the user the role (answered by the engine when the user’s system data is loaded).',
  },
});

const AccessItem = builder.objectRef<simulation.AccessItem>('SimulationAccessItem').implement({
  description: 'One access item (authorisation) of a user in a simulation.',
  fields: (t) => ({
    rowId: t.exposeString('id', { description: 'The stored id of the risk row it comes from (the number RiskRow’s global id encodes, as REST gives it).' }),
    roleProfile: t.exposeString('roleProfile', { description: 'The role profile that grants it.' }),
    compositeBusinessRole: t.exposeString('compositeBusinessRole', { description: 'The composite role that grants it.' }),
    function: t.exposeString('function', { description: 'The business function (e.g. AP01) the row grants within the risk.' }),
    functionDescription: t.exposeString('functionDescription', { description: 'What that function is.' }),
    ruleId: t.exposeString('ruleId', { description: 'The rule it matches.' }),
    authObject: t.exposeString('authObject', { description: 'The authorisation object.' }),
    field: t.exposeString('field', { description: 'The authorisation field.' }),
    valueFrom: t.exposeString('valueFrom', { description: 'The lowest value granted.' }),
    valueTo: t.exposeString('valueTo', { description: 'The highest value granted.' }),
    system: t.exposeString('system', { description: 'The source system of the access row (e.g. SAP ERP), as exported.' }),
    removed: t.exposeBoolean('removed', { description: 'Gone in the simulation.' }),
  }),
});

const TableComparison = builder.objectRef<simulation.SimulationResult['tableComparison']>('SimulationTableComparison').implement({
  description: 'The user’s access items before and after a simulation.',
  fields: (t) => ({
    originalData: t.field({
      type: [AccessItem],
      description: 'The user’s access rows for the risk as loaded, before the simulated role changes.',
      resolve: (r) => r.originalData,
    }),
    simulationData: t.field({
      type: [AccessItem],
      description: 'The same rows after the simulated role changes: what would remain of the risk.',
      resolve: (r) => r.simulationData,
    }),
  }),
});

const EnginePath = builder.objectRef<EnginePathT>('SimulationConflictPath').implement({
  description: 'One path of a conflict the engine found: the function held on a system through an action and a role.',
  fields: (t) => ({
    riskId: t.exposeString('riskId', { description: 'The access risk.' }),
    ruleId: t.exposeString('ruleId', { description: 'Rule ID as a run writes it (risk id and combination number).' }),
    functionId: t.exposeString('functionId', { description: 'The function of the risk this path holds.' }),
    system: t.exposeString('system', { description: 'Where it is held.' }),
    action: t.exposeString('action', { description: 'The transaction giving the function.' }),
    role: t.exposeString('role', { description: 'The single role with that transaction.' }),
    composite: t.exposeString('composite', { description: 'The composite role the single role comes through (empty when assigned directly).' }),
    resource: t.exposeString('resource', { description: 'Auth object of the permission met (empty: the action needs none).' }),
    resourceExtn: t.exposeString('resourceExtn', { description: 'Its field.' }),
    valueFrom: t.exposeString('valueFrom', { description: 'Granted value, or where the granted range starts.' }),
    valueTo: t.exposeString('valueTo', { description: 'Where the granted range ends (empty: one value).' }),
  }),
});

const EngineConflict = builder.objectRef<EngineConflictT>('SimulationConflict').implement({
  description: 'A conflict (the user holding every function of an enabled risk) as the engine finds it, with its paths.',
  fields: (t) => ({
    riskId: t.exposeString('riskId', { description: 'The access risk.' }),
    riskDescription: t.exposeString('riskDescription', { description: 'The risk’s description in the rule set.' }),
    riskLevel: t.exposeString('riskLevel', { description: 'Critical, High, Medium or Low.' }),
    paths: t.field({
      type: [EnginePath],
      description: 'Its paths (risk, function, system, action, role), in the order of a run’s rows.',
      resolve: (c) => c.paths,
    }),
  }),
});

const EngineAnswer = builder.objectRef<EngineSimulationT>('SimulationEngineAnswer').implement({
  description:
    'The access-analysis engine’s answer: the user’s roles in the loaded system extracts, changed as the scenarios say, analysed with the active rule set version as of today.',
  fields: (t) => ({
    ruleSetId: t.exposeString('ruleSetId', { description: 'The rule set version analysed (its database id).' }),
    ruleSetName: t.exposeString('ruleSetName', { description: 'Its name.' }),
    ruleSetVersion: t.exposeInt('ruleSetVersion', { description: 'Its version.' }),
    asOf: t.exposeString('asOf', { description: 'The analysis date (YYYY-MM-DD), today.' }),
    systems: t.exposeStringList('systems', { description: 'The systems whose current extract holds the user.' }),
    appear: t.field({ type: [EngineConflict], description: 'Conflicts that would appear, with their paths after the changes.', resolve: (e) => e.appear }),
    go: t.field({ type: [EngineConflict], description: 'Conflicts that would go, with their paths as the roles are now.', resolve: (e) => e.go }),
    remain: t.field({
      type: [EngineConflict],
      description: 'Conflicts the user holds either way, with their paths after the changes.',
      resolve: (e) => e.remain,
    }),
  }),
});

const SimulationResult = builder.objectRef<simulation.SimulationResult>('SimulationResult').implement({
  description: 'What removing roles would do to one risk of one user.',
  fields: (t) => ({
    simulationId: t.exposeString('simulationId', {
      description: 'The stored run’s id (`SimulationRun.runId`; node(id:) reads the run back by `SimulationRun.id`).',
    }),
    userId: t.exposeString('userId', { description: 'The user id.' }),
    riskId: t.exposeString('riskId', { description: 'The access risk id.' }),
    compositeRolesOnly: t.exposeBoolean('compositeRolesOnly', { description: 'Run on composite roles only.' }),
    match: t.exposeBoolean('match', { description: 'MATCH: the original and simulated item counts are equal.' }),
    originalCount: t.exposeInt('originalCount', { description: 'Access items the user has now.' }),
    simulatedCount: t.exposeInt('simulatedCount', { description: 'Access items left after the removal.' }),
    riskResolved: t.exposeBoolean('riskResolved', { description: 'A function the risk needs is granted by no kept role.' }),
    neededFunctions: t.exposeStringList('neededFunctions', { description: 'The functions the risk needs.' }),
    missingFunctions: t.exposeStringList('missingFunctions', { description: 'Of those, functions no kept role grants.' }),
    removedRoles: t.exposeStringList('removedRoles', { description: 'The roles the scenario took away from the user.' }),
    tableComparison: t.field({
      type: TableComparison,
      description: `At most ${simulation.TABLE_LIMIT} rows per table (the counts are complete).`,
      resolve: (r) => r.tableComparison,
    }),
    engine: t.field({
      type: EngineAnswer,
      nullable: true,
      description:
        'When a loaded system extract holds the user: the engine’s answer (the items above are then its rows of the risk). Null when the simulation answered from the imported rows.',
      resolve: (r) => r.engine,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it ran.' }),
  }),
});

/** A stored run is a Node (administrators, as simulationRuns): node(id:) answers null to anyone else. */
const SimulationRun = builder.node(builder.objectRef<simulation.SimulationRun>('SimulationRun'), {
  description: 'A stored simulation run.',
  id: { description: 'The run’s global id, as node(id:) reads it back.', resolve: (r) => r.id },
  authScopes: { admin: true },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'scenarioCount' in v && 'runBy' in v,
  loadMany: (ids, ctx) => simulation.simulationsById(ctx.caller!, ids),
  fields: (t) => ({
    runId: t.exposeString('id', { description: 'Its id (the REST id; `id` is the global one).' }),
    userId: t.exposeString('userId', { description: 'The user id simulated.' }),
    riskId: t.exposeString('riskId', { description: 'The access risk id simulated.' }),
    compositeRolesOnly: t.exposeBoolean('compositeRolesOnly', { description: 'Run on composite roles only.' }),
    match: t.exposeBoolean('match', { nullable: true, description: 'The original and simulated item counts were equal (null: not recorded).' }),
    scenarioCount: t.exposeInt('scenarioCount', { description: 'How many roles it changed.' }),
    runBy: t.exposeString('runBy', { description: 'Who ran it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the simulation was run.' }),
  }),
});

const PickerOption = builder.objectRef<simulation.PickerOption>('SimulationOption').implement({
  description: 'A value to pick in the simulation’s pickers.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The value to send.' }),
    label: t.exposeString('label', { description: 'How to show it.' }),
  }),
});

const WhatIfUser = builder.objectRef<whatIf.WhatIfUser>('RoleWhatIfUser').implement({
  description: 'One user who holds the role.',
  fields: (t) => ({
    userId: t.exposeString('userId', { description: 'The user id in the source system.' }),
    userName: t.exposeString('userName', { description: 'The user’s name.' }),
    risksHeld: t.exposeInt('risksHeld', { description: 'Risk ids they hold now.' }),
    risksLost: t.exposeInt('risksLost', { description: 'Of those, risk ids they would lose.' }),
    redBefore: t.exposeBoolean('redBefore', { description: 'They are red now.' }),
    redAfter: t.exposeBoolean('redAfter', { description: 'They would still be red.' }),
  }),
});

const RoleWhatIf = builder.objectRef<whatIf.RoleWhatIf>('RoleWhatIf').implement({
  description: 'What removing a composite role from everyone would change, from the loaded data.',
  fields: (t) => ({
    compositeBusinessRole: t.exposeString('compositeBusinessRole', { description: 'The role removed.' }),
    usersAffected: t.exposeInt('usersAffected', { description: 'Users who hold it.' }),
    risksLost: t.exposeInt('risksLost', { description: 'Risks (user and risk id) that would go.' }),
    usersLosingRisks: t.exposeInt('usersLosingRisks', { description: 'Of those, users who would lose at least one risk.' }),
    usersTurningGreen: t.exposeInt('usersTurningGreen', { description: 'Of those, users who would turn from red to green.' }),
    users: t.field({ type: [WhatIfUser], description: `At most ${whatIf.WHAT_IF_USER_LIMIT}.`, resolve: (r) => r.users }),
  }),
});

const ScenarioInput = builder.inputType('SimulationScenarioInput', {
  description: 'One role of a simulation and what to do with it.',
  fields: (t) => ({
    riskId: t.string({ description: 'The risk id it applies to (defaults to the simulated one).' }),
    roleProfile: t.string({ required: true, description: 'The role: a composite role or a role profile of the user.' }),
    action: t.field({
      type: ScenarioActionEnum,
      required: true,
      description: 'RETAIN keeps the role; REMOVE takes it away; ADD gives it (needs the user’s system data loaded).',
    }),
    system: t.string({ description: 'The system the change applies to (the engine’s answer only); left out, every system of the user where the role exists.' }),
  }),
});

builder.queryFields((t) => ({
  simulationRisks: t.field({
    type: [PickerOption],
    description: `The access risks of a user (id and description), for the simulation's risk picker; for a user of a loaded extract, also the enabled risks of the active rule sets. A picker list bounded by \`limit\` (20 when left out, at most 50), not a connection.`,
    authScopes: { admin: true },
    args: {
      userId: t.arg.string({ required: true, description: 'The user id in the source system.' }),
      search: t.arg.string({ description: 'Part of the risk id or description.' }),
      limit: t.arg.int({ description: 'At most this many.' }),
    },
    resolve: (_root, args, ctx) => simulation.userRisks(ctx.caller!, args.userId, args.search, args.limit),
  }),
  simulationRoles: t.field({
    type: [PickerOption],
    description: `A user's composite roles and (unless compositeRolesOnly) role profiles, for the scenarios' role picker; for a user of a loaded extract, also the roles of their systems. A picker list bounded by \`limit\` (20 when left out, at most 50), not a connection.`,
    authScopes: { admin: true },
    args: {
      userId: t.arg.string({ required: true, description: 'The user id in the source system.' }),
      compositeRolesOnly: t.arg.boolean({ description: 'List only composite roles, not the role profiles under them.' }),
      search: t.arg.string({ description: 'Part of the role’s name.' }),
      limit: t.arg.int({ description: 'At most this many.' }),
    },
    resolve: (_root, args, ctx) =>
      simulation.userRoles(ctx.caller!, args.userId, { compositeOnly: args.compositeRolesOnly, search: args.search, limit: args.limit }),
  }),
  simulationExtractUsers: t.field({
    type: [PickerOption],
    description: `Users of the systems' loaded extracts (id and name) whose id or name contains the search, for the simulation's user picker: the engine answers their simulations. A picker list bounded by \`limit\` (20 when left out, at most 50), not a connection.`,
    authScopes: { admin: true },
    args: { search: t.arg.string({ description: 'Part of the user id or name.' }), limit: t.arg.int({ description: 'At most this many.' }) },
    resolve: (_root, args, ctx) => simulation.extractUsers(ctx.caller!, args.search, args.limit),
  }),
  compositeRoleNames: t.field({
    type: [PickerOption],
    description: `Composite role names containing the search, for the what-if picker. A picker list bounded by \`limit\` (20 when left out, at most 50), not a connection.`,
    authScopes: { admin: true },
    args: { search: t.arg.string({ description: 'Part of the role’s name.' }), limit: t.arg.int({ description: 'At most this many.' }) },
    resolve: (_root, args, ctx) => whatIf.searchCompositeRoles(ctx.caller!, args.search, args.limit),
  }),
  simulationRuns: t.field({
    type: [SimulationRun],
    description: `The latest stored simulation runs, newest first, with who ran them: a list bounded by \`limit\` (at most ${simulation.MAX_RECENT_RUNS}), not a connection.`,
    authScopes: { admin: true },
    args: { limit: t.arg.int({ description: 'At most this many, up to 100 (default 20).' }) },
    resolve: (_root, args, ctx) => simulation.recentSimulations(ctx.caller!, args.limit ?? 20),
  }),
  roleWhatIf: t.field({
    type: RoleWhatIf,
    description: 'What if this composite role were removed from everyone: users affected, risks lost, users turning green.',
    authScopes: { admin: true },
    args: { compositeBusinessRole: t.arg.string({ required: true, description: 'The composite role to remove.' }) },
    resolve: (_root, args, ctx) => whatIf.roleWhatIf(ctx.caller!, args.compositeBusinessRole),
  }),
}));

builder.mutationFields((t) => ({
  runSimulation: t.field({
    type: SimulationResult,
    description:
      'Runs a risk simulation and stores it with who ran it: from the access-analysis engine when a loaded system extract holds the user (engine is then filled), otherwise on the imported rows.',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      userId: t.arg.string({ required: true, description: 'The user id in the source system.' }),
      riskId: t.arg.string({ required: true, description: 'The access risk id simulated.' }),
      roleScenarios: t.arg({ type: [ScenarioInput], required: true, description: 'The roles and what to do with each.' }),
      compositeRolesOnly: t.arg.boolean({ description: 'Work on composite roles only, not role profiles.' }),
    },
    resolve: (_root, args, ctx) => simulation.runSimulation(ctx.caller!, args),
  }),
}));
