import { Badge, Caption1, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { Fragment } from 'react';

const useStyles = makeStyles({
  level: {
    display: 'inline-flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    whiteSpace: 'nowrap',
  },
  dot: {
    display: 'inline-block',
    flexShrink: 0,
    width: '10px',
    height: '10px',
    borderRadius: tokens.borderRadiusCircular,
  },
  red: { backgroundColor: tokens.colorPaletteRedBackground3 },
  orange: { backgroundColor: tokens.colorPaletteDarkOrangeBackground3 },
  green: { backgroundColor: tokens.colorPaletteGreenBackground3 },
  mitigation: { display: 'inline-flex', flexDirection: 'column', alignItems: 'flex-start', rowGap: tokens.spacingVerticalXXS },
});

/** A small coloured dot standing for a state (a risk level, a review status), named by `label`. */
export function ColorDot({ color, label, title, className }: { color: 'red' | 'orange' | 'green'; label: string; title?: string; className?: string }) {
  const styles = useStyles();
  return <span className={mergeClasses(styles.dot, styles[color], className)} role="img" aria-label={label} title={title} />;
}

/** The schema's RiskLevel and DecisionValue enums, as Relay generates them. */
export type { RiskLevel as RiskLevelValue, DecisionValue as DecisionValueType } from '../../__generated__/DecisionDialogsByFilterMutation.graphql';

const LEVEL_LABEL: Record<string, string> = { high: 'High', medium: 'Medium', low: 'Low' };

export function riskLevelLabel(level: string): string {
  return LEVEL_LABEL[level.toLowerCase()] ?? level;
}

/** The risk level dot (SPEC §2), with the level as text beside it unless `dotOnly`. */
export function RiskLevelIndicator({ level, dotOnly = false, className }: { level: string; dotOnly?: boolean; className?: string }) {
  const styles = useStyles();
  const label = riskLevelLabel(level);
  return (
    <span className={mergeClasses(styles.level, className)} title={`${label} risk`}>
      <ColorDot color={level.toLowerCase() === 'high' ? 'red' : level.toLowerCase() === 'medium' ? 'orange' : 'green'} label={`${label} risk`} />
      {dotOnly ? null : <Text size={200}>{label}</Text>}
    </span>
  );
}

export function decisionLabel(decision: string | null | undefined): string {
  if (decision === 'RETAIN') return 'Retain';
  if (decision === 'REMOVE') return 'Remove';
  if (decision === 'RETAIN_MITIGATED') return 'Retain (mitigated)';
  return 'Pending';
}

/** Retain, Remove or Pending as a badge; a mitigation names its control and expiry beside it. */
export function DecisionBadge({ decision, control, expiresAt }: { decision: string | null | undefined; control?: string | null; expiresAt?: string | null }) {
  const styles = useStyles();
  const color = decision === 'REMOVE' ? 'danger' : decision === 'RETAIN' || decision === 'RETAIN_MITIGATED' ? 'success' : 'warning';
  const badge = (
    <Badge appearance="tint" color={color} shape="rounded">
      {decisionLabel(decision)}
    </Badge>
  );
  if (decision !== 'RETAIN_MITIGATED' || (!control && !expiresAt)) return badge;
  return (
    <span className={styles.mitigation}>
      {badge}
      <Caption1>
        {control ?? ''}
        {expiresAt ? ` · until ${expiresAt.slice(0, 10)}` : ''}
      </Caption1>
    </span>
  );
}

/** SPEC §3 criteria types with readable labels. */
export const CRITERIA_TYPE_OPTIONS = [
  { value: 'RISK_ID', label: 'Risk ID' },
  { value: 'USER_ID', label: 'User ID' },
  { value: 'USER_GROUP', label: 'User Group' },
  { value: 'SYSTEM', label: 'System' },
  { value: 'ROLE_PROFILE', label: 'Role Profile' },
] as const;

export type CriteriaTypeValue = (typeof CRITERIA_TYPE_OPTIONS)[number]['value'];

export function criteriaTypeLabel(type: string): string {
  return CRITERIA_TYPE_OPTIONS.find((o) => o.value === type)?.label ?? type;
}

/** SPEC §5: the default assignment name — the type upper-cased with underscores as spaces, a colon, the value. */
export function defaultAssignmentName(type: string, value: string): string {
  return `${type.toUpperCase().replace(/_/g, ' ')}: ${value}`;
}

// Dates follow the app's one rule (components/dates.ts).
export { formatDate, formatDateTime } from '../../components/format/dates';

/**
 * A technical name (a role such as WD_HR_PARTNER, a composite role) that a
 * narrow column may break after its underscores, slashes and dots rather
 * than in the middle of a word.
 */
export function TechName({ value }: { value: string }) {
  const parts = value.split(/(?<=[_/.])/);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {p}
        </Fragment>
      ))}
    </>
  );
}
