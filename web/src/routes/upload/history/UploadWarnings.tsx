import { makeStyles, MessageBar, MessageBarBody, MessageBarTitle, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  body: {
    overflowWrap: 'anywhere',
  },
  list: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalL,
    maxHeight: '200px',
    overflowY: 'auto',
  },
});

/** The warnings of an upload that completed with warnings (columns not loaded, values not read), or nothing. */
export function UploadWarnings({ warnings }: { warnings: readonly string[] }) {
  const styles = useStyles();
  if (!warnings.length) return null;
  return (
    <MessageBar intent="warning" layout="multiline" aria-label="Warnings">
      <MessageBarBody className={styles.body}>
        <MessageBarTitle>Completed with warnings</MessageBarTitle>
        <ul className={styles.list}>
          {warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      </MessageBarBody>
    </MessageBar>
  );
}
