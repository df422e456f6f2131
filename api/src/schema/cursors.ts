// What the graph's own keyset cursors share: opaque base64 text of a fixed
// shape, and one answer to a cursor that is not of the list it was given to.
import { decodeBase64, encodeBase64 } from '@pothos/core';
import { ValidationError } from '../core/errors.js';
import { builder } from './builder.js';

/** A cursor for `text` (a list's prefix and its key parts, which `shape` reads back). */
export const encodeCursor = (text: string) => encodeBase64(text);

/** The parts of a cursor of the list whose cursors match `shape`, or BAD_USER_INPUT naming the argument. */
export function decodeCursor(cursor: string, shape: RegExp, name: 'after' | 'before'): RegExpExecArray {
  let m: RegExpExecArray | null = null;
  try {
    m = shape.exec(decodeBase64(cursor));
  } catch {
    m = null;
  }
  if (!m) throw new ValidationError(`'${name}' is not a cursor of this list (pass an edge's cursor or a pageInfo cursor it gave)`, name);
  return m;
}

type ConnectionFields = PothosSchemaTypes.ObjectFieldBuilder<
  PothosSchemaTypes.ExtendDefaultTypes<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never>,
  object
>;

/** A connection's `totalCount` that its resolver gives as a function: counted only when asked for. */
export const lazyTotalCount = {
  fields: (c: ConnectionFields) => ({
    totalCount: c.int({ resolve: (conn) => (conn as unknown as { totalCount: () => Promise<number> }).totalCount() }),
  }),
};
