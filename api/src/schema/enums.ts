// The one convention for the graph's enums: GraphQL names are UPPER_CASE
// (RETAIN_MITIGATED, RISK_ID, LAST_30_DAYS) while the values the resolvers,
// the services, REST and the database see stay the SPEC's lower-case strings
// ('retain_mitigated', 'risk_id'). Pothos maps one to the other both ways, so
// nothing below the schema changes; api/test/graph/graph-enums.test.ts fails on a
// lower-case enum value in the printed schema.
import { builder } from './builder.js';

/** GraphQL's name of an internal value: retain_mitigated → RETAIN_MITIGATED, last30Days → LAST_30_DAYS. */
export function graphName(value: string): string {
  return value
    .replace(/([a-z])([A-Z0-9])/g, '$1_$2')
    .replace(/([0-9])([A-Za-z])/g, '$1_$2')
    .toUpperCase();
}

type ValueDescriptions<V extends string> = { readonly [K in V]: { readonly description?: string } };

/**
 * An enum whose GraphQL names are the UPPER_CASE forms of `values` and whose
 * internal values are `values` themselves. Each value is described either in
 * the map form of `values`, or, when `values` is a list (often a constant of
 * the services), in `descriptions`, which must name every value of the list.
 */
export function enumOf<const V extends string>(
  name: string,
  options: { description?: string; values: readonly V[] | ValueDescriptions<V>; descriptions?: { readonly [K in NoInfer<V>]: string } },
) {
  const given = options.values;
  const list: readonly V[] = Array.isArray(given) ? given : (Object.keys(given) as V[]);
  const described = Array.isArray(given) ? undefined : (given as ValueDescriptions<V>);
  const values = Object.fromEntries(list.map((v) => [graphName(v), { value: v, description: described?.[v].description ?? options.descriptions?.[v] }]));
  return builder.enumType(name, { description: options.description, values: values as Record<string, { value: V; description?: string }> });
}
