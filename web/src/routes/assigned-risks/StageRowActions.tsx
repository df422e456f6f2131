// The actions of a row of My Assigned Risks at a later stage of a
// multi-stage period: 'Confirm' or 'Overturn' instead of Retain / Remove
// (the earlier decisions beside it are EarlierDecisions'). The server refuses an overturn (a
// decision other than the one the stage before passed on) without a comment
// (services/stages/stage-reviews.ts); the same rule asks for the comment here
// before anything is sent, naming the decision it overturns.
import { useState } from 'react';
import { Button, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowRepeatAll16Regular, Checkmark16Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { StageRowActions_row$data, StageRowActions_row$key } from '../../__generated__/StageRowActions_row.graphql';
import { decisionLabel } from '../../domain/risks/riskDisplay';
import { DecisionDetailsDialog } from '../../domain/risks/DecisionDialogs';
import { ChangeDecisionMenu } from '../../domain/risks/ChangeDecisionMenu';
import type { Decision, DecisionDetails } from '../../domain/risks/useSaveDecisions';

const useStyles = makeStyles({
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
  muted: { color: tokens.colorNeutralForeground3 },
});

const rowFragment = graphql`
  fragment StageRowActions_row on RiskRow {
    stage
    myDecision
    previousDecisions {
      stage
      decision
      reviewerName
      reviewerEmail
    }
  }
`;

type Row = StageRowActions_row$data;

/** The stage before's decisions, which the row's decision confirms or overturns; the one to confirm is the latest of them. */
function passedOn(r: Row) {
  const before = r.previousDecisions.filter((d) => d.stage === r.stage - 1);
  const confirm = (before[before.length - 1]?.decision ?? null) as Decision | null;
  const overturns = (d: Decision) => before.some((b) => b.decision !== d);
  const overturnTo: Decision = confirm === 'REMOVE' ? 'RETAIN' : 'REMOVE';
  return { before, confirm, overturns, overturnTo };
}

/**
 * 'Confirm' (the decision passed on) and 'Overturn' (the other one, with a
 * required comment) on a later-stage row; 'Change' once decided, 'Locked'
 * once the stage is submitted. `decide` saves (AssignedRiskRow's save).
 */
export function StageRowActions({
  row,
  editable,
  label,
  busy,
  decide,
}: {
  row: StageRowActions_row$key;
  editable: boolean;
  label: string;
  busy: boolean;
  decide: (d: Decision, details?: DecisionDetails) => void;
}) {
  const styles = useStyles();
  const r = useFragment(rowFragment, row);
  const { before, confirm, overturns, overturnTo } = passedOn(r);
  const [asking, setAsking] = useState<Decision | null>(null);
  const choose = (d: Decision) => (overturns(d) ? setAsking(d) : decide(d));
  const whose = before.map((b) => `${decisionLabel(b.decision)} by ${b.reviewerName || b.reviewerEmail}`).join('; ');
  const dialog = asking ? (
    <DecisionDetailsDialog
      decision={asking}
      count={1}
      intro={`Overturning stage ${r.stage - 1}'s decision (${whose}) needs a comment: say why you decide ${decisionLabel(asking)} instead.`}
      busy={busy}
      onConfirm={(details) => {
        decide(asking, details);
        setAsking(null);
      }}
      onClose={() => setAsking(null)}
    />
  ) : null;
  if (r.myDecision != null && !editable) return <Caption1 className={styles.muted}>Locked</Caption1>;
  if (r.myDecision == null) {
    return (
      <div className={styles.actions}>
        {confirm ? (
          <Button
            size="small"
            icon={<Checkmark16Regular />}
            disabled={!editable}
            aria-label={`Confirm ${decisionLabel(confirm)} for ${label}`}
            onClick={() => choose(confirm)}
          >
            Confirm
          </Button>
        ) : null}
        <Button
          size="small"
          icon={<ArrowRepeatAll16Regular />}
          disabled={!editable}
          aria-label={`Overturn to ${decisionLabel(overturnTo)} for ${label}`}
          onClick={() => choose(overturnTo)}
        >
          Overturn
        </Button>
        {dialog}
      </div>
    );
  }
  return (
    <>
      <ChangeDecisionMenu
        label={label}
        items={[
          ...(confirm
            ? [
                {
                  key: 'confirm',
                  label: `Confirm (${decisionLabel(confirm)})`,
                  icon: <Checkmark16Regular />,
                  current: r.myDecision === confirm,
                  onSelect: () => choose(confirm),
                },
              ]
            : []),
          {
            key: 'overturn',
            label: `Overturn (${decisionLabel(overturnTo)})`,
            icon: <ArrowRepeatAll16Regular />,
            current: r.myDecision === overturnTo,
            onSelect: () => choose(overturnTo),
          },
        ]}
      />
      {dialog}
    </>
  );
}
