import { Body1, Button, Caption1, Card, CardHeader, Field, makeStyles, ProgressBar, Select, Subtitle2, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, ArrowRight16Regular, ShieldCheckmark24Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { EvidenceCard_query$key } from '../../__generated__/EvidenceCard_query.graphql';
import { downloadFile, fileStamp } from '../../components/format/download';
import { restUrl } from '../../rest/client';
import { databaseIdOf } from '../../components/format/globalIds';
import { LinkButton } from '../../components/forms/LinkButton';
import { useNotify } from '../../components/forms/toast';
import { EvidenceBundles } from './EvidenceBundles';

const useStyles = makeStyles({
  card: { padding: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalM },
  title: { margin: 0 },
  icon: { color: tokens.colorBrandForeground1 },
  muted: { color: tokens.colorNeutralForeground3 },
  field: { maxWidth: '420px' },
  actions: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalS, rowGap: tokens.spacingVerticalS },
  progress: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS, maxWidth: '420px' },
});

type Download = { key: string; label: string; url: (periodId: string) => string; fallback: string; done: string };

const bundleDownload = (url: string, version: number): Download => ({
  key: `bundle-${version}`,
  label: `Download Bundle v${version} (ZIP)`,
  url: () => url,
  fallback: `evidence-bundle-v${version}.zip`,
  done: 'Evidence bundle has been downloaded',
});

const DOWNLOADS: Download[] = [
  {
    key: 'xlsx',
    label: 'Download Evidence (XLSX)',
    url: (periodId) => restUrl('/api/reports/evidence', { query: { periodId, format: 'xlsx' } }),
    fallback: 'evidence.xlsx',
    done: 'Evidence has been downloaded',
  },
  {
    key: 'csv',
    label: 'Download Evidence (CSV)',
    url: (periodId) => restUrl('/api/reports/evidence', { query: { periodId, format: 'csv' } }),
    fallback: 'evidence.csv',
    done: 'Evidence has been downloaded',
  },
  {
    key: 'remediation',
    label: 'Download Remediation List (CSV)',
    url: (periodId) => restUrl('/api/remediation', { query: { periodId, format: 'csv' } }),
    fallback: 'remediation.csv',
    done: 'Remediation list has been downloaded',
  },
];

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;

/**
 * Administrators: a review period's auditor evidence (XLSX or CSV; frozen once
 * the period is closed) and its remediation list (approved removals), with the
 * progress of a long download.
 */
export function EvidenceCard({ query }: { query: EvidenceCard_query$key }) {
  const styles = useStyles();
  const notify = useNotify();
  const data = useFragment(
    graphql`
      fragment EvidenceCard_query on Query {
        reviewPeriods(first: 20) {
          edges {
            node {
              id
              name
              status
              ...EvidenceBundles_period
            }
          }
        }
      }
    `,
    query,
  );
  const periods = data.reviewPeriods.edges.map((e) => e.node);
  const [chosen, setChosen] = useState<string>(() => (periods.find((p) => p.status === 'CLOSED') ?? periods[0])?.id ?? '');
  const [busy, setBusy] = useState<{ key: string; bytes: number } | null>(null);
  const chosenPeriod = periods.find((p) => p.id === chosen);

  const download = async (d: Download) => {
    const id = databaseIdOf(chosen, 'ReviewPeriod');
    if (!id) return;
    setBusy({ key: d.key, bytes: 0 });
    try {
      await downloadFile(d.url(id), `${fileStamp()}-${d.fallback}`, (bytes) => setBusy({ key: d.key, bytes }));
      notify({ title: 'Success', description: d.done, intent: 'success' });
    } catch (e) {
      notify({ title: 'Error', description: (e as Error).message || 'Download failed', intent: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card className={styles.card}>
      <CardHeader
        image={<ShieldCheckmark24Regular className={styles.icon} />}
        header={
          <Subtitle2 as="h2" className={styles.title}>
            Audit Evidence &amp; Remediation
          </Subtitle2>
        }
        description={<Caption1 className={styles.muted}>For auditors and for the people who revoke access</Caption1>}
        action={
          <LinkButton to="/reports/remediation" appearance="primary" icon={<ArrowRight16Regular />} iconPosition="after">
            Remediation List
          </LinkButton>
        }
      />
      {periods.length === 0 ? (
        <Body1>No review periods yet.</Body1>
      ) : (
        <>
          <Body1>
            The evidence holds a period&apos;s final decisions with who decided and approved them, its audit trail and its scope; it is frozen when the period
            closes, and each close is kept as a signed bundle. The remediation list holds the approved removals and their status.
          </Body1>
          <Field label="Review period" className={styles.field}>
            <Select value={chosen} onChange={(_, d) => setChosen(d.value)} disabled={busy != null}>
              {periods.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.status === 'CLOSED' ? 'Closed' : 'Active'})
                </option>
              ))}
            </Select>
          </Field>
          <div className={styles.actions}>
            {DOWNLOADS.map((d) => (
              <Button
                key={d.key}
                appearance={d.key === 'xlsx' ? 'primary' : 'secondary'}
                icon={<ArrowDownload20Regular />}
                disabled={busy != null || !chosen}
                onClick={() => download(d)}
              >
                {d.label}
              </Button>
            ))}
          </div>
          {chosenPeriod ? (
            <EvidenceBundles period={chosenPeriod} disabled={busy != null} onDownload={(url, version) => download(bundleDownload(url, version))} />
          ) : null}
          {busy ? (
            <div className={styles.progress} role="status" aria-live="polite">
              <ProgressBar aria-label="Download progress" />
              <Caption1>{busy.bytes ? `Downloading… ${megabytes(busy.bytes)} received` : 'Preparing the file…'}</Caption1>
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}
