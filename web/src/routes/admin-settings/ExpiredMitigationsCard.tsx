import {
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ShieldError24Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { ExpiredMitigationsCard_list$key } from '../../__generated__/ExpiredMitigationsCard_list.graphql';

/** Rows shown on the card; the total says how many more there are. */
const SHOWN = 20;

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  scroll: { overflowX: 'auto' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/**
 * Mitigations of the current period whose expiry date has passed.
 * When the next period is created they are not carried into it: their rows
 * are pending again (services/review/mitigations.ts).
 */
export function ExpiredMitigationsCard({ list }: { list: ExpiredMitigationsCard_list$key }) {
  const styles = useStyles();
  const data = useFragment(
    graphql`
      fragment ExpiredMitigationsCard_list on ExpiredMitigations {
        total
        items {
          riskRowId
          userId
          userName
          accessRiskId
          roleProfile
          mitigationControl
          mitigationExpiresAt
          reviewer
        }
      }
    `,
    list,
  );
  return (
    <Card className={styles.card}>
      <CardHeader image={<ShieldError24Regular />} header={<Text weight="semibold">Expired Mitigations</Text>} />
      {data.total === 0 ? (
        <Text>No mitigating control has expired in the current review period.</Text>
      ) : (
        <>
          <Text>
            {data.total} {data.total === 1 ? 'mitigation has' : 'mitigations have'} expired. They come back as pending in the next review period.
          </Text>
          <div className={styles.scroll}>
            <Table size="small" aria-label="Expired mitigations">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>User</TableHeaderCell>
                  <TableHeaderCell>Risk</TableHeaderCell>
                  <TableHeaderCell>Control</TableHeaderCell>
                  <TableHeaderCell>Expired</TableHeaderCell>
                  <TableHeaderCell>Reviewer</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.items.slice(0, SHOWN).map((m) => (
                  <TableRow key={`${m.riskRowId}:${m.reviewer}`}>
                    <TableCell>{m.userName || m.userId}</TableCell>
                    <TableCell>
                      {m.accessRiskId} · {m.roleProfile}
                    </TableCell>
                    <TableCell>{m.mitigationControl}</TableCell>
                    <TableCell>{String(m.mitigationExpiresAt).slice(0, 10)}</TableCell>
                    <TableCell>{m.reviewer}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          {data.total > SHOWN ? <Caption1 className={styles.muted}>The first {SHOWN} are shown.</Caption1> : null}
        </>
      )}
    </Card>
  );
}
