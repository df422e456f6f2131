import { Body1, Button, Caption1, Card, CardHeader, makeStyles, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, DocumentTable24Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { downloadCsv, fileStamp } from '../../components/format/download';
import { restUrl } from '../../rest/client';

/** SPEC §7: the risk report (every row, all 31 columns plus review metadata). */
export const RISK_REPORT_URL = restUrl('/api/reports/risk-report');
import { useNotify } from '../../components/forms/toast';

const useStyles = makeStyles({
  cardTitle: { margin: 0 },
  card: { padding: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground3 },
  icon: { color: tokens.colorBrandForeground1 },
  button: { alignSelf: 'flex-start' },
});

/** SPEC §2: 'Reports & Actions' with the CSV risk report. */
export function ReportsCard() {
  const styles = useStyles();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setBusy(true);
    try {
      await downloadCsv(RISK_REPORT_URL, `risk-report-${fileStamp()}.csv`);
      notify({ title: 'Success', description: 'Risk report has been downloaded', intent: 'success' });
    } catch {
      notify({ title: 'Error', description: 'Failed to download risk report', intent: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className={styles.card}>
      <CardHeader
        image={<DocumentTable24Regular className={styles.icon} />}
        header={
          <Subtitle2 as="h2" className={styles.cardTitle}>
            Reports &amp; Actions
          </Subtitle2>
        }
        description={<Caption1 className={styles.muted}>Exports of the loaded risk data</Caption1>}
      />
      <Body1>
        The risk report holds every column of the loaded export, then the review columns: decision, comments, decision time, reviewer, submission and approval,
        review period, mitigation, approver comment and who the row is assigned to; one line per reviewer decision, saved as a timestamped CSV file.
      </Body1>
      <Button
        className={styles.button}
        appearance="primary"
        icon={busy ? <Spinner size="tiny" /> : <ArrowDownload20Regular />}
        disabled={busy}
        onClick={download}
      >
        Download Risk Report (CSV)
      </Button>
    </Card>
  );
}
