import { Button, Card, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { Add20Regular } from '@fluentui/react-icons';
import { Suspense, useState } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router';
import type { ApiTokensRouteQuery } from '../../__generated__/ApiTokensRouteQuery.graphql';
import { useAuth } from '../../auth/SessionProvider';
import { PageHeader } from '../../components/layout/PageHeader';
import { ApiTokenList, apiTokensConnectionId } from './ApiTokenList';
import { CreateApiTokenDialog } from './CreateApiTokenDialog';
import { TokenSettingsSwitch } from './TokenSettingsSwitch';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import type { ApiTokensPrepared } from './apiTokensLoader';

const query = graphql`
  query ApiTokensRouteQuery($all: Boolean!, $isAdmin: Boolean!, $count: Int!) {
    viewer {
      canCreateApiTokens
    }
    apiTokenSettings @include(if: $isAdmin) {
      ...TokenSettingsSwitch_settings
    }
    ...ApiTokenList_query @arguments(all: $all, count: $count)
  }
`;

const useStyles = makeStyles({
  card: {
    padding: 0,
    rowGap: 0,
  },
  settings: {
    marginBottom: tokens.spacingVerticalL,
  },
  loading: {
    paddingTop: tokens.spacingVerticalXXL,
    paddingBottom: tokens.spacingVerticalXXL,
  },
});

/**
 * API tokens for downstream tools: the viewer's own (administrators: every
 * user's, with the owner), creating one (the secret is shown once), revoking,
 * and for administrators the switch that lets users create their own.
 */
export default function ApiTokensRoute() {
  const styles = useStyles();
  const auth = useAuth();
  const isAdmin = auth.status === 'signedIn' && auth.viewer.role === 'ADMIN';
  const prepared = useLoaderData() as ApiTokensPrepared | null;
  const { queryRef } = usePreparedQuery<ApiTokensRouteQuery>(query, prepared?.query);

  const loading = <Spinner className={styles.loading} label="Loading API tokens..." />;
  if (queryRef == null) return loading;
  return (
    <Suspense fallback={loading}>
      <LoadedApiTokens queryRef={queryRef} isAdmin={isAdmin} />
    </Suspense>
  );
}

function LoadedApiTokens({ queryRef, isAdmin }: { queryRef: PreloadedQuery<ApiTokensRouteQuery>; isAdmin: boolean }) {
  const styles = useStyles();
  const data = usePreloadedQuery<ApiTokensRouteQuery>(query, queryRef);
  const [creating, setCreating] = useState(false);
  const canCreate = Boolean(data.viewer?.canCreateApiTokens);

  return (
    <>
      <PageHeader
        title="API Tokens"
        subtitle={
          isAdmin
            ? "Tokens let scripts and tools call the API as their owner. You see every user's tokens."
            : 'Tokens let your scripts and tools call the API as you.'
        }
        actions={
          canCreate ? (
            <Button appearance="primary" icon={<Add20Regular />} onClick={() => setCreating(true)}>
              Create Token
            </Button>
          ) : null
        }
      />
      {data.apiTokenSettings ? <TokenSettingsSwitch className={styles.settings} settings={data.apiTokenSettings} /> : null}
      <Card className={styles.card}>
        <ApiTokenList query={data} showOwner={isAdmin} />
      </Card>
      {creating ? <CreateApiTokenDialog connectionId={apiTokensConnectionId(isAdmin)} onClose={() => setCreating(false)} /> : null}
    </>
  );
}
