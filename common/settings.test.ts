import { describe, expect, it } from 'vitest';
import { SettingsFormSchema, SettingsMessages, toMinMailings } from './settings';

// spec 001 §5: 'Minimale verzendingen' is read like every whole number; other text is kept as typed.
describe('toMinMailings', () => {
  it('reads whole numbers with Dutch thousands separators', () => {
    expect(toMinMailings('3')).toBe(3);
    expect(toMinMailings(' 1.000 ')).toBe(1000);
  });

  it('keeps a decimal or negative number as written, so the form says why it is refused', () => {
    const messageOf = (text: string) =>
      SettingsFormSchema.safeParse({ minMailings: text, solarId: '' }).error?.issues[0]?.message;
    expect(toMinMailings('1,5')).toBe(1.5);
    expect(messageOf('1,5')).toBe(SettingsMessages.minMailingsInteger);
    expect(messageOf('-3')).toBe(SettingsMessages.minMailingsNegative);
  });

  it('keeps non-numeric text as typed', () => {
    expect(toMinMailings('veel')).toBe('veel');
  });
});
