import { ActionIcon, Group, Input, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconX } from '@tabler/icons-react';
import type { ExternalParty } from '../../../common/campaigns';

/** What the input needs of a form: the provider and the id list (the campaign and the mailing form). */
export interface ExternalIdsFormValues {
  externalParty: ExternalParty;
  externalIds: string[];
}

/**
 * The campaign's external ids: one input per id, and always an empty one at the end for the next
 * (spec 001 §3); empty entries are dropped on save.
 */
export function ExternalIdsInput<V extends ExternalIdsFormValues>({
  form: typed,
}: {
  form: UseFormReturnType<V>;
}) {
  // Only the two shared fields are touched; the form is handled as one of exactly those.
  const form = typed as unknown as UseFormReturnType<ExternalIdsFormValues>;
  const ids = form.values.externalIds;
  const isWebpower = form.values.externalParty === 'webpower';
  const handleChange = (index: number, value: string) => {
    form.setFieldValue(`externalIds.${index}`, value);
    if (index === ids.length - 1 && value !== '') form.insertListItem('externalIds', '');
  };

  return (
    <Input.Wrapper
      label="Externe ids"
      description={
        isWebpower
          ? 'Webpower: campagne-id en mailing-id gescheiden door een dubbele punt, bijvoorbeeld 123:456'
          : 'Tripolis: één mailing-id per regel'
      }
    >
      <Stack gap="xs" mt={4}>
        {ids.map((id, index) => (
          // Entries have no identity of their own; the position is the key.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              maxLength={100}
              aria-label={`Extern id ${index + 1}`}
              placeholder={isWebpower ? '123:456' : 'Mailing-id'}
              value={id}
              error={form.errors[`externalIds.${index}`]}
              onChange={(e) => handleChange(index, e.currentTarget.value)}
            />
            {index < ids.length - 1 && (
              <ActionIcon
                variant="subtle"
                color="gray"
                mt={6}
                aria-label={`Verwijder extern id ${index + 1}`}
                onClick={() => form.removeListItem('externalIds', index)}
              >
                <IconX size={16} />
              </ActionIcon>
            )}
          </Group>
        ))}
      </Stack>
    </Input.Wrapper>
  );
}
