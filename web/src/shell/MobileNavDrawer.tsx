import { OverlayDrawer } from '@fluentui/react-components';
import type { Viewer } from '../auth/SessionProvider';
import { Sidebar } from './Sidebar';

/** The sidebar as a slide-over under 768 px: a chunk of its own, loaded when first opened, not with the first load. */
export function MobileNavDrawer({
  viewer,
  open,
  onOpenChange,
  className,
}: {
  viewer: Viewer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  className: string;
}) {
  return (
    <OverlayDrawer open={open} onOpenChange={(_, data) => onOpenChange(data.open)} position="start" className={className} aria-label="Navigation">
      <Sidebar viewer={viewer} onClose={() => onOpenChange(false)} onNavigate={() => onOpenChange(false)} />
    </OverlayDrawer>
  );
}
