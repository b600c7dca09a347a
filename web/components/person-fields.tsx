import { Select, SimpleGrid, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { GENDER_OPTIONS, personFields } from '../../common/person';

type PersonPath = 'firstName' | 'preposition' | 'lastName' | 'gender';

/** The part of a Mantine form the person fields use: a form whose values hold a person's name and gender. */
export interface PersonForm {
  getInputProps(path: PersonPath): GetInputPropsReturnType;
}

// The limits of the common contract (spec 000 §3), so a name cannot be typed longer than it accepts.
const maxLength = (path: Exclude<PersonPath, 'gender'>) => personFields[path].unwrap().maxLength ?? undefined;

/** The name row of a person form (contact, test person): voornaam, tussenvoegsel, achternaam. */
export function PersonNameFields({ form }: { form: PersonForm }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <TextInput label="Voornaam" maxLength={maxLength('firstName')} {...form.getInputProps('firstName')} />
      <TextInput
        label="Tussenvoegsel"
        maxLength={maxLength('preposition')}
        {...form.getInputProps('preposition')}
      />
      <TextInput label="Achternaam" maxLength={maxLength('lastName')} {...form.getInputProps('lastName')} />
    </SimpleGrid>
  );
}

/** The gender select of a person form: man, vrouw or onbekend, never empty. */
export function GenderSelect({ form }: { form: PersonForm }) {
  return (
    <Select label="Geslacht" data={GENDER_OPTIONS} allowDeselect={false} {...form.getInputProps('gender')} />
  );
}
