import { Badge, Field, makeStyles, mergeClasses, Select, Subtitle2, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { formatCount } from '../layout/StatTile';

// The filter bar of the list screens (All Reviews, Remediation): labelled
// drop-downs of choices, and the heading of the results with their total.

const useStyles = makeStyles({
  select: { minWidth: '150px' },
  inline: { alignItems: 'center' },
  heading: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    paddingTop: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalL,
  },
  title: { margin: 0 },
});

/** One choice of a filter: its value ('' for all) and what it says. */
export type FilterChoice = readonly [value: string, label: string];

/** A labelled drop-down filter; the label beside it (inline) or above it. */
export function FilterSelect<T extends string>({
  label,
  value,
  choices,
  onChange,
  inline = false,
}: {
  label: string;
  value: T;
  choices: readonly FilterChoice[];
  onChange: (value: T) => void;
  inline?: boolean;
}) {
  const styles = useStyles();
  return (
    <Field className={mergeClasses(styles.select, inline && styles.inline)} label={label} orientation={inline ? 'horizontal' : 'vertical'}>
      <Select value={value} onChange={(_, d) => onChange(d.value as T)}>
        {choices.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** The heading of a filtered list with the total of what matches (`noun`: 'reviews', 'items'). */
export function ListHeading({ title, total, noun, children }: { title: string; total: number; noun: string; children?: ReactNode }) {
  const styles = useStyles();
  return (
    <div className={styles.heading}>
      <Subtitle2 as="h2" className={styles.title}>
        {title}
      </Subtitle2>
      <Badge appearance="tint" color="brand" aria-label={`${formatCount(total)} ${noun} in total`}>
        {formatCount(total)}
      </Badge>
      {children}
    </div>
  );
}
