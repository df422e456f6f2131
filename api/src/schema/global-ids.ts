// Global IDs are decoded in one place, with their type checked: the type
// name must be a Node type of this schema (or the one a field expects) and
// the id part must have that type's form. Anything else is the caller's
// mistake and answers BAD_USER_INPUT, never an internal error.
import { decodeBase64 } from '@pothos/core';
import { GraphQLError } from 'graphql';
import { isUuid } from '../core/types.js';

const digits = (id: string) => /^\d{1,18}$/.test(id);
/** Composite-view keys: a JSON array of `length` strings. */
const key = (length: number) => (id: string) => {
  try {
    const v: unknown = JSON.parse(id);
    return Array.isArray(v) && v.length === length && v.every((x) => typeof x === 'string');
  } catch {
    return false;
  }
};

/** Every Node type of the schema and the form of its id (a test checks the list against the schema). */
export const NODE_ID_FORMATS: Readonly<Record<string, (id: string) => boolean>> = {
  RiskRow: digits,
  User: isUuid,
  ReviewPeriod: isUuid,
  ReviewPeriodTemplate: isUuid,
  DataUpload: isUuid,
  Submission: isUuid,
  AssignmentCriteria: isUuid,
  Notification: isUuid,
  ApiToken: isUuid,
  RemediationItem: isUuid,
  Reassignment: isUuid,
  ConsultQuestion: isUuid,
  ReviewDecision: isUuid,
  MappingProfile: isUuid,
  RiskAnalysis: isUuid,
  SimulationRun: isUuid,
  AiBulkProgress: isUuid,
  AccessRuleSet: isUuid,
  AccessExtract: isUuid,
  AccessAnalysis: isUuid,
  CompositeUser: (id) => id.length > 0,
  CompositeRiskGroup: key(2),
  CompositeRole: key(3),
};

export function invalidId(globalID: string, expected?: readonly string[]): GraphQLError {
  const what = expected?.length ? `the id of a ${expected.join(' or ')}` : 'a valid id';
  return new GraphQLError(`'${globalID}' is not ${what}`, { extensions: { code: 'BAD_USER_INPUT', http: { status: 200 } } });
}

/** Decodes a global id; `expected`, when given, names the types the caller accepts. */
export function decodeIDOrThrow(globalID: string, expected?: readonly string[]): { typename: string; id: string } {
  let text: string;
  try {
    text = decodeBase64(String(globalID));
  } catch {
    throw invalidId(globalID, expected);
  }
  const i = text.indexOf(':');
  const typename = text.slice(0, i);
  const id = text.slice(i + 1);
  const format = Object.prototype.hasOwnProperty.call(NODE_ID_FORMATS, typename) ? NODE_ID_FORMATS[typename] : undefined;
  if (i <= 0 || !format || !format(id) || (expected && !expected.includes(typename))) throw invalidId(globalID, expected);
  return { typename, id };
}
