import { useState } from 'react';
import { Combobox, makeStyles, Option } from '@fluentui/react-components';

const useStyles = makeStyles({ root: { width: '100%', minWidth: 0 } });

/** One choice of a search picker: the id stored and the text shown. */
export interface SearchChoice {
  id: number;
  label: string;
}

/** What a search picker needs from the widget that owns the search. */
export interface SearchPickerProps {
  id: string;
  disabled?: boolean;
  placeholder: string;
  /** The chosen id, and how it reads (a name, or `#id` until the name arrives). */
  current: number | undefined;
  chosenLabel: string;
  /** What the person typed (undefined: not searching); the owner searches with it. */
  text: string | undefined;
  onText(text: string | undefined): void;
  choices: SearchChoice[];
  fetching: boolean;
  onPick(id: number | undefined): void;
  onBlur(): void;
  onFocus(): void;
  /** `data-widget` of the box and a data attribute naming each option's id (for tests and styles). */
  widget?: string;
  optionAttribute?: string;
}

/**
 * The combobox the id pickers share (a record of another entity, a staff user): it opens
 * while one types, so the list follows the search, and stores the picked id (or nothing,
 * when cleared). The owner runs the search from `text` and hands the results in.
 */
export function SearchPicker(props: SearchPickerProps) {
  const {
    id,
    disabled,
    placeholder,
    current,
    chosenLabel,
    text,
    onText,
    choices,
    fetching,
    onPick,
    onBlur,
    onFocus,
    widget,
    optionAttribute,
  } = props;
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  return (
    <Combobox
      id={id}
      className={styles.root}
      disabled={disabled}
      clearable
      data-widget={widget}
      placeholder={placeholder}
      value={text ?? chosenLabel}
      open={open && (choices.length > 0 || fetching)}
      onOpenChange={(_, data) => setOpen(data.open)}
      selectedOptions={current !== undefined ? [String(current)] : []}
      onChange={(event) => {
        onText((event.target as HTMLInputElement).value);
        setOpen(true);
      }}
      onOptionSelect={(_, data) => {
        setOpen(false);
        onText(undefined);
        onPick(data.optionValue ? Number(data.optionValue) : undefined);
      }}
      onBlur={() => {
        onText(undefined);
        onBlur();
      }}
      onFocus={onFocus}
    >
      {choices.map((c) => (
        <Option
          key={c.id}
          value={String(c.id)}
          text={c.label}
          {...(optionAttribute ? { [optionAttribute]: c.id } : {})}
        >
          {c.label}
        </Option>
      ))}
    </Combobox>
  );
}
