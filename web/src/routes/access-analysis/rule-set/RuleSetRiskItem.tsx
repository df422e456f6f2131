import { AccordionHeader, AccordionItem, AccordionPanel, Badge, Caption1, makeStyles, Text, tokens } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { RuleSetRiskItem_risk$key } from '../../../__generated__/RuleSetRiskItem_risk.graphql';

const TYPES: Record<string, string> = { S: 'Segregation of Duties', A: 'Critical Action', P: 'Critical Permission' };

const useStyles = makeStyles({
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS, rowGap: tokens.spacingVerticalXXS, minWidth: 0 },
  muted: { color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
  functions: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  fn: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS, overflowWrap: 'anywhere' },
  actions: { margin: 0, paddingLeft: tokens.spacingHorizontalL, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS },
  permissions: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
});

/** One risk of a rule set version: a header (id, description, level, type, disabled) that opens to its functions, each with its actions and their permissions. */
export function RuleSetRiskItem({ risk }: { risk: RuleSetRiskItem_risk$key }) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment RuleSetRiskItem_risk on AccessRuleRisk {
        riskId
        description
        level
        type
        businessProcess
        enabled
        functions {
          functionId
          description
          scope
          actions {
            system
            action
            description
            enabled
            permissions {
              system
              object
              field
              valueFrom
              valueTo
              enabled
              line
            }
          }
        }
      }
    `,
    risk,
  );
  const disabled = (
    <Badge appearance="outline" color="informative">
      Disabled
    </Badge>
  );
  return (
    <AccordionItem value={r.riskId}>
      <AccordionHeader>
        <span className={styles.header}>
          <Text weight="semibold">{r.riskId}</Text>
          <Text>{r.description}</Text>
          <Caption1 className={styles.muted}>{`${r.level} · ${TYPES[r.type] ?? r.type}${r.businessProcess ? ` · ${r.businessProcess}` : ''}`}</Caption1>
          {r.enabled ? null : disabled}
        </span>
      </AccordionHeader>
      <AccordionPanel>
        <ul className={styles.functions} aria-label={`Functions of ${r.riskId}`}>
          {r.functions.map((f) => (
            <li key={f.functionId} className={styles.fn}>
              <Text weight="semibold">{`${f.functionId} · ${f.description} (${f.scope})`}</Text>
              <ul className={styles.actions} aria-label={`Actions of ${f.functionId}`}>
                {f.actions.map((a) => (
                  <li key={`${a.system}\u0000${a.action}`}>
                    <Text>{`${a.action} on ${a.system || 'every system'}`}</Text> <Caption1 className={styles.muted}>{a.description}</Caption1>{' '}
                    {a.enabled ? null : disabled}
                    {a.permissions.length ? (
                      <ul className={styles.permissions} aria-label={`Permissions of ${a.action}`}>
                        {a.permissions.map((p) => (
                          <li key={p.line}>
                            <Caption1>{`${p.object} ${p.field} = ${p.valueFrom}${p.valueTo ? `..${p.valueTo}` : ''}${p.system ? ` (${p.system})` : ''}`}</Caption1>{' '}
                            {p.enabled ? null : disabled}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <Caption1 as="p" className={styles.muted}>
                        No permission rows: the transaction alone gives the function.
                      </Caption1>
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </AccordionPanel>
    </AccordionItem>
  );
}
