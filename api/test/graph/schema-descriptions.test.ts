// Every part of the graph is described, where it is defined: the schema as the
// definitions build it leaves out only the structures Pothos generates from a
// field (connections, edges, their arguments, mutation results), which
// schema/descriptions.ts describes by rule; and the schema that is served
// leaves nothing undescribed (as `npm run lint:graph` checks on schema.graphql in CI).
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
import { describeSchema } from '../../src/schema/descriptions.js';

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

  it('the definitions describe everything but the structures generated from a field', () => {
    const bare = builder.toSchema({ sortSchema: true });
    const connectionArgs = /\((first|last|after|before)\)$/;
    const generated = /^(\w+(Connection|Edge)|\w+Result|\w+Success)(\.|$)/;
    expect(undescribed(bare).filter((part) => !generated.test(part) && !connectionArgs.test(part))).toEqual([]);
  });

  it('no description just repeats its name', () => {
    const same: string[] = [];
    const check = (part: string, name: string, text: string | null | undefined) => {
      if (text && text.replace(/[^a-z]/gi, '').toLowerCase() === name.replace(/[^a-z]/gi, '').toLowerCase()) same.push(part);
    };
    for (const t of Object.values(schema.getTypeMap())) {
      if (t.name.startsWith('__')) continue;
      check(t.name, t.name, t.description);
      if (t instanceof GraphQLObjectType || t instanceof GraphQLInterfaceType) {
        for (const f of Object.values(t.getFields())) {
          check(`${t.name}.${f.name}`, f.name, f.description);
          for (const a of f.args) check(`${t.name}.${f.name}(${a.name})`, a.name, a.description);
        }
      } else if (t instanceof GraphQLInputObjectType) {
        for (const f of Object.values(t.getFields())) check(`${t.name}.${f.name}`, f.name, f.description);
      } else if (t instanceof GraphQLEnumType) {
        for (const v of t.getValues()) check(`${t.name}.${v.name}`, v.name, v.description);
      }
    }
    expect(same).toEqual([]);
  });

  it('a description on the definition wins over the rule', () => {
    const s = describeSchema(builder.toSchema({ sortSchema: true }));
    expect(s.getType('RiskRowConnection')!.description).toMatch(/^One page of risk rows/);
    const remediation = s.getType('QueryRemediationItemsConnection') as GraphQLObjectType;
    expect(remediation.getFields().totalCount!.description).toBe('How many remediation items match the filter.');
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
