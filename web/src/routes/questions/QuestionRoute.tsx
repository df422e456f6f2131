import { makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { ArrowLeft20Regular, QuestionCircle24Regular } from '@fluentui/react-icons';
import { Suspense } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router';
import type { QuestionRouteQuery } from '../../__generated__/QuestionRouteQuery.graphql';
import { EmptyState } from '../../components/layout/EmptyState';
import { LinkButton } from '../../components/forms/LinkButton';
import { PageHeader } from '../../components/layout/PageHeader';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import type { QuestionPrepared } from './questionLoader';
import { QuestionDetails } from './QuestionDetails';

const query = graphql`
  query QuestionRouteQuery($id: ID!) {
    node(id: $id) {
      ...QuestionDetails_question @alias(as: "question")
    }
  }
`;

const useStyles = makeStyles({
  loading: { paddingTop: tokens.spacingVerticalXXL },
});

const BACK = (
  <LinkButton to="/notifications" appearance="subtle" icon={<ArrowLeft20Regular />}>
    Notifications
  </LinkButton>
);

/**
 * A consult question (reached from its notification's link): the question, the row it is
 * about (read-only) and, for the person asked, the answer box. Its parties and administrators only.
 */
export default function QuestionRoute() {
  const styles = useStyles();
  const prepared = useLoaderData() as QuestionPrepared | null;
  const { queryRef, refetch } = usePreparedQuery<QuestionRouteQuery>(query, prepared?.query);
  const loading = <Spinner className={styles.loading} label="Loading the question..." />;
  return (
    <>
      <PageHeader title="Question About a Risk" subtitle="A reviewer is not sure of a decision and asks for a view" actions={BACK} />
      {queryRef == null ? (
        loading
      ) : (
        <Suspense fallback={loading}>
          <LoadedQuestion queryRef={queryRef} onAnswered={refetch} />
        </Suspense>
      )}
    </>
  );
}

function LoadedQuestion({ queryRef, onAnswered }: { queryRef: PreloadedQuery<QuestionRouteQuery>; onAnswered: () => void }) {
  const data = usePreloadedQuery<QuestionRouteQuery>(query, queryRef);
  const question = data.node?.question;
  if (question == null) {
    return (
      <EmptyState
        icon={<QuestionCircle24Regular />}
        title="Question not found"
        heading="h2"
        description="It does not exist, or it was neither asked by you nor of you."
        framed
      />
    );
  }
  return <QuestionDetails question={question} onAnswered={onAnswered} />;
}
