import type { PreloadedQuery } from 'react-relay';
import questionRouteQuery, { type QuestionRouteQuery } from '../../__generated__/QuestionRouteQuery.graphql';
import { prepareQuery, type RouteSession } from '../../router/routeSession';

export type QuestionPrepared = { query: PreloadedQuery<QuestionRouteQuery> };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** No question has it: an address that names no question (not a uuid) shows 'Question not found'. */
const NO_QUESTION = '00000000-0000-0000-0000-000000000000';

/** The question of the address (/questions/<id>, the link of its notification): its database id. */
export function questionIdOf(url: URL): string {
  const id = /^\/questions\/([^/]+)/.exec(url.pathname)?.[1] ?? '';
  return UUID.test(id) ? id : NO_QUESTION;
}

/** The question with its row, for anyone signed in: the server answers null to all but its parties and administrators. */
export function prepareQuestion(session: RouteSession, url: URL): QuestionPrepared {
  return { query: prepareQuery<QuestionRouteQuery>(session, questionRouteQuery, { id: window.btoa(`ConsultQuestion:${questionIdOf(url)}`) }) };
}
