import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { NewSinceBadge_row$key } from '../../__generated__/NewSinceBadge_row.graphql';
import { formatDate } from './riskDisplay';

const useStyles = makeStyles({
  badge: { marginLeft: tokens.spacingHorizontalXS, whiteSpace: 'nowrap' },
});

/** 'New since <date>' on a row that joined the active period after it began (an upload or analysis run during the period); nothing otherwise. */
export function NewSinceBadge({ row }: { row: NewSinceBadge_row$key }) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment NewSinceBadge_row on RiskRow {
        newSince
      }
    `,
    row,
  );
  if (!r.newSince) return null;
  return (
    <Badge className={styles.badge} appearance="tint" shape="rounded" size="small" color="brand">
      New since {formatDate(r.newSince)}
    </Badge>
  );
}
