// A type-ahead picker over the loaded data: each change of the text asks the
// server for the first matching options (debounced; the previous lookup
// dropped), so thousands of users or roles stay usable. Only what the
// server answered can be chosen.
import { Caption1, Combobox, makeStyles, Option, tokens } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import type { Subscription } from 'relay-runtime';
import { useDebouncedCallback } from '../forms/useDebouncedCallback';

export type PickerOption = { readonly value: string; readonly label: string };

/** Looks options up for a text; returns the subscription so a newer lookup can drop it. */
export type OptionLookup = (text: string, done: (options: readonly PickerOption[]) => void) => Subscription;

const useStyles = makeStyles({
  option: { display: 'flex', flexDirection: 'column' },
  label: { color: tokens.colorNeutralForeground3 },
});

export function SearchCombobox({
  id,
  lookup,
  value,
  onChange,
  placeholder,
  disabled,
  emptyText,
  ariaLabel,
  clearable,
}: {
  id?: string;
  /** The name when no label names it. */
  ariaLabel?: string;
  /** Offers a button that clears the choice (the filter then matches everything); emptying the text clears it too. */
  clearable?: boolean;
  lookup: OptionLookup;
  /** The chosen value ('' for none). */
  value: string;
  onChange: (option: PickerOption | null) => void;
  placeholder: string;
  disabled?: boolean;
  emptyText: string;
}) {
  const styles = useStyles();
  const [text, setText] = useState(value);
  const [options, setOptions] = useState<readonly PickerOption[]>([]);
  const [loading, setLoading] = useState(false);
  const current = useRef<Subscription | null>(null);
  useEffect(() => () => current.current?.unsubscribe(), []);
  useEffect(() => setText(value), [value]);

  const search = (q: string) => {
    current.current?.unsubscribe();
    setLoading(true);
    current.current = lookup(q, (found) => {
      setOptions(found);
      setLoading(false);
    });
  };
  const debounced = useDebouncedCallback(search, 250);

  return (
    <Combobox
      id={id}
      aria-label={ariaLabel}
      clearable={clearable}
      placeholder={placeholder}
      value={text}
      disabled={disabled}
      freeform
      selectedOptions={value ? [value] : []}
      onOpenChange={(_, d) => {
        if (d.open) search(text === value ? '' : text);
      }}
      onChange={(e) => {
        setText(e.target.value);
        debounced(e.target.value.trim());
      }}
      onOptionSelect={(_, d) => {
        const chosen = options.find((o) => o.value === d.optionValue) ?? null;
        setText(chosen?.value ?? '');
        onChange(chosen);
      }}
      onBlur={() => {
        // Emptied and left (a keyboard user's way of clearing): no choice; else the choice shows again.
        if (!text.trim() && value) onChange(null);
        else setText(value);
      }}
    >
      {options.length === 0 ? (
        <Option value="" text="" disabled>
          {loading ? 'Searching...' : emptyText}
        </Option>
      ) : (
        options.map((o) => (
          <Option key={o.value} value={o.value} text={o.value}>
            <span className={styles.option}>
              <span>{o.value}</span>
              {o.label && o.label !== o.value ? <Caption1 className={styles.label}>{o.label}</Caption1> : null}
            </span>
          </Option>
        ))
      )}
    </Combobox>
  );
}
