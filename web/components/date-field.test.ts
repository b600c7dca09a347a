import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Enter in a date field must not submit the whole form. DateField stops that once for all
// date inputs, so no screen may use Mantine's date inputs directly.
const WEB = path.resolve(__dirname, '..');
const OWN = path.join(WEB, 'components', 'date-field.tsx');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('date inputs', () => {
  it('every form takes its date input from DateField', () => {
    const direct = sourceFiles(WEB).filter(
      (file) =>
        file !== OWN &&
        /import\s*\{[^}]*\b(DateInput|DatePickerInput|DateTimePicker|MonthPickerInput|YearPickerInput)\b[^}]*\}\s*from\s*'@mantine\/dates'/.test(
          fs.readFileSync(file, 'utf8'),
        ),
    );
    expect(direct.map((file) => path.relative(WEB, file))).toEqual([]);
  });
});
