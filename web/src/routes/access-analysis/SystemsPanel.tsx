import { Button, Card, CardHeader, Caption1, Field, Input, MessageBar, MessageBarBody, Spinner, Subtitle2 } from '@fluentui/react-components';
import { ArrowUpload20Regular, Server24Regular } from '@fluentui/react-icons';
import { useState, type FormEvent } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { SystemsPanel_query$key } from '../../__generated__/SystemsPanel_query.graphql';
import { ListEmpty, ListTable } from '../../components/lists/ListTable';
import { useNotify } from '../../components/forms/toast';
import { useIsMobile } from '../../components/layout/useMediaQuery';
import { isZip, postExtract, SYSTEM_NAME } from './accessClient';
import { ExtractRow, EXTRACT_COLUMNS } from './ExtractRow';
import { usePanelStyles } from './panelStyles';
import { useZipFile } from './useZipFile';

/**
 * System data: load a system's access extract (.zip of SAP tables; its progress shows in its row),
 * and every extract, newest first: what it holds, when and by whom it was loaded and how old it
 * is, whether later analyses use it, and why a failed load failed.
 */
export function SystemsPanel({ query, refetch }: { query: SystemsPanel_query$key; refetch: () => void }) {
  const styles = usePanelStyles();
  const isMobile = useIsMobile();
  const notify = useNotify();
  const data = useFragment(
    graphql`
      fragment SystemsPanel_query on Query @argumentDefinitions(count: { type: "Int!" }) {
        accessExtracts(first: $count) {
          edges {
            node {
              id
              ...ExtractRow_extract
            }
          }
        }
      }
    `,
    query,
  );
  const [system, setSystem] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ system?: string; file?: string; form?: string }>({});
  const zip = useZipFile();
  const { file } = zip;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const name = system.trim();
    const found: typeof errors = {};
    if (!SYSTEM_NAME.test(name)) found.system = "A system name: letters, digits, '-', '_' or '.', 40 at most, starting with a letter or digit (e.g. PRD-ECC).";
    if (!file) found.file = 'Choose the extract’s .zip file.';
    else if (!isZip(file)) found.file = 'An extract is a .zip of the SAP tables.';
    setErrors(found);
    if (found.system || found.file || !file) return;
    setBusy(true);
    const result = await postExtract(name, file);
    setBusy(false);
    if (!result.ok) {
      const { message, field } = result.failure;
      setErrors(field === 'system' ? { system: message } : { form: message });
      notify({ title: 'Extract Refused', description: message, intent: 'error' });
      return;
    }
    notify({ title: 'Extract Loading', description: `${name}: the extract is loading; its progress shows below.`, intent: 'info' });
    zip.clear();
    refetch();
  };

  const extracts = data.accessExtracts.edges.map((e) => e.node);
  return (
    <section className={styles.panel} aria-label="System Data">
      <Card className={styles.card}>
        <CardHeader
          header={
            <Subtitle2 as="h2" className={styles.title}>
              Load System Data
            </Subtitle2>
          }
          description={
            <Caption1 className={styles.muted}>
              A .zip of the system’s SAP tables USR02, AGR_USERS, AGR_AGRS, AGR_1251 (USER_ADDR, AGR_TEXTS, USAGE optional). Once loaded it replaces the
              system’s previous extract for later analyses.
            </Caption1>
          }
        />
        <form className={styles.form} onSubmit={submit} noValidate>
          <Field label="System" required validationState={errors.system ? 'error' : 'none'} validationMessage={errors.system}>
            <Input value={system} placeholder="PRD-ECC" maxLength={40} onChange={(_, d) => setSystem(d.value)} />
          </Field>
          <Field label="Extract file (.zip)" required validationState={errors.file ? 'error' : 'none'} validationMessage={errors.file}>
            {(props) => <input {...props} {...zip.inputProps} className={styles.file} />}
          </Field>
          <div className={styles.actions}>
            <Button type="submit" appearance="primary" icon={busy ? <Spinner size="tiny" /> : <ArrowUpload20Regular />} disabled={busy}>
              {busy ? 'Sending...' : 'Load Extract'}
            </Button>
          </div>
        </form>
        {errors.form ? (
          <MessageBar intent="error">
            <MessageBarBody>{errors.form}</MessageBarBody>
          </MessageBar>
        ) : null}
      </Card>
      <Card className={styles.listCard}>
        <Subtitle2 as="h2" className={styles.listHeader}>
          Systems and Extracts
        </Subtitle2>
        <ListTable
          label="Systems and extracts"
          columns={EXTRACT_COLUMNS}
          asCards={isMobile}
          emptyAlone
          rows={extracts.map((x) => (
            <ExtractRow key={x.id} extract={x} onSettled={refetch} />
          ))}
          empty={<ListEmpty icon={<Server24Regular />} title="No system data yet" description="Load a system’s extract to analyse its access." />}
        />
      </Card>
    </section>
  );
}
