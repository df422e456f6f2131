// The order of the lists people sort (users, uploads, periods, notifications,
// tokens, submissions, assignments): `orderBy: { field, direction }`, one
// input per list. The list's unique key always ends the order, so rows with
// equal values keep one order and every cursor stays where it was.
import { builder } from './builder.js';

type Direction = 'asc' | 'desc';

export const OrderDirectionEnum = builder.enumType('OrderDirection', {
  description: 'Which way a list is sorted.',
  values: {
    ASC: { value: 'asc', description: 'Smallest, oldest or A first.' },
    DESC: { value: 'desc', description: 'Largest, newest or Z first.' },
  } as const,
});

/** A sortable field of a list: its columns (in order) and what it means. */
export type OrderField = { columns: readonly string[]; description: string };

/**
 * The `orderBy` argument of one list (`<list>Order` input, `<list>OrderField` enum)
 * and the Prisma order it stands for; `fallback` is the list's order without one.
 */
export function listOrder<F extends string>(
  list: string,
  what: string,
  fields: Record<F, OrderField>,
  fallback: { field: NoInfer<F>; direction: Direction },
  key = 'id',
) {
  const names = Object.keys(fields) as F[];
  const FieldEnum = builder.enumType(`${list}OrderField`, {
    description: `What ${what} can be sorted by.`,
    values: Object.fromEntries(names.map((n) => [n, { value: n, description: fields[n].description }])) as Record<F, { value: F; description: string }>,
  });
  const Input = builder.inputType(`${list}Order`, {
    description: `How to sort ${what}.`,
    fields: (t) => ({
      field: t.field({ type: FieldEnum, required: true, description: 'The field to sort by.' }),
      direction: t.field({ type: OrderDirectionEnum, description: 'Which way; ascending when left out.' }),
    }),
  });
  /** The Prisma `orderBy` for the argument (or the fallback), ending with the unique key. */
  const orderBy = <O>(arg?: { field: F; direction?: Direction | null } | null): O[] => {
    const field = arg?.field ?? fallback.field;
    const direction = arg ? (arg.direction ?? 'asc') : fallback.direction;
    const columns = fields[field].columns.filter((c) => c !== key);
    return [...columns, key].map((c) => ({ [c]: direction }) as O);
  };
  return {
    arg: () =>
      builder.args((t) => ({
        orderBy: t.field({ type: Input, description: `The order (default: ${fallback.field} ${fallback.direction === 'asc' ? 'ASC' : 'DESC'}).` }),
      })),
    orderBy,
  };
}
