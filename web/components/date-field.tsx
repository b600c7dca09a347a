import { DateInput, type DateInputProps } from '@mantine/dates';
import type { KeyboardEvent } from 'react';
import { DATE_INPUT_FORMAT, parseInputDate } from '../lib/dates';

/**
 * The date input of every form: typed as DD-MM-YYYY (spec 001 §9) unless a prop says otherwise,
 * and Enter never submits the form around it (Enter after typing a date would create a
 * campaign before the rest was filled in). Takes DateInput's props.
 */
export function DateField({ onKeyDown, ...props }: DateInputProps) {
  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // The typed date is taken while it is typed (dateParser): Enter has nothing left to do.
    if (event.key === 'Enter') event.preventDefault();
    onKeyDown?.(event);
  };
  return (
    <DateInput
      placeholder="DD-MM-JJJJ"
      valueFormat={DATE_INPUT_FORMAT}
      dateParser={parseInputDate}
      {...props}
      onKeyDown={handleKeyDown}
    />
  );
}
