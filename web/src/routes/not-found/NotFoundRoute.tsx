import { Body1, makeStyles, tokens } from '@fluentui/react-components';
import { ErrorCircle24Regular } from '@fluentui/react-icons';
import { MessagePage } from '../../components/layout/MessagePage';

const useStyles = makeStyles({
  hint: {
    color: tokens.colorNeutralForeground3,
  },
});

/** SPEC §2: the not-found screen. */
export default function NotFoundRoute({ inShell = false }: { inShell?: boolean }) {
  const styles = useStyles();
  return (
    <MessagePage icon={<ErrorCircle24Regular aria-hidden />} title="404 Page Not Found" inShell={inShell}>
      <Body1 className={styles.hint}>Did you forget to add the page to the router?</Body1>
    </MessagePage>
  );
}
