import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { BookSearch20Regular } from '@fluentui/react-icons';
import { Suspense, useState } from 'react';
import { graphql, usePreloadedQuery, useQueryLoader, type PreloadedQuery } from 'react-relay';
import type { RuleSetBrowserQuery } from '../../../__generated__/RuleSetBrowserQuery.graphql';
import { RuleSetRisks, RISKS_PAGE } from './RuleSetRisks';

const browserQuery = graphql`
  query RuleSetBrowserQuery($id: ID!, $count: Int!) {
    node(id: $id) {
      ...RuleSetRisks_ruleSet @alias(as: "ruleSet") @arguments(count: $count)
    }
  }
`;

const useStyles = makeStyles({
  surface: { maxWidth: 'min(960px, calc(100vw - 32px))', width: '100%' },
  content: { maxHeight: '70vh', overflowY: 'auto', display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

/**
 * Browse a rule set version: a button that loads the version's risks (the
 * query is prepared when it is pressed, before the dialog renders) and a
 * dialog listing them; opening a risk shows its functions, actions and
 * permissions.
 */
export function RuleSetBrowser({ id, label }: { id: string; label: string }) {
  const styles = useStyles();
  const [queryRef, loadQuery, dispose] = useQueryLoader<RuleSetBrowserQuery>(browserQuery);
  const [open, setOpen] = useState(false);
  const show = () => {
    loadQuery({ id, count: RISKS_PAGE }, { fetchPolicy: 'store-and-network' });
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    dispose();
  };
  return (
    <>
      <Button size="small" icon={<BookSearch20Regular />} onClick={show} aria-label={`Browse ${label}`}>
        Browse
      </Button>
      <Dialog open={open} onOpenChange={(_, d) => (d.open ? setOpen(true) : close())}>
        <DialogSurface className={styles.surface}>
          <DialogBody>
            <DialogTitle>{label}</DialogTitle>
            <DialogContent className={styles.content}>
              {queryRef ? (
                <Suspense fallback={<Spinner label="Loading the risks..." />}>
                  <Loaded queryRef={queryRef} label={label} />
                </Suspense>
              ) : null}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close}>
                Close
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}

function Loaded({ queryRef, label }: { queryRef: PreloadedQuery<RuleSetBrowserQuery>; label: string }) {
  const data = usePreloadedQuery<RuleSetBrowserQuery>(browserQuery, queryRef);
  // The fragment is aliased (it applies to a rule set only): it is there exactly when the node is one.
  const ruleSet = data.node?.ruleSet;
  return ruleSet ? <RuleSetRisks ruleSet={ruleSet} label={label} /> : <Text>This rule set version no longer exists.</Text>;
}
