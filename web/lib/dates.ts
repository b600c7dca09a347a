import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';

/** A date as DD-MM-YYYY (spec: list and display format); empty for no or invalid dates. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.format('DD-MM-YYYY') : '';
}

/** A date-time as DD-MM-YYYY HH:mm:ss; empty for no or invalid dates. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.format('DD-MM-YYYY HH:mm:ss') : '';
}

/** The value format of date inputs (dd-MM-yyyy, spec 001 §9). */
export const DATE_INPUT_FORMAT = 'DD-MM-YYYY';

dayjs.extend(customParseFormat);

/**
 * Parses a date typed as DD-MM-YYYY (strictly, so half-typed text is no date) for a DateInput's
 * `dateParser`; returns YYYY-MM-DD or null.
 */
export function parseInputDate(text: string): string | null {
  const d = dayjs(text.trim(), DATE_INPUT_FORMAT, true);
  return d.isValid() ? d.format('YYYY-MM-DD') : null;
}
