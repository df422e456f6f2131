import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  dot: {
    display: 'inline-block',
    flexShrink: 0,
    width: '10px',
    height: '10px',
    borderRadius: tokens.borderRadiusCircular,
  },
  decided: { backgroundColor: tokens.colorPaletteGreenBackground3 },
  pending: { backgroundColor: tokens.colorPaletteRedBackground3 },
});

/** The composite view's status dot: green when the viewer has decided everything under it, red otherwise. */
export function DetailedReviewStatusDot({ decided, className }: { decided: boolean; className?: string }) {
  const styles = useStyles();
  const label = decided ? 'All decided' : 'Decisions pending';
  return (
    <span
      className={mergeClasses(styles.dot, decided ? styles.decided : styles.pending, className)}
      role="img"
      aria-label={label}
      title={label}
    />
  );
}
