// Descriptions of the structures Pothos generates from a field (connections,
// their edges and arguments, mutation result unions), written by rule from the
// field that returns them. Everything else is described where it is defined:
// types, fields, arguments, input fields and enum values in their domain files,
// and the parts the relay plugin generates (Node, node(id:), nodes(ids:),
// PageInfo) in builder.ts's relay options. A description on a definition always
// wins over the rule. api/test/graph/schema-descriptions.test.ts and
// graphql-schema-linter (npm run lint:graph) fail on anything left undescribed.
import { GraphQLObjectType, GraphQLUnionType, getNamedType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';

const CONNECTION_ARGS: Record<string, string> = {
  first: 'How many items to return from the start (or after `after`); at most 500.',
  last: 'How many items to return from the end (or before `before`); at most 500.',
  after: 'The cursor of an item (`pageInfo.endCursor` of the previous page): return the items after it.',
  before: 'The cursor of an item (`pageInfo.startCursor` of the next page): return the items before it.',
};

/** The generated structures, described from the field that returns them. */
function describeGenerated(schema: GraphQLSchema) {
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (!root) continue;
    for (const field of Object.values(root.getFields())) describeGeneratedOf(root.name, field);
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) describeGeneratedOf(type.name, field);
  }
}

function describeGeneratedOf(parent: string, field: GraphQLField<unknown, unknown>) {
  const type = getNamedType(field.type);
  const what = `\`${parent}.${field.name}\``;
  if (type instanceof GraphQLObjectType && type.name.endsWith('Connection') && type.getFields().edges) {
    for (const arg of field.args) arg.description ??= CONNECTION_ARGS[arg.name] ?? null;
    type.description ??= `One page of ${what}: its items (edges) and where the page is in the whole list (pageInfo).`;
    const f = type.getFields();
    f.edges!.description ??= 'The items of this page, in order, each with its cursor.';
    // A field may word its list's count itself (extensions.totalCountDescription), as the plugin generates that field.
    const count = field.extensions?.totalCountDescription;
    f.totalCount && (f.totalCount.description ??= typeof count === 'string' ? count : 'How many items the whole list has, over every page.');
    f.pageInfo &&
      (f.pageInfo.description ??= 'Where this page is in the whole list: its first and last cursors, and whether more items come before or after it.');
    const edge = getNamedType(f.edges!.type) as GraphQLObjectType;
    const node = getNamedType(edge.getFields().node!.type);
    edge.description ??= `One item of a page of ${what}, with its cursor.`;
    const e = edge.getFields();
    e.cursor!.description ??= 'Where this item is in the list: pass it as `after` (or `before`) to read the items after (before) it.';
    e.node!.description ??= node.description ?? `The ${node.name} itself.`;
  }
  if (type instanceof GraphQLUnionType && parent === 'Mutation' && type.name.endsWith('Result')) {
    type.description ??= `What \`${field.name}\` answers: its success (with the changed or created data), or an error to show (\`code\` and \`message\`; ValidationError names the field).`;
    for (const member of type.getTypes()) {
      if (!member.name.endsWith('Success')) continue;
      member.description ??= `\`${field.name}\` succeeded.`;
      const data = member.getFields().data;
      if (data) data.description ??= getNamedType(data.type).description ?? `What \`${field.name}\` changed or created.`;
    }
  }
}

/** Fills in the descriptions of the generated structures of a built schema (in place) and returns it. */
export function describeSchema(schema: GraphQLSchema): GraphQLSchema {
  describeGenerated(schema);
  return schema;
}
