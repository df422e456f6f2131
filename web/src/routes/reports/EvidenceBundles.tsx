import { Body1, Button, Caption1, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { EvidenceBundles_period$key } from '../../__generated__/EvidenceBundles_period.graphql';
import { formatDateTime } from '../../components/format/dates';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  title: { margin: 0 },
  list: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS, margin: 0, paddingLeft: 0, listStyleType: 'none' },
  item: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground3 },
  code: {
    fontFamily: tokens.fontFamilyMonospace,
    backgroundColor: tokens.colorNeutralBackground3,
    paddingLeft: tokens.spacingHorizontalXXS,
    paddingRight: tokens.spacingHorizontalXXS,
  },
});

const STATUS_TEXT: Record<string, string> = {
  WRITING: 'being written (ready within a minute of the close: reload the page)',
  FAILED: 'could not be written',
  EXPIRED: 'deleted after its retention period',
};

/**
 * A period's signed evidence bundles, one per close (version 1, then one more
 * for each close after a reopen), each downloadable, with how an auditor
 * verifies one offline.
 */
export function EvidenceBundles({
  period,
  disabled,
  onDownload,
}: {
  period: EvidenceBundles_period$key;
  disabled: boolean;
  onDownload: (url: string, version: number) => void;
}) {
  const styles = useStyles();
  const data = useFragment(
    graphql`
      fragment EvidenceBundles_period on ReviewPeriod {
        status
        evidenceBundles {
          version
          status
          createdAt
          timestamped
          sha256
          downloadUrl
          errorMessage
        }
      }
    `,
    period,
  );
  return (
    <section className={styles.section} aria-label="Signed evidence bundles">
      <Subtitle2 as="h3" className={styles.title}>
        Signed Evidence Bundle
      </Subtitle2>
      {data.evidenceBundles.length === 0 ? (
        <Body1>{data.status === 'CLOSED' ? 'No bundle was written for this period.' : 'A signed bundle is written when the period closes.'}</Body1>
      ) : (
        <ul className={styles.list}>
          {data.evidenceBundles.map((b) => (
            <li key={b.version} className={styles.item}>
              {b.downloadUrl ? (
                <Button icon={<ArrowDownload20Regular />} disabled={disabled} onClick={() => onDownload(b.downloadUrl!, b.version)}>
                  Download Bundle v{b.version} (ZIP)
                </Button>
              ) : (
                <Body1>
                  Version {b.version}: {STATUS_TEXT[b.status] ?? b.status}
                  {b.errorMessage ? ` (${b.errorMessage})` : ''}
                </Body1>
              )}
              <Caption1 className={styles.muted}>
                closed {formatDateTime(b.createdAt)}
                {b.timestamped ? ', timestamped' : ''}
                {b.sha256 ? `, SHA-256 ${b.sha256.slice(0, 12)}…` : ''}
              </Caption1>
            </li>
          ))}
        </ul>
      )}
      <Body1>
        Each close keeps its own version; the bundle is signed with this installation&apos;s key. Verify it on any machine, without network access:{' '}
        <code className={styles.code}>npx grc-verify bundle.zip</code>. To check it against this installation&apos;s published key, save{' '}
        <a href="/.well-known/grc-evidence-key" download="grc-evidence-key.pem">
          the public key
        </a>{' '}
        and run <code className={styles.code}>npx grc-verify bundle.zip --key grc-evidence-key.pem</code>.
      </Body1>
    </section>
  );
}
