import { Button, Card, CardHeader, Field, Input, MessageBar, MessageBarBody, Spinner, Subtitle2, Caption1 } from '@fluentui/react-components';
import { ArrowUpload20Regular, BookDatabase24Regular } from '@fluentui/react-icons';
import { useState, type FormEvent } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { RuleSetsPanel_query$key } from '../../__generated__/RuleSetsPanel_query.graphql';
import { ListEmpty, ListTable } from '../../components/lists/ListTable';
import { formatCount } from '../../components/layout/StatTile';
import { useNotify } from '../../components/forms/toast';
import { useIsMobile } from '../../components/layout/useMediaQuery';
import { isZip, postRuleSet } from './accessClient';
import { usePanelStyles } from './panelStyles';
import { useZipFile } from './useZipFile';
import { RuleSetRow, RULE_SET_COLUMNS } from './RuleSetRow';

/** '1 risk', '2 risks'. */
const counted = (n: number, noun: string) => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;

/** Rule sets: upload a .zip (an existing name makes its next version), every version listed, one active per name. */
export function RuleSetsPanel({ query, refetch }: { query: RuleSetsPanel_query$key; refetch: () => void }) {
  const styles = usePanelStyles();
  const isMobile = useIsMobile();
  const notify = useNotify();
  const data = useFragment(
    graphql`
      fragment RuleSetsPanel_query on Query {
        accessRuleSets {
          id
          ...RuleSetRow_ruleSet
        }
      }
    `,
    query,
  );
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const zip = useZipFile(() => setError(null));
  const { file } = zip;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setError('Choose the rule set’s .zip file.');
    if (!isZip(file)) return setError('A rule set is a .zip of CSV files.');
    setBusy(true);
    setError(null);
    const result = await postRuleSet(file, name.trim());
    setBusy(false);
    if (!result.ok) {
      setError(result.failure.message);
      notify({ title: 'Rule Set Refused', description: result.failure.message, intent: 'error' });
      return;
    }
    const s = result.body;
    notify({
      title: 'Rule Set Uploaded',
      description: `${s.name} version ${s.version}: ${counted(s.risks, 'risk')}, ${counted(s.functions, 'function')}.`,
      intent: 'success',
    });
    setName('');
    zip.clear();
    refetch();
  };

  return (
    <section className={styles.panel} aria-label="Rule Sets">
      <Card className={styles.card}>
        <CardHeader
          header={
            <Subtitle2 as="h2" className={styles.title}>
              Upload Rule Set
            </Subtitle2>
          }
          description={
            <Caption1 className={styles.muted}>
              A .zip of CSV files: risks, risk_functions, functions, function_actions, function_permissions (business_processes optional). A name that exists
              makes its next version.
            </Caption1>
          }
        />
        <form className={styles.form} onSubmit={submit} noValidate>
          <Field label="Name (optional)" hint="Left empty, the file’s name">
            <Input value={name} onChange={(_, d) => setName(d.value)} maxLength={200} />
          </Field>
          <Field label="Rule set file (.zip)" required>
            {(props) => <input {...props} {...zip.inputProps} className={styles.file} />}
          </Field>
          <div className={styles.actions}>
            <Button type="submit" appearance="primary" icon={busy ? <Spinner size="tiny" /> : <ArrowUpload20Regular />} disabled={busy}>
              {busy ? 'Uploading...' : 'Upload Rule Set'}
            </Button>
          </div>
        </form>
        {error ? (
          <MessageBar intent="error">
            <MessageBarBody>{error}</MessageBarBody>
          </MessageBar>
        ) : null}
      </Card>
      <Card className={styles.listCard}>
        <Subtitle2 as="h2" className={styles.listHeader}>
          Rule Set Versions
        </Subtitle2>
        <ListTable
          label="Rule set versions"
          columns={RULE_SET_COLUMNS}
          asCards={isMobile}
          emptyAlone
          rows={data.accessRuleSets.map((s) => (
            <RuleSetRow key={s.id} ruleSet={s} />
          ))}
          empty={<ListEmpty icon={<BookDatabase24Regular />} title="No rule sets yet" description="Upload a rule set to analyse access against it." />}
        />
      </Card>
    </section>
  );
}
