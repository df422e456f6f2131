// The pickers' server lookups over the loaded data (first matches only).
import { graphql } from 'react-relay';
import { fetchQuery, type Environment } from 'relay-runtime';
import type { lookupsUsersQuery } from '../../__generated__/lookupsUsersQuery.graphql';
import type { lookupsRisksQuery } from '../../__generated__/lookupsRisksQuery.graphql';
import type { lookupsRolesQuery } from '../../__generated__/lookupsRolesQuery.graphql';
import type { lookupsCompositeRolesQuery } from '../../__generated__/lookupsCompositeRolesQuery.graphql';
import type { OptionLookup, PickerOption } from '../../components/lists/SearchCombobox';

/** Options per lookup. */
export const LOOKUP_SIZE = 20;

const usersQuery = graphql`
  query lookupsUsersQuery($search: String, $first: Int!) {
    compositeUsers(first: $first, search: $search) {
      edges {
        node {
          userId
          userName
        }
      }
    }
    simulationExtractUsers(search: $search, limit: $first) {
      value
      label
    }
  }
`;
const risksQuery = graphql`
  query lookupsRisksQuery($userId: String!, $search: String, $limit: Int!) {
    simulationRisks(userId: $userId, search: $search, limit: $limit) {
      value
      label
    }
  }
`;
const rolesQuery = graphql`
  query lookupsRolesQuery($userId: String!, $compositeRolesOnly: Boolean!, $search: String, $limit: Int!) {
    simulationRoles(userId: $userId, compositeRolesOnly: $compositeRolesOnly, search: $search, limit: $limit) {
      value
      label
    }
  }
`;
const compositeRolesQuery = graphql`
  query lookupsCompositeRolesQuery($search: String, $limit: Int!) {
    compositeRoleNames(search: $search, limit: $limit) {
      value
      label
    }
  }
`;

const failed = (what: string) => (e: unknown) => console.error(`Failed to look up ${what}`, e);

export function userLookup(environment: Environment): OptionLookup {
  return (search, done) =>
    fetchQuery<lookupsUsersQuery>(environment, usersQuery, { search: search || null, first: LOOKUP_SIZE }, { fetchPolicy: 'network-only' }).subscribe({
      // Users of the loaded data, then those only a loaded system extract holds (the engine answers for them).
      next: (d) => {
        const loaded = d.compositeUsers.edges.map((e): PickerOption => ({ value: e.node.userId, label: e.node.userName }));
        const known = new Set(loaded.map((o) => o.value));
        done([...loaded, ...d.simulationExtractUsers.filter((o) => !known.has(o.value))].slice(0, LOOKUP_SIZE));
      },
      error: (e: unknown) => {
        failed('users')(e);
        done([]);
      },
    });
}

export function riskLookup(environment: Environment, userId: string): OptionLookup {
  return (search, done) =>
    fetchQuery<lookupsRisksQuery>(environment, risksQuery, { userId, search: search || null, limit: LOOKUP_SIZE }, { fetchPolicy: 'network-only' }).subscribe({
      next: (d) => done(d.simulationRisks),
      error: (e: unknown) => {
        failed('risks')(e);
        done([]);
      },
    });
}

export function roleLookup(environment: Environment, userId: string, compositeRolesOnly: boolean): OptionLookup {
  return (search, done) =>
    fetchQuery<lookupsRolesQuery>(
      environment,
      rolesQuery,
      { userId, compositeRolesOnly, search: search || null, limit: LOOKUP_SIZE },
      { fetchPolicy: 'network-only' },
    ).subscribe({
      next: (d) => done(d.simulationRoles),
      error: (e: unknown) => {
        failed('roles')(e);
        done([]);
      },
    });
}

export function compositeRoleLookup(environment: Environment): OptionLookup {
  return (search, done) =>
    fetchQuery<lookupsCompositeRolesQuery>(
      environment,
      compositeRolesQuery,
      { search: search || null, limit: LOOKUP_SIZE },
      { fetchPolicy: 'network-only' },
    ).subscribe({
      next: (d) => done(d.compositeRoleNames),
      error: (e: unknown) => {
        failed('composite roles')(e);
        done([]);
      },
    });
}
