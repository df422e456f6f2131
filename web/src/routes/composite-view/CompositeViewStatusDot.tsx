import { ColorDot } from '../../domain/risks/riskDisplay';

/** The composite view's status dot: green when the viewer has decided everything under it, red otherwise. */
export function CompositeViewStatusDot({ decided, className }: { decided: boolean; className?: string }) {
  const label = decided ? 'All decided' : 'Decisions pending';
  return <ColorDot color={decided ? 'green' : 'red'} label={label} title={label} className={className} />;
}
