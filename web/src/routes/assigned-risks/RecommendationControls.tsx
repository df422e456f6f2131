// My Assigned Risks: show only the rows with one recommendation, and list the
// rows by recommendation (remove, review, retain first).
import { Field, makeStyles, Select, tokens } from '@fluentui/react-components';
import type { AssignedView } from './assignedRisksLoader';

const useStyles = makeStyles({
  box: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'end' },
  select: { minWidth: '150px' },
});

export function RecommendationControls({ view, onView }: { view: AssignedView; onView: (view: AssignedView) => void }) {
  const styles = useStyles();
  return (
    <div className={styles.box}>
      <Field label="Recommendation" size="small">
        <Select
          className={styles.select}
          size="small"
          value={view.recommendation}
          onChange={(_, d) => onView({ ...view, recommendation: d.value as AssignedView['recommendation'] })}
        >
          <option value="">All</option>
          <option value="REMOVE">Remove</option>
          <option value="REVIEW">Review</option>
          <option value="RETAIN">Retain</option>
        </Select>
      </Field>
      <Field label="Sort by" size="small">
        <Select className={styles.select} size="small" value={view.sort} onChange={(_, d) => onView({ ...view, sort: d.value as AssignedView['sort'] })}>
          <option value="ROW">Row order</option>
          <option value="RECOMMENDATION">Recommendation</option>
        </Select>
      </Field>
    </div>
  );
}
