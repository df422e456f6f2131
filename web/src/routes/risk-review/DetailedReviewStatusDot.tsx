import { ColorDot } from '../../components/riskDisplay';

/** The composite view's status dot: green when the viewer has decided everything under it, red otherwise. */
export function DetailedReviewStatusDot({ decided, className }: { decided: boolean; className?: string }) {
  const label = decided ? 'All decided' : 'Decisions pending';
  return <ColorDot color={decided ? 'green' : 'red'} label={label} title={label} className={className} />;
}
