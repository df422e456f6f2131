// Access rule sets in GraphQL (administrators): the versions of each name,
// which one is active, and activating one. Uploading stays REST
// (POST /api/rule-sets): a file is not a GraphQL argument here.
import { builder } from '../builder.js';
import * as ruleSets from '../../services/access/rule-sets.js';

export const AccessRuleSetNode = builder.prismaNode('AccessRuleSet', {
  id: { field: 'id', description: 'The rule set version’s global id.' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  authScopes: { admin: true },
  description: 'One version of an access rule set: risks, their functions, and the actions and permissions that make up each function.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The rule set’s name; every upload of a name is a new version of it.' }),
    version: t.exposeInt('version', { description: '1 for the first upload of the name, then one more per upload.' }),
    active: t.exposeBoolean('active', { description: 'Whether this is the version of its name that counts (one per name).' }),
    risks: t.exposeInt('risks', { description: 'Risks in this version.' }),
    functions: t.exposeInt('functions', { description: 'Functions in this version.' }),
    actions: t.exposeInt('actions', { description: 'Enabled function actions.' }),
    permissions: t.exposeInt('permissions', { description: 'Enabled function permissions.' }),
    uploadedBy: t.exposeString('uploadedBy', { nullable: true, description: 'Who uploaded it, as shown at the time.' }),
    uploadedAt: t.expose('uploadedAt', { type: 'DateTime', description: 'When it was uploaded.' }),
    versions: t.prismaField({
      type: ['AccessRuleSet'],
      description: 'Every version of this rule set’s name, newest first (this one included).',
      select: { name: true },
      resolve: (query, set, _args, ctx) => ctx.prisma.accessRuleSet.findMany({ ...query, where: { name: set.name }, orderBy: { version: 'desc' } }),
    }),
  }),
});

/** Rule sets are few (a name per programme, a version per change): the list is bounded, not paged. */
const MAX_LISTED_VERSIONS = 500;

builder.queryFields((t) => ({
  accessRuleSets: t.prismaField({
    type: ['AccessRuleSet'],
    description: `Access rule set versions by name, newest version first: at most ${MAX_LISTED_VERSIONS}.`,
    authScopes: { admin: true },
    args: {
      name: t.arg.string({ description: 'Only the versions of this name.' }),
      activeOnly: t.arg.boolean({ description: 'Only the active version of each name.' }),
    },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.accessRuleSet.findMany({
        ...query,
        where: { ...(args.name != null ? { name: args.name } : {}), ...(args.activeOnly ? { active: true } : {}) },
        orderBy: [{ name: 'asc' }, { version: 'desc' }],
        take: MAX_LISTED_VERSIONS,
      }),
  }),
}));

builder.mutationFields((t) => ({
  activateAccessRuleSet: t.prismaField({
    type: 'AccessRuleSet',
    description: 'Makes this version the active one of its name; the version active before stays readable.',
    authScopes: { admin: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: AccessRuleSetNode, description: 'The version to activate.' }) },
    resolve: async (query, _root, { id }, ctx) => {
      await ruleSets.activateRuleSet(ctx.caller!, id.id);
      return ctx.prisma.accessRuleSet.findUniqueOrThrow({ ...query, where: { id: id.id } });
    },
  }),
}));
