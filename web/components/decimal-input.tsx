import { TextInput, type TextInputProps } from '@mantine/core';

interface DecimalInputProps extends Omit<TextInputProps, 'onChange' | 'value'> {
  value: string;
  onChange: (value: string) => void;
}

/** A number field that takes a comma as decimal separator (spec 000 §5); the text is parsed on save. */
export function DecimalInput({ value, onChange, ...rest }: DecimalInputProps) {
  return (
    <TextInput
      inputMode="decimal"
      {...rest}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value.replace(/[^0-9,.-]/g, ''))}
    />
  );
}
