import { makeStyles, Spinner, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  loading: {
    display: 'flex',
    justifyContent: 'center',
    paddingTop: tokens.spacingVerticalXXXL,
    paddingBottom: tokens.spacingVerticalXXXL,
  },
});

export function RouteLoading() {
  const styles = useStyles();
  return (
    <div className={styles.loading}>
      <Spinner label="Loading..." />
    </div>
  );
}
