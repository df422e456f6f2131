import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Caption1,
  makeStyles,
  shorthands,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  ToggleButton,
  tokens,
} from '@fluentui/react-components';
import { Checkmark16Regular, Dismiss16Regular, ShieldCheckmark16Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { DecisionDetailsDialog } from '../../domain/risks/DecisionDialogs';
import type { DecisionDetails } from '../../domain/risks/useSaveDecisions';
import { graphql, useFragment } from 'react-relay';
import type { CompositeViewRole_role$data, CompositeViewRole_role$key } from '../../__generated__/CompositeViewRole_role.graphql';
import { useDecisionsLocked, useRoleDecisions, type RoleDecision } from './CompositeViewDecisions';
import { CompositeViewStatusDot } from './CompositeViewStatusDot';

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  top: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  title: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, minWidth: '200px', flexGrow: 1, flexBasis: '260px' },
  nameLine: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS, rowGap: tokens.spacingVerticalXS },
  status: { color: tokens.colorNeutralForeground3, minWidth: '120px' },
  retain: { color: tokens.colorPaletteGreenForeground1 },
  remove: { color: tokens.colorPaletteRedForeground1 },
  // The chosen decision stands out: green for retain, red for remove.
  retainChosen: {
    backgroundColor: tokens.colorPaletteGreenBackground1,
    ...shorthands.borderColor(tokens.colorPaletteGreenBorder2),
    color: tokens.colorPaletteGreenForeground1,
    ':hover': { backgroundColor: tokens.colorPaletteGreenBackground2, color: tokens.colorPaletteGreenForeground1 },
  },
  removeChosen: {
    backgroundColor: tokens.colorPaletteRedBackground1,
    ...shorthands.borderColor(tokens.colorPaletteRedBorder2),
    color: tokens.colorPaletteRedForeground1,
    ':hover': { backgroundColor: tokens.colorPaletteRedBackground2, color: tokens.colorPaletteRedForeground1 },
  },
  scroll: { overflowX: 'auto' },
  table: { minWidth: '720px' },
  lists: { marginLeft: `calc(-1 * ${tokens.spacingHorizontalM})` },
  chips: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
  functions: { margin: 0, paddingLeft: tokens.spacingHorizontalXL },
});

function statusText(pending: { state: 'queued' | 'saving' } | undefined, decision: string | null | undefined, allDecided: boolean): string {
  if (pending?.state === 'saving') return 'Saving...';
  if (pending) return 'Unsaved change';
  if (decision === 'RETAIN') return 'Saved: Retain';
  if (decision === 'REMOVE') return 'Saved: Remove';
  if (decision === 'RETAIN_MITIGATED') return 'Saved: Retain (mitigated)';
  return allDecided ? 'Mixed decisions' : 'Not decided yet';
}

type Detail = { readonly riskRowId: string; readonly [field: string]: unknown };
const SHOWN_FIELDS = ['authObject', 'field', 'valueFrom', 'valueTo', 'system', 'businessProcess'] as const;

/**
 * Permission rows that read the same in every column
 * (they differ only in what the table does not show, such as the rule id)
 * are shown once, with how many rows they stand for.
 */
export function groupIdentical<T extends Detail>(details: readonly T[]): { detail: T; count: number }[] {
  const byKey = new Map<string, { detail: T; count: number }>();
  for (const d of details) {
    const key = JSON.stringify(SHOWN_FIELDS.map((f) => d[f]));
    const seen = byKey.get(key);
    if (seen) seen.count += 1;
    else byKey.set(key, { detail: d, count: 1 });
  }
  return [...byKey.values()];
}

/**
 * A composite role under a risk group: HIGH badge, conflicts, status,
 * Retain / Remove (retain by default; saved debounced), its Authorization
 * Details and its Rule IDs and Functions.
 */
export function CompositeViewRole({ role }: { role: CompositeViewRole_role$key }) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment CompositeViewRole_role on CompositeRole {
        id
        userId
        compositeBusinessRole
        isDirect
        name
        description
        isHigh
        conflictCount
        allDecided
        decision
        ruleIds {
          ruleId
          isHighRisk
        }
        functions {
          function
          description
        }
        authorizationDetailCount
        authorizationDetails {
          riskRowId
          authObject
          authObjectDescription
          field
          fieldDescription
          valueFrom
          valueTo
          system
          businessProcess
          businessProcessDescription
        }
      }
    `,
    role,
  );
  const decision = useRoleDecision(r);
  const name = r.name || (r.isDirect ? 'Directly assigned roles' : r.compositeBusinessRole);

  return (
    <section className={styles.card} role="group" aria-label={`Composite role ${name}`}>
      <div className={styles.top}>
        <RoleTitle r={r} name={name} />
        <RoleDecisionActions r={r} name={name} decision={decision} />
      </div>

      <AuthorizationDetails name={name} details={r.authorizationDetails} detailCount={r.authorizationDetailCount} />

      <RuleIdsAndFunctions ruleIds={r.ruleIds} functions={r.functions} />
    </section>
  );
}

type Role = CompositeViewRole_role$data;

/** The role's decision: the saved one or the change not saved yet (retain by default), and its setters. */
function useRoleDecision(r: Role) {
  const locked = useDecisionsLocked();
  const { pending, decide } = useRoleDecisions();
  const change = pending(r.userId, r.compositeBusinessRole);
  // SPEC §4: a role defaults to retain.
  const effective: RoleDecision = change?.decision ?? (r.decision === 'REMOVE' || r.decision === 'RETAIN_MITIGATED' ? r.decision : 'RETAIN');
  // 'Retain with mitigating control' asks for the control, expiry and comment first.
  const [mitigating, setMitigating] = useState(false);
  const choose = (d: RoleDecision, details?: DecisionDetails) => decide(r.userId, r.compositeBusinessRole, d, details);
  return { locked, change, effective, mitigating, setMitigating, choose };
}

function RoleTitle({ r, name }: { r: Role; name: string }) {
  const styles = useStyles();
  return (
    <div className={styles.title}>
      <span className={styles.nameLine}>
        <Text className={styles.name}>{name}</Text>
        {r.isHigh ? (
          <Badge appearance="filled" color="danger" shape="rounded" size="small">
            HIGH
          </Badge>
        ) : null}
        {r.isDirect ? (
          <Badge appearance="outline" color="informative" shape="rounded" size="small">
            Direct
          </Badge>
        ) : null}
      </span>
      {r.description ? <Caption1 className={styles.muted}>{r.description}</Caption1> : null}
      {r.isDirect ? <Caption1 className={styles.muted}>Assigned directly: the decision applies to all of this user’s directly assigned roles.</Caption1> : null}
    </div>
  );
}

/** Retain, Remove, Mitigate (with its dialog) and what is saved. */
function RoleDecisionActions({ r, name, decision }: { r: Role; name: string; decision: ReturnType<typeof useRoleDecision> }) {
  const styles = useStyles();
  const { locked, change, effective, mitigating, setMitigating, choose } = decision;
  return (
    <div className={styles.actions}>
      <Caption1 className={styles.muted}>
        {r.conflictCount} {r.conflictCount === 1 ? 'conflict' : 'conflicts'}
      </Caption1>
      <CompositeViewStatusDot decided={r.allDecided} />
      <ToggleButton
        size="small"
        checked={effective === 'RETAIN'}
        className={effective === 'RETAIN' && !locked ? styles.retainChosen : undefined}
        disabled={locked}
        icon={<Checkmark16Regular className={styles.retain} />}
        onClick={() => choose('RETAIN')}
      >
        Retain
      </ToggleButton>
      <ToggleButton
        size="small"
        checked={effective === 'REMOVE'}
        className={effective === 'REMOVE' && !locked ? styles.removeChosen : undefined}
        disabled={locked}
        icon={<Dismiss16Regular className={styles.remove} />}
        onClick={() => choose('REMOVE')}
      >
        Remove
      </ToggleButton>
      <ToggleButton
        size="small"
        checked={effective === 'RETAIN_MITIGATED'}
        disabled={locked}
        icon={<ShieldCheckmark16Regular />}
        onClick={() => setMitigating(true)}
      >
        Mitigate
      </ToggleButton>
      {mitigating ? (
        <DecisionDetailsDialog
          decision="RETAIN_MITIGATED"
          count={r.conflictCount}
          intro={`Retain ${name} for this user with a mitigating control: every one of its ${r.conflictCount} ${r.conflictCount === 1 ? 'risk' : 'risks'}.`}
          busy={false}
          onConfirm={(details) => {
            setMitigating(false);
            choose('RETAIN_MITIGATED', details);
          }}
          onClose={() => setMitigating(false)}
        />
      ) : null}
      <Caption1 className={styles.status} aria-live="polite">
        {statusText(change, r.decision, r.allDecided)}
      </Caption1>
    </div>
  );
}

function AuthorizationDetails({ name, details, detailCount }: { name: string; details: Role['authorizationDetails']; detailCount: number }) {
  const styles = useStyles();
  const grouped = groupIdentical(details);
  return (
    <>
      <Subtitle2 as="h4">Authorization Details</Subtitle2>
      {details.length === 0 ? (
        <Caption1 className={styles.muted}>The export carries no authorization details for this role.</Caption1>
      ) : (
        <div className={styles.scroll}>
          <Table size="small" className={styles.table} aria-label={`Authorization details of ${name}`}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Auth Object</TableHeaderCell>
                <TableHeaderCell>Field</TableHeaderCell>
                <TableHeaderCell>Value From</TableHeaderCell>
                <TableHeaderCell>Value To</TableHeaderCell>
                <TableHeaderCell>System</TableHeaderCell>
                <TableHeaderCell>Business Process</TableHeaderCell>
                <TableHeaderCell>Rows</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {grouped.map(({ detail: d, count }) => (
                <TableRow key={d.riskRowId}>
                  <TableCell title={d.authObjectDescription || undefined}>{d.authObject || '—'}</TableCell>
                  <TableCell title={d.fieldDescription || undefined}>{d.field || '—'}</TableCell>
                  <TableCell>{d.valueFrom || '—'}</TableCell>
                  <TableCell>{d.valueTo || '—'}</TableCell>
                  <TableCell>{d.system || '—'}</TableCell>
                  <TableCell title={d.businessProcessDescription || undefined}>{d.businessProcess || '—'}</TableCell>
                  <TableCell>{count}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {detailCount > details.length ? (
        <Caption1 className={styles.muted}>
          Showing the first {details.length} of {detailCount} permissions.
        </Caption1>
      ) : null}
    </>
  );
}

function RuleIdsAndFunctions({ ruleIds, functions }: Pick<Role, 'ruleIds' | 'functions'>) {
  const styles = useStyles();
  return (
    <Accordion className={styles.lists} collapsible multiple>
      <AccordionItem value="rules">
        <AccordionHeader size="small">Rule IDs ({ruleIds.length})</AccordionHeader>
        <AccordionPanel>
          {ruleIds.length === 0 ? (
            <Caption1 className={styles.muted}>None</Caption1>
          ) : (
            <div className={styles.chips}>
              {ruleIds.map((x) => (
                <Badge
                  key={x.ruleId}
                  appearance="tint"
                  color={x.isHighRisk ? 'danger' : 'informative'}
                  shape="rounded"
                  title={x.isHighRisk ? 'High-risk rule' : undefined}
                >
                  {x.ruleId}
                </Badge>
              ))}
            </div>
          )}
        </AccordionPanel>
      </AccordionItem>
      <AccordionItem value="functions">
        <AccordionHeader size="small">Functions ({functions.length})</AccordionHeader>
        <AccordionPanel>
          {functions.length === 0 ? (
            <Caption1 className={styles.muted}>None</Caption1>
          ) : (
            <ul className={styles.functions}>
              {functions.map((f) => (
                <li key={f.function + f.description}>
                  <Text weight="semibold">{f.function}</Text>
                  {f.description ? <Text> — {f.description}</Text> : null}
                </li>
              ))}
            </ul>
          )}
        </AccordionPanel>
      </AccordionItem>
    </Accordion>
  );
}
