import { Avatar, Button, Caption1, makeStyles, mergeClasses, Nav, NavItem, Text, tokens, Tooltip } from '@fluentui/react-components';
import {
  Alert20Regular,
  ArrowUpload20Regular,
  Beaker20Regular,
  Board20Regular,
  Dismiss20Regular,
  DocumentBulletList20Regular,
  Key20Regular,
  PanelLeftContract20Regular,
  PanelLeftExpand20Regular,
  People20Regular,
  PeopleTeam20Regular,
  Settings20Regular,
  ShieldCheckmark24Filled,
  ShieldTask20Regular,
  ShieldKeyhole20Regular,
  SignOut20Regular,
} from '@fluentui/react-icons';
import { useState, type MouseEvent, type ReactElement } from 'react';
import { graphql, useFragment } from 'react-relay';
import { useLocation, useNavigate } from 'react-router';
import type { Sidebar_viewer$data, Sidebar_viewer$key } from '../__generated__/Sidebar_viewer.graphql';
import { useSession } from '../auth/SessionProvider';
import { shownName, initials, roleLabel } from '../domain/users/userNames';

type Role = 'ADMIN' | 'REVIEWER';

type NavEntry = { to: string; label: string; roles: ReadonlyArray<Role>; icon: ReactElement };

/** SPEC §2, 'Sidebar and navigation' (the second variant, with Admin Settings). */
export const NAV_ENTRIES: ReadonlyArray<NavEntry> = [
  { to: '/', label: 'Dashboard', roles: ['ADMIN', 'REVIEWER'], icon: <Board20Regular /> },
  { to: '/upload', label: 'Data Upload', roles: ['ADMIN'], icon: <ArrowUpload20Regular /> },
  { to: '/risk-review', label: 'Risk Review', roles: ['ADMIN', 'REVIEWER'], icon: <ShieldTask20Regular /> },
  { to: '/assignments', label: 'Assignments', roles: ['ADMIN'], icon: <PeopleTeam20Regular /> },
  { to: '/reports', label: 'Reports', roles: ['ADMIN', 'REVIEWER'], icon: <DocumentBulletList20Regular /> },
  { to: '/users', label: 'User Management', roles: ['ADMIN'], icon: <People20Regular /> },
  { to: '/notifications', label: 'Notifications', roles: ['ADMIN'], icon: <Alert20Regular /> },
  { to: '/risk-simulation', label: 'Risk Simulation', roles: ['ADMIN'], icon: <Beaker20Regular /> },
  { to: '/access-analysis', label: 'Access Analysis', roles: ['ADMIN'], icon: <ShieldKeyhole20Regular /> },
  { to: '/admin-settings', label: 'Admin Settings', roles: ['ADMIN'], icon: <Settings20Regular /> },
];

export function navEntriesFor(role: string): NavEntry[] {
  return NAV_ENTRIES.filter((entry) => entry.roles.includes(role as Role));
}

function selectedEntry(pathname: string, entries: NavEntry[]): string | undefined {
  if (pathname === '/') return '/';
  const match = entries.filter((e) => e.to !== '/' && (pathname === e.to || pathname.startsWith(`${e.to}/`))).sort((a, b) => b.to.length - a.to.length)[0];
  if (match) return match.to;
  if (pathname === '/assigned-risks' || pathname === '/risks') return '/risk-review';
  if (pathname === '/all-reviews') return '/reports';
  return undefined;
}

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    width: '100%',
    height: '100%',
    minHeight: 0,
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground1,
  },
  header: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalM,
    paddingTop: tokens.spacingVerticalL,
    paddingBottom: tokens.spacingVerticalL,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  headerCollapsed: {
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    paddingLeft: tokens.spacingHorizontalS,
  },
  logo: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    width: '36px',
    height: '36px',
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
  },
  brand: {
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    minWidth: 0,
  },
  brandTitle: {
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    color: tokens.colorNeutralForeground1,
  },
  brandSubtitle: {
    color: tokens.colorNeutralForeground3,
  },
  nav: {
    flexGrow: 1,
    overflowY: 'auto',
    paddingTop: tokens.spacingVerticalM,
    paddingBottom: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalS,
    paddingRight: tokens.spacingHorizontalS,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
  },
  navItem: {
    backgroundColor: 'transparent',
  },
  navItemCollapsed: {
    justifyContent: 'center',
    paddingLeft: 0,
    paddingRight: 0,
  },
  footer: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalL,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  footerCollapsed: {
    alignItems: 'center',
    paddingLeft: tokens.spacingHorizontalS,
    paddingRight: tokens.spacingHorizontalS,
  },
  user: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalM,
    minWidth: 0,
  },
  userText: {
    display: 'flex',
    flexDirection: 'column',
    minWidth: 0,
  },
  userName: {
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground1,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  userRole: {
    color: tokens.colorNeutralForeground3,
  },
  signOut: {
    justifyContent: 'flex-start',
  },
});

export type SidebarProps = {
  viewer: Sidebar_viewer$key;
  /** Narrow, icon-only rendering (desktop). */
  collapsed?: boolean;
  /** Shown on desktop: collapses or expands the sidebar. */
  onToggleCollapsed?: () => void;
  /** Shown in the mobile slide-over: closes it. */
  onClose?: () => void;
  /** Called after an entry is chosen (closes the slide-over). */
  onNavigate?: () => void;
  className?: string;
};

export function Sidebar({ viewer, collapsed = false, onToggleCollapsed, onClose, onNavigate, className }: SidebarProps) {
  const user = useFragment(
    graphql`
      fragment Sidebar_viewer on User {
        firstName
        lastName
        displayName
        email
        role
        canCreateApiTokens
      }
    `,
    viewer,
  );
  const styles = useStyles();
  const { pathname } = useLocation();
  const go = useNavigateFromLink(onNavigate);
  const entries = navEntriesFor(user.role);

  return (
    <div className={mergeClasses(styles.root, className)}>
      <SidebarHeader collapsed={collapsed} onToggleCollapsed={onToggleCollapsed} onClose={onClose} />

      <nav aria-label="Main navigation" className={styles.nav}>
        <Nav selectedValue={selectedEntry(pathname, entries) ?? ''} density="medium">
          {entries.map((entry) =>
            collapsed ? (
              <Tooltip key={entry.to} content={entry.label} relationship="label" positioning="after">
                <NavItem
                  value={entry.to}
                  href={entry.to}
                  icon={entry.icon}
                  onClick={go(entry.to)}
                  className={mergeClasses(styles.navItem, styles.navItemCollapsed)}
                />
              </Tooltip>
            ) : (
              <NavItem key={entry.to} value={entry.to} href={entry.to} icon={entry.icon} onClick={go(entry.to)} className={styles.navItem}>
                {entry.label}
              </NavItem>
            ),
          )}
        </Nav>
      </nav>

      <SidebarFooter user={user} collapsed={collapsed} go={go} pathname={pathname} />
    </div>
  );
}

type Go = (to: string) => (event: MouseEvent<HTMLElement>) => void;

/** A link's plain click navigates in the app (a modified or other click is the browser's), then `onNavigate`. */
function useNavigateFromLink(onNavigate: (() => void) | undefined): Go {
  const navigate = useNavigate();
  return (to: string) => (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    navigate(to);
    onNavigate?.();
  };
}

function SidebarHeader({ collapsed, onToggleCollapsed, onClose }: Pick<SidebarProps, 'onToggleCollapsed' | 'onClose'> & { collapsed: boolean }) {
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.header, collapsed && styles.headerCollapsed)}>
      <div className={styles.logo} aria-hidden>
        <ShieldCheckmark24Filled />
      </div>
      {collapsed ? null : (
        <div className={styles.brand}>
          <Text className={styles.brandTitle}>GRC Platform</Text>
          <Caption1 className={styles.brandSubtitle}>Risk Management</Caption1>
        </div>
      )}
      {onToggleCollapsed ? (
        <Tooltip content={collapsed ? 'Expand sidebar' : 'Collapse sidebar'} relationship="label" positioning="after">
          <Button
            appearance="subtle"
            icon={collapsed ? <PanelLeftExpand20Regular /> : <PanelLeftContract20Regular />}
            onClick={onToggleCollapsed}
            aria-expanded={!collapsed}
          />
        </Tooltip>
      ) : null}
      {onClose ? <Button appearance="subtle" icon={<Dismiss20Regular />} onClick={onClose} aria-label="Close navigation" /> : null}
    </div>
  );
}

/** The viewer, API Tokens (when they may create them) and Sign Out; tooltips name them when collapsed. */
function SidebarFooter({ user, collapsed, go, pathname }: { user: Sidebar_viewer$data; collapsed: boolean; go: Go; pathname: string }) {
  const styles = useStyles();
  const { signOut } = useSession();
  const [signingOut, setSigningOut] = useState(false);
  const name = shownName(user.displayName);
  const role = roleLabel(user.role);

  const onSignOut = async () => {
    setSigningOut(true);
    try {
      await signOut();
    } finally {
      setSigningOut(false);
    }
  };

  const signOutButton = (
    <Button
      appearance="subtle"
      icon={<SignOut20Regular />}
      onClick={onSignOut}
      disabled={signingOut}
      aria-label={collapsed ? 'Sign Out' : undefined}
      className={collapsed ? undefined : styles.signOut}
    >
      {collapsed ? null : 'Sign Out'}
    </Button>
  );

  // API Tokens: a personal page beside Sign Out (administrators, or everyone when an administrator allows it).
  const tokensLink =
    user.role === 'ADMIN' || user.canCreateApiTokens ? (
      <Button
        as="a"
        href="/api-tokens"
        appearance="subtle"
        icon={<Key20Regular />}
        onClick={go('/api-tokens')}
        aria-label={collapsed ? 'API Tokens' : undefined}
        aria-current={pathname === '/api-tokens' ? 'page' : undefined}
        className={collapsed ? undefined : styles.signOut}
      >
        {collapsed ? null : 'API Tokens'}
      </Button>
    ) : null;

  return (
    <div className={mergeClasses(styles.footer, collapsed && styles.footerCollapsed)}>
      {collapsed ? (
        <Tooltip content={`${name} (${role})`} relationship="label" positioning="after">
          <Avatar initials={initials(user.firstName, user.lastName, user.email)} name={name} color="brand" />
        </Tooltip>
      ) : (
        <div className={styles.user}>
          <Avatar initials={initials(user.firstName, user.lastName, user.email)} name={name} color="brand" aria-hidden />
          <div className={styles.userText}>
            <Text className={styles.userName} title={user.email}>
              {name}
            </Text>
            <Caption1 className={styles.userRole}>{role}</Caption1>
          </div>
        </div>
      )}
      {tokensLink && collapsed ? (
        <Tooltip content="API Tokens" relationship="description" positioning="after">
          {tokensLink}
        </Tooltip>
      ) : (
        tokensLink
      )}
      {collapsed ? (
        <Tooltip content="Sign Out" relationship="description" positioning="after">
          {signOutButton}
        </Tooltip>
      ) : (
        signOutButton
      )}
    </div>
  );
}
