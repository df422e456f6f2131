import { Caption1, Hamburger, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { ShieldCheckmark24Filled } from '@fluentui/react-icons';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type MouseEvent, type RefObject } from 'react';
import { Outlet, useLocation } from 'react-router';
import type { Viewer } from '../auth/SessionProvider';
import { NotificationBell } from '../domain/notifications/NotificationBell';
import { useSessionEnded } from '../auth/useSessionEnded';
import type { NotificationBellPrepared } from '../domain/notifications/notificationBellLoader';
import { ConnectionStatus } from './ConnectionStatus';
import { RiskDataPurgedListener } from './RiskDataPurgedListener';
import { MOBILE_QUERY, useIsMobile } from '../components/layout/useMediaQuery';
import { OnDemand } from '../components/layout/OnDemand';
import { useFocusKeeper } from './useFocusKeeper';
import { COLLAPSED_COOKIE } from '../boot/bootFrame';

// The sidebar is a chunk of its own: a phone shows it only in the drawer, when opened (so
// its code is not on a phone's first load); on a wide screen its code starts as soon as the shell's is in.
const sidebarCode = () => import('./Sidebar');
const Sidebar = lazy(() => sidebarCode().then((m) => ({ default: m.Sidebar })));
if (typeof window !== 'undefined' && !window.matchMedia(MOBILE_QUERY).matches) {
  sidebarCode().catch(() => {
    // React.lazy loads it again when the sidebar renders.
  });
}
const MobileNavDrawer = lazy(() => import('./MobileNavDrawer').then((m) => ({ default: m.MobileNavDrawer })));

const COLLAPSED_KEY = COLLAPSED_COOKIE;

const useStyles = makeStyles({
  shell: {
    display: 'flex',
    minHeight: '100vh',
    backgroundColor: tokens.colorNeutralBackground2,
  },
  aside: {
    position: 'sticky',
    top: 0,
    height: '100vh',
    flexShrink: 0,
    width: '264px',
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    transitionProperty: 'width',
    transitionDuration: tokens.durationNormal,
    transitionTimingFunction: tokens.curveEasyEase,
    overflow: 'hidden',
    '@media (prefers-reduced-motion: reduce)': {
      transitionDuration: '0.01ms',
    },
  },
  asideCollapsed: {
    width: '72px',
  },
  main: {
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    minWidth: 0,
  },
  topBar: {
    position: 'sticky',
    top: 0,
    zIndex: 1,
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    paddingTop: tokens.spacingVerticalS,
    paddingBottom: tokens.spacingVerticalS,
    paddingLeft: tokens.spacingHorizontalS,
    paddingRight: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  topBarDesktop: {
    justifyContent: 'flex-end',
    minHeight: '56px',
    boxSizing: 'border-box',
    paddingLeft: tokens.spacingHorizontalXXXL,
    paddingRight: tokens.spacingHorizontalXXL,
  },
  topBarEnd: {
    marginLeft: 'auto',
    display: 'flex',
    alignItems: 'center',
  },
  topBarLogo: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '32px',
    height: '32px',
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
  },
  topBarBrand: {
    display: 'flex',
    flexDirection: 'column',
  },
  topBarTitle: {
    fontWeight: tokens.fontWeightSemibold,
  },
  topBarSubtitle: {
    color: tokens.colorNeutralForeground3,
  },
  content: {
    flexGrow: 1,
    boxSizing: 'border-box',
    width: '100%',
    maxWidth: '1440px',
    marginLeft: 'auto',
    marginRight: 'auto',
    paddingTop: tokens.spacingVerticalXXL,
    paddingBottom: tokens.spacingVerticalXXL,
    paddingLeft: tokens.spacingHorizontalXXXL,
    paddingRight: tokens.spacingHorizontalXXXL,
    // Focused only by the skip link (tabIndex -1), which needs no ring around the whole screen.
    ':focus': {
      outlineStyle: 'none',
    },
  },
  contentMobile: {
    paddingTop: tokens.spacingVerticalL,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalL,
  },
  // The skip link: off screen until focused, then shown over the top-left corner.
  skipLink: {
    position: 'absolute',
    left: '-10000px',
    top: tokens.spacingVerticalS,
    zIndex: 2,
    paddingTop: tokens.spacingVerticalS,
    paddingBottom: tokens.spacingVerticalS,
    paddingLeft: tokens.spacingHorizontalM,
    paddingRight: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorBrandForegroundLink,
    boxShadow: tokens.shadow8,
    ':focus': {
      left: tokens.spacingHorizontalS,
    },
  },
  drawer: {
    width: '288px',
    maxWidth: '85vw',
  },
});

/**
 * When the signed-in page appears with nothing focused (just signed in, or just loaded), the
 * keyboard starts at the top of the page: 'Skip to content' is the first Tab stop. Without
 * this the browser goes on from where focus last was; after the forced Change Password dialog
 * (rendered after the page, and gone) that is past the page, so Tab reached the toasts'
 * Dismiss buttons first. Focusing the shell and letting go of it moves that starting point
 * without leaving anything focused or shown as focused.
 */
function useKeyboardStartsAtTop(shellRef: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const shell = shellRef.current;
    const active = document.activeElement;
    if (!shell || (active != null && active !== document.body)) return;
    shell.tabIndex = -1;
    shell.focus({ preventScroll: true });
    shell.blur();
    shell.removeAttribute('tabindex');
  }, [shellRef]);
}

/** Moves focus into the screen without a hash navigation (the router would see a new location). */
function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  document.getElementById('main-content')?.focus();
}

function readCollapsed(): boolean {
  try {
    return window.localStorage.getItem(COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/** The state in a cookie too: the server paints the page's frame before this code runs (boot/bootFrame.ts). */
function writeCollapsedCookie(collapsed: boolean) {
  document.cookie = `${COLLAPSED_COOKIE}=${collapsed ? 'true' : 'false'}; path=/; max-age=31536000; samesite=lax`;
}

/** The signed-in layout: sidebar (slide-over under 768 px) and the routed screen. */
export function AppShell({ viewer, prepared }: { viewer: Viewer; prepared: NotificationBellPrepared | null }) {
  const styles = useStyles();
  const isMobile = useIsMobile();
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  // A deactivation (or any end of the sessions elsewhere) signs this page out at once.
  useSessionEnded();
  // Keyboard focus is never dropped on the page body.
  useFocusKeeper('main-content');
  const shellRef = useRef<HTMLDivElement>(null);
  useKeyboardStartsAtTop(shellRef);

  const toggleCollapsed = useCallback(() => {
    setCollapsed((value) => {
      try {
        window.localStorage.setItem(COLLAPSED_KEY, String(!value));
      } catch {
        // ignore
      }
      return !value;
    });
  }, []);
  useEffect(() => writeCollapsedCookie(collapsed), [collapsed]);

  // Close the slide-over on navigation and when leaving the mobile layout.
  useEffect(() => setDrawerOpen(false), [pathname, isMobile]);

  const bell = <NotificationBell prepared={prepared?.bell} viewerId={viewer.id} isAdmin={viewer.role === 'ADMIN'} />;

  return (
    <div ref={shellRef} className={styles.shell}>
      <a className={styles.skipLink} href="#main-content" onClick={skipToContent}>
        Skip to content
      </a>
      {isMobile ? (
        <OnDemand open={drawerOpen}>
          <MobileNavDrawer viewer={viewer} open={drawerOpen} onOpenChange={setDrawerOpen} className={styles.drawer} />
        </OnDemand>
      ) : (
        <aside className={mergeClasses(styles.aside, collapsed && styles.asideCollapsed)}>
          <Suspense fallback={null}>
            <Sidebar viewer={viewer} collapsed={collapsed} onToggleCollapsed={toggleCollapsed} />
          </Suspense>
        </aside>
      )}
      <div className={styles.main}>
        {isMobile ? (
          <header className={styles.topBar}>
            <Hamburger onClick={() => setDrawerOpen(true)} aria-label="Open navigation" aria-expanded={drawerOpen} />
            <div className={styles.topBarLogo} aria-hidden>
              <ShieldCheckmark24Filled />
            </div>
            <div className={styles.topBarBrand}>
              <Text className={styles.topBarTitle}>GRC Platform</Text>
              <Caption1 className={styles.topBarSubtitle}>Risk Management</Caption1>
            </div>
            <div className={styles.topBarEnd}>{bell}</div>
          </header>
        ) : (
          <header className={mergeClasses(styles.topBar, styles.topBarDesktop)}>{bell}</header>
        )}
        <ConnectionStatus />
        <main id="main-content" tabIndex={-1} className={mergeClasses(styles.content, isMobile && styles.contentMobile)}>
          <RiskDataPurgedListener />
          <Outlet />
        </main>
      </div>
    </div>
  );
}
