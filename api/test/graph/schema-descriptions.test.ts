// Every part of the graph is described: the descriptions the
// definitions leave out come from one map (schema/descriptions-text.ts), which
// must name only what exists and is not described where it is defined; and the
// schema that is served leaves nothing undescribed (as `npm run lint:graph` checks
// on schema.graphql in CI).
import { describe, expect, it } from 'vitest';
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLObjectType,
  printSchema,
  lexicographicSortSchema,
  type GraphQLSchema,
} from 'graphql';
import { schema } from '../../src/schema/index.js';
import { builder } from '../../src/schema/builder.js';
import { describedByKey, describeSchema } from '../../src/schema/descriptions.js';
import { DESCRIPTIONS } from '../../src/schema/descriptions-text.js';

/** Every type, field, argument, input field and enum value without a description. */
function undescribed(s: GraphQLSchema): string[] {
  const missing: string[] = [];
  for (const t of Object.values(s.getTypeMap())) {
    if (t.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(t.name)) continue;
    if (!t.description) missing.push(t.name);
    if (t instanceof GraphQLObjectType || t instanceof GraphQLInterfaceType) {
      for (const f of Object.values(t.getFields())) {
        if (!f.description) missing.push(`${t.name}.${f.name}`);
        for (const a of f.args) if (!a.description) missing.push(`${t.name}.${f.name}(${a.name})`);
      }
    } else if (t instanceof GraphQLInputObjectType) {
      for (const f of Object.values(t.getFields())) if (!f.description) missing.push(`${t.name}.${f.name}`);
    } else if (t instanceof GraphQLEnumType) {
      for (const v of t.getValues()) if (!v.description) missing.push(`${t.name}.${v.name}`);
    }
  }
  return missing;
}

describe('schema descriptions', () => {
  it('the served schema describes every type, field, argument, input field and enum value', () => {
    expect(undescribed(schema)).toEqual([]);
  });

  it('every key of the map names a part of the schema that its definition leaves undescribed', () => {
    const bare = builder.toSchema({ sortSchema: true });
    const problems = Object.keys(DESCRIPTIONS).flatMap((key) => {
      const target = describedByKey(bare, key);
      if (!target) return [`${key}: names nothing in the schema`];
      if (target.description) return [`${key}: already described where it is defined`];
      return [];
    });
    expect(problems).toEqual([]);
  });

  it('no description just repeats its name', () => {
    const same = Object.entries(DESCRIPTIONS).filter(([key, text]) => {
      const name = key.replace(/.*[.(]/, '').replace(/\)$/, '');
      return text.replace(/[^a-z]/gi, '').toLowerCase() === name.replace(/[^a-z]/gi, '').toLowerCase();
    });
    expect(same).toEqual([]);
  });

  it('a description on the definition wins over the map', () => {
    const s = builder.toSchema({ sortSchema: true });
    describeSchema(s, { User: 'from the map', 'Query.viewer': 'from the map' });
    expect(s.getType('User')!.description).toBe('from the map');
    expect(s.getQueryType()!.getFields().viewer!.description).toBe('The signed-in user, or null when not signed in.');
  });

  it('connections, their edges and mutation results are described from the field that returns them', () => {
    const printed = printSchema(lexicographicSortSchema(schema));
    expect(printed).toContain('One page of `Query.reviewPeriods`');
    expect(printed).toContain('One item of a page of `Query.reviewPeriods`, with its cursor.');
    expect(printed).toMatch(/What `approveSubmission` answers/);
    const periods = schema.getQueryType()!.getFields().reviewPeriods!;
    expect(periods.args.find((a) => a.name === 'first')!.description).toMatch(/at most 500/);
  });
});
